// SPDX-License-Identifier: MIT
/*
 * The histogram sections of the text report: the run's own (run 1 of a
 * --repeat) and, for a --repeat, every run's iterations pooled.
 */
#include "stats/hist.h"
#include "lib/rdoc.h"
#include "report/render.h"
#include "doc/runs.h"

/* The lines of a "histogram" object's buckets. */
static void hist_lines(FILE *out, struct lat_rd *r, const cJSON *h)
{
	const cJSON *list = lat_rd_get(r, h, "buckets", cJSON_Array), *b;

	cJSON_ArrayForEach(b, list)
		lat_hist_print_line(out, lat_rd_count(r, b, "lo"), lat_rd_count(r, b, "hi"),
				    lat_rd_count(r, b, "count"));
}

void lat_hist_render_run(FILE *out, struct lat_rd *r, const cJSON *doc, const char *units)
{
	const cJSON *rep = cJSON_GetObjectItemCaseSensitive(doc, LAT_REPEAT_KEY);

	fprintf(out, "\nhistogram of %s%s in ns: each bucket twice as wide as the one above;\n"
		"four # = ten times more %s\n", rep ? "run 1's " : "", units, units);
	hist_lines(out, r, lat_rd_obj(r, doc, "histogram"));
}

void lat_hist_render_pooled(FILE *out, const cJSON *doc, struct lat_rd *rd)
{
	const cJSON *rep = lat_rd_obj(rd, doc, LAT_REPEAT_KEY);
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(rep, "histogram"), *b;
	double n = 0;

	if (!h)		/* a result of an older latctl: its histogram pooled */
		return;
	cJSON_ArrayForEach(b, lat_rd_get(rd, h, "buckets", cJSON_Array))
		n += lat_rd_num(rd, b, "count");
	fprintf(out, "\nhistogram of all %zu runs pooled (%.0f iterations) in ns:\n",
		lat_runs_count(doc), n);
	hist_lines(out, rd, h);
}
