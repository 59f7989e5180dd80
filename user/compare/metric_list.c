// SPDX-License-Identifier: MIT
/* The headline metrics of a result as "NAME VALUE UNIT" lines. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc/runs.h"
#include "compare/signif.h"
#include "compare/metric_list.h"

void lat_metric_case_name(const char *metric, char *buf, size_t len)
{
	size_t k = 0;
	const char *p;

	for (p = metric; *p && k + 6 < len; p++) {
		if (*p == '/') {
			memcpy(buf + k, "_per_", 5);
			k += 5;
		} else {
			buf[k++] = (*p == '.' || *p == ':' || *p == ' ') ? '_' : *p;
		}
	}
	buf[k] = 0;
}

/* The unit of a metric's line: its own, or what the count counts. */
static const char *unit_of(const struct lat_metric *m)
{
	if (m->kind == LAT_METRIC_PER_ITER)
		return "faults";
	if (m->kind == LAT_METRIC_COUNTER)
		return "pages";
	return m->unit;
}

double lat_metric_median(const cJSON *doc, const struct lat_metric *m)
{
	struct lat_interval iv;
	double *v, r = NAN;
	size_t n = lat_metric_values(doc, m, &v);

	if (n && !lat_median_interval(v, n, &iv))
		r = iv.median;
	free(v);
	return r;
}

static void line(FILE *out, const char *name, double v, const char *unit)
{
	if (!isnan(v))
		fprintf(out, "%s %.6g %s\n", name, v, unit[0] ? unit : "-");
}

/* share_LABEL for every cause, and primary_share, the largest one. */
static int cause_lines(const cJSON *doc, FILE *out)
{
	cJSON *labels = cJSON_CreateArray();
	const cJSON *l;
	struct lat_metric m;
	char key[96], label[96], name[128];
	double v, top = NAN;

	if (!labels)
		return -ENOMEM;
	lat_runs_cause_labels(doc, labels);
	cJSON_ArrayForEach(l, labels) {
		snprintf(key, sizeof(key), "share:%s", l->valuestring);
		if (lat_metric_parse(key, &m, label, sizeof(label)))
			continue;
		v = 100 * lat_metric_median(doc, &m);
		lat_metric_case_name(key, name, sizeof(name));
		line(out, name, v, "%");
		if (!isnan(v) && (isnan(top) || v > top))
			top = v;
	}
	line(out, "primary_share", top, "%");
	cJSON_Delete(labels);
	return 0;
}

static double lost_total(const cJSON *doc)
{
	size_t n = lat_runs_count(doc), i;
	double lost = 0;

	for (i = 0; i < n; i++)
		lost += lat_run_lost(lat_run_at(doc, i));
	return lost;
}

int lat_metric_list_print(const cJSON *doc, FILE *out)
{
	char name[64];
	size_t i;

	for (i = 0; i < lat_n_metrics; i++) {
		lat_metric_case_name(lat_metrics[i].name, name, sizeof(name));
		line(out, name, lat_metric_median(doc, &lat_metrics[i]), unit_of(&lat_metrics[i]));
	}
	if (cause_lines(doc, out))
		return -ENOMEM;
	line(out, "lost_events", lost_total(doc), "events");
	line(out, "runs", (double)lat_runs_count(doc), "runs");
	return 0;
}
