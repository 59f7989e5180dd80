// SPDX-License-Identifier: MIT
/* `latctl report FILE.json`: print the report of a saved run. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "doc/result.h"
#include "report/render.h"

int cmd_report(int argc, char **argv)
{
	cJSON *doc = NULL;
	int ret;

	if (lat_is_help(argc, argv)) {
		puts("usage: latctl report FILE.json\n\n"
		     "Prints the text report of a result written by 'latctl run --json FILE',\n"
		     "exactly as the run printed it.");
		return LAT_EXIT_OK;
	}
	if (argc != 2) {
		fprintf(stderr, "latctl report: give one result file: latctl report FILE.json\n");
		return LAT_EXIT_USAGE;
	}
	if (lat_result_read(argv[1], &doc))
		return LAT_EXIT_USAGE;
	ret = lat_result_render(doc, stdout, argv[1]);
	cJSON_Delete(doc);
	return ret ? LAT_EXIT_USAGE : LAT_EXIT_OK;
}
