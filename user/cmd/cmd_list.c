// SPDX-License-Identifier: MIT
/* `latctl list`: the workloads, their modes, default size and options. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "run/opts.h"
#include "workload/workload.h"

int cmd_list(int argc, char **argv)
{
	const struct workload_ops *const *w;

	if (lat_is_help(argc, argv)) {
		puts("usage: latctl list\n\n"
		     "Lists each workload with its modes (the first is the default), its\n"
		     "default --iters and its own options of 'latctl run'.");
		return LAT_EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr, "latctl list: takes no argument\n");
		return LAT_EXIT_USAGE;
	}
	for (w = lat_workloads; *w; w++) {
		printf("%-8s %s\n", (*w)->name, (*w)->summary);
		if ((*w)->modes)
			printf("         modes: %s (the first is the default)\n", (*w)->modes);
		printf("         default --iters %llu\n", (unsigned long long)(*w)->default_iters);
		lat_wl_opts_print(*w, "         ", stdout);
	}
	return LAT_EXIT_OK;
}
