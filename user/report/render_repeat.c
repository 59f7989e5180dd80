// SPDX-License-Identifier: MIT
/* The spread over the runs of a --repeat document, after the report. */
#include <stdio.h>
#include <stdlib.h>

#include "compare/signif.h"
#include "doc/runs.h"
#include "lib/fmt.h"
#include "lib/rdoc.h"
#include "report/render.h"

#define SPREAD_METRICS	6	/* p50 .. max, the first rows of lat_metrics */

/* Median, min and max over the runs of metric m. */
static void spread_of(const cJSON *doc, size_t m, double out[3])
{
	struct lat_interval iv;
	double *v;
	size_t k = lat_metric_values(doc, &lat_metrics[m], &v), i;

	out[0] = out[1] = out[2] = 0;
	if (k && !lat_median_interval(v, k, &iv)) {
		out[0] = iv.median;
		out[1] = out[2] = v[0];
		for (i = 1; i < k; i++) {
			out[1] = v[i] < out[1] ? v[i] : out[1];
			out[2] = v[i] > out[2] ? v[i] : out[2];
		}
	}
	free(v);
}

/* --repeat writes its section and options.repeat; a single run neither.
 * Each run of the list has the summary figures the spread is made of. */
static const cJSON *repeat_section(const cJSON *doc, struct lat_rd *r)
{
	const cJSON *rep = cJSON_GetObjectItemCaseSensitive(doc, LAT_REPEAT_KEY), *run;
	const cJSON *opt = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(doc, "options"), "repeat");
	size_t m;

	lat_rd_expect(r, !rep == !opt, LAT_REPEAT_KEY);
	if (!rep)
		return NULL;
	cJSON_ArrayForEach(run, lat_rd_array(r, lat_rd_obj(r, doc, LAT_REPEAT_KEY), LAT_REPEAT_RUNS_KEY))
		for (m = 0; m < SPREAD_METRICS; m++)
			lat_rd_num(r, lat_rd_obj(r, run, "summary"), lat_metrics[m].key);
	return rep;
}

/* A Ctrl-C ended the series: the runs done, the last one maybe partial. */
static void interrupted(FILE *out, const cJSON *doc, struct lat_rd *rd)
{
	const cJSON *rep = lat_rd_obj(rd, doc, LAT_REPEAT_KEY), *run;
	const cJSON *by = cJSON_GetObjectItemCaseSensitive(rep, "stopped_by");
	int cut = 0;

	if (!cJSON_GetObjectItemCaseSensitive(rep, "runs_asked"))
		return;
	cJSON_ArrayForEach(run, lat_rd_array(rd, rep, LAT_REPEAT_RUNS_KEY))
		cut += lat_rd_num(rd, run, "exit_code") == 130;
	fprintf(out, "INTERRUPTED by %s: the %zu of %.0f runs measured so far (%d of them cut short)\n",
		cJSON_IsString(by) ? by->valuestring : "SIGINT", lat_runs_count(doc),
		lat_rd_num(rd, rep, "runs_asked"), cut);
}

void lat_repeat_render(FILE *out, const cJSON *doc, struct lat_rd *rd)
{
	static const char *const rows[] = { "median", "min", "max" };
	double s[SPREAD_METRICS][3];
	char v[32];
	size_t m, r;

	if (!repeat_section(doc, rd))
		return;
	fprintf(out, "\n%zu runs, each in a fresh process: the figures above are run 1's.\n",
		lat_runs_count(doc));
	interrupted(out, doc, rd);
	fprintf(out, "Spread of each run's value in ns:\n          ");
	for (m = 0; m < SPREAD_METRICS; m++) {
		spread_of(doc, m, s[m]);
		fprintf(out, " %9s", lat_metrics[m].name);
	}
	fputc('\n', out);
	for (r = 0; r < 3; r++) {
		fprintf(out, "  %-8s", rows[r]);
		for (m = 0; m < SPREAD_METRICS; m++) {
			lat_fmt_ns_cell(v, sizeof(v), s[m][r], 9);
			fprintf(out, " %9s", v);
		}
		fputc('\n', out);
	}
	lat_hist_render_pooled(out, doc, rd);
}
