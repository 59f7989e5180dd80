// SPDX-License-Identifier: MIT
/*
 * `latctl backends`: which event backends this kernel allows and why not
 * the others, one line (backend_caps.h). Exit 0 when at least one records
 * causes here, 1 when none does.
 */
#include <stdio.h>

#include "backend/backend_caps.h"
#include "cmd/cmd.h"
#include "lib/latctl.h"

int cmd_backends(int argc, char **argv)
{
	struct lat_backend_caps c;
	char line[400];

	if (lat_is_help(argc, argv)) {
		puts("usage: latctl backends\n\n"
		     "Prints in one line which event backends (latmon, bpf) this kernel\n"
		     "allows and why not the others.\n\n"
		     "exit status: 0 when at least one backend records causes here, else 1.");
		return LAT_EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr, "latctl backends: takes no argument\n");
		return LAT_EXIT_USAGE;
	}
	lat_backend_caps(&c);
	lat_backend_caps_line(&c, line, sizeof(line));
	puts(line);
	return c.latmon_loaded || c.latmon_loadable || c.bpf ? LAT_EXIT_OK : LAT_EXIT_FAIL;
}
