// SPDX-License-Identifier: MIT
/* `latctl report [--metrics] FILE.json`: print the report of a saved run,
 * or its headline metrics one per line. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "doc/result.h"
#include "doc/runs.h"
#include "report/render.h"
#include "compare/metric_list.h"

static void usage(FILE *out);

static const struct lat_opt report_opts[] = {
	LAT_OPT_HELP,
	{ "metrics", LAT_OPT_LONG, NULL,
	  "instead, one line per headline metric, \"NAME VALUE UNIT\"\n"
	  "(medians over the runs of a --repeat result): p50 ...\n"
	  "p99_9, max, mean, faults_per_iter, huge_pages, fault_p50\n"
	  "..., share_CAUSE, primary_share, lost_events, runs; the\n"
	  "names test harnesses (LAVA) record, stable across versions",
	  NULL, NULL },
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts report_cmd = {
	.cmd = "latctl report", .opt = report_opts, .width = 18, .args = "<json>", .usage = usage,
};

static void usage(FILE *out)
{
	fputs("usage: latctl report [--metrics] FILE.json\n\n"
	      "Prints the text report of a result written by 'latctl run --json FILE',\n"
	      "exactly as the run printed it.\n\n"
	      "options:\n", out);
	lat_opt_usage(out, &report_cmd);
}

/* The metric lines of a result file. */
static int report_metrics(const char *path)
{
	cJSON *doc = NULL;
	int ret;

	if (lat_runs_load(path, &doc))
		return LAT_EXIT_USAGE;
	ret = lat_metric_list_print(doc, stdout);
	cJSON_Delete(doc);
	if (ret)
		fprintf(stderr, "latctl report: out of memory\n");
	return ret ? LAT_EXIT_FAIL : LAT_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	cJSON *doc = NULL;
	int ret;

	if (lat_opt_only_help(&report_cmd, argc, argv) == LAT_PARSED_HELP)
		return LAT_EXIT_OK;
	if (argc == 3 && !strcmp(argv[1], "--metrics"))
		return report_metrics(argv[2]);
	if (argc >= 2 && argv[1][0] == '-' && argv[1][1] && strcmp(argv[1], "--metrics")) {
		fprintf(stderr, "latctl report: unknown option '%s'; see 'latctl report --help'\n", argv[1]);
		return LAT_EXIT_USAGE;
	}
	if (argc != 2 || !strcmp(argv[1], "--metrics")) {
		fprintf(stderr, "latctl report: give one result file: latctl report [--metrics] FILE.json\n");
		return LAT_EXIT_USAGE;
	}
	if (lat_result_read(argv[1], &doc))
		return LAT_EXIT_USAGE;
	ret = lat_result_render(doc, stdout, argv[1]);
	cJSON_Delete(doc);
	return ret ? LAT_EXIT_USAGE : LAT_EXIT_OK;
}
