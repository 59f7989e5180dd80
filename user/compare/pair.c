// SPDX-License-Identifier: MIT
/* One metric of two documents: medians, intervals, change, significance. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/pair.h"

size_t lat_pair_min_runs(void)
{
	return lat_signif_min_runs(LAT_SIGNIF_ALPHA);
}

/* 1 when the two intervals have no value in common. */
static int apart(const struct lat_interval *a, const struct lat_interval *b)
{
	return a->hi < b->lo || b->hi < a->lo;
}

static void side(const double *v, size_t n, struct lat_interval *iv)
{
	if (!n || lat_median_interval(v, n, iv))
		*iv = (struct lat_interval){ .n = n };
}

int lat_pair_compute(const cJSON *base, const cJSON *new, const struct lat_metric *m,
		     struct lat_pair *out)
{
	double *b = NULL, *w = NULL;
	size_t nb = lat_metric_values(base, m, &b), nw = lat_metric_values(new, m, &w);
	size_t need = lat_pair_min_runs();

	memset(out, 0, sizeof(*out));
	if (!b || !w) {
		free(b);
		free(w);
		return -ENOMEM;
	}
	side(b, nb, &out->base);
	side(w, nw, &out->new);
	out->present = nb || nw;
	out->change_pct = out->base.median != 0 ?
		(out->new.median - out->base.median) / out->base.median * 100 :
		out->new.median == 0 ? 0 : NAN;
	out->p = lat_mwu_p(b, nb, w, nw);
	out->verdict = lat_runs_count(base) >= need && lat_runs_count(new) >= need;
	/* the U test, intervals of the medians that do not overlap, and a
	 * change above the noise threshold */
	out->significant = out->verdict && out->p < LAT_SIGNIF_ALPHA &&
			   apart(&out->base, &out->new) &&
			   !(fabs(out->change_pct) < LAT_SIGNIF_NOISE_PCT);
	free(b);
	free(w);
	return 0;
}

/* Time units for ns values, largest first. */
static const struct { double ns; const char *name; } time_units[] = {
	{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
};

void lat_pair_fmt(char *buf, size_t len, double v, const char *unit)
{
	size_t i;

	if (!strcmp(unit, "%")) {
		snprintf(buf, len, "%.1f%%", v * 100);
		return;
	}
	if (strcmp(unit, "ns")) {
		snprintf(buf, len, "%.4g", v);
		return;
	}
	for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]) - 1; i++)
		if (fabs(v) >= time_units[i].ns)
			break;
	snprintf(buf, len, "%.4g%s", v / time_units[i].ns, time_units[i].name);
}

static cJSON *interval_json(const struct lat_interval *iv)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "median", iv->median);
	cJSON_AddNumberToObject(o, "lo", iv->lo);
	cJSON_AddNumberToObject(o, "hi", iv->hi);
	cJSON_AddNumberToObject(o, "confidence", iv->confidence);
	cJSON_AddNumberToObject(o, "n", (double)iv->n);
	return o;
}

cJSON *lat_pair_json(const struct lat_pair *p)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "base", interval_json(&p->base));
	cJSON_AddItemToObject(o, "new", interval_json(&p->new));
	cJSON_AddItemToObject(o, "change_pct", isnan(p->change_pct) ? cJSON_CreateNull() :
			      cJSON_CreateNumber(p->change_pct));
	cJSON_AddNumberToObject(o, "p", p->p);
	cJSON_AddBoolToObject(o, "verdict", p->verdict);
	cJSON_AddBoolToObject(o, "significant", p->significant);
	return o;
}
