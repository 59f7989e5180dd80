// SPDX-License-Identifier: MIT
/* compare's "the change explained by causes": its text and its JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fmt.h"
#include "compare/compare.h"
#include "compare/pair.h"

/*
 * The change in slow time explained by causes, one decomposition that adds
 * up: per run, a cause's slow time and its slow iterations (where it is
 * primary) per million iterations; the means over the units on each side
 * (its runs, or its invocations' means when it pools several results;
 * means add up: the causes' times sum to the slow time of every run, so
 * their changes sum to the change of the whole); each cause's change in
 * points, % of the base's slow time per million iterations, with the 95%
 * distribution-free interval of the difference (Hodges-Lehmann on the
 * runs' values). A row is significant only when the primary metric
 * changed and its interval corrected over all the causes (Bonferroni)
 * excludes 0; the others are marked "~".
 */
struct cause_sum {
	const char *label;
	double t[2], count[2];	/* base, new: means per million iterations */
	double points, lo, hi;	/* change, its interval, in points */
	int apart;		/* the interval excludes 0 */
	int significant;	/* the primary metric changed and the interval
				 * corrected over all causes (Bonferroni)
				 * excludes 0 */
};

/* One run's value per million iterations: the cause's slow time (what 0),
 * its primary count (1), or, for label NULL, the whole slow time. */
static double per_million(const cJSON *run, const char *label, int what)
{
	const cJSON *causes = cJSON_GetObjectItemCaseSensitive(run, "causes"), *c;
	double n = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(run, "summary"), "count"));
	double v = 0;

	if (!(n > 0))
		return NAN;
	if (!label)
		v = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(causes, "slow_total_ns"));
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(causes, "causes")) {
		const char *l = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "label"));

		if (label && l && !strcmp(l, label))
			v = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, what ? "primary" : "total_ns"));
	}
	return isnan(v) ? NAN : v / n * 1e6;
}

/* Each run's value into v (NaNs left out); their mean. */
static double runs_values(const cJSON *doc, const char *label, int what, double *v, size_t *k)
{
	size_t n = lat_runs_count(doc), i;
	double sum = 0, x;

	*k = 0;
	for (i = 0; i < n; i++) {
		x = per_million(lat_run_at(doc, i), label, what);
		if (!isnan(x)) {
			v[(*k)++] = x;
			sum += x;
		}
	}
	return *k ? sum / (double)*k : 0;
}

/* A side's units into v: each run's value of one document, else each
 * document's mean over its runs (an invocation is the unit); their mean. */
static double side_values(const struct lat_side *sd, const char *label, int what, double *v,
			  size_t *k)
{
	double sum = 0, *one;
	size_t i, c;

	if (sd->n == 1)
		return runs_values(sd->doc[0], label, what, v, k);
	*k = 0;
	for (i = 0; i < sd->n; i++) {
		one = v + *k; /* scratch past the units so far */
		v[*k] = runs_values(sd->doc[i], label, what, one, &c);
		if (c) {
			sum += v[*k];
			(*k)++;
		}
	}
	return *k ? sum / (double)*k : 0;
}

/* The runs of a side, for the scratch of side_values. */
static size_t side_runs(const struct lat_side *sd)
{
	size_t n = 0, i;

	for (i = 0; i < sd->n; i++)
		n += lat_runs_count(sd->doc[i]);
	return n;
}

/* One cause on both sides; tot: the base's mean slow time; conf: the
 * corrected confidence its significance is judged at (0: not judged, the
 * primary metric did not change). */
static void cause_sum_of(const struct lat_side *base, const struct lat_side *new, const char *label,
			 double tot, double conf, double *vb, double *vn, struct cause_sum *s)
{
	struct lat_shift sh, shc;
	size_t kb, kn;

	s->label = label;
	s->count[0] = side_values(base, label, 1, vb, &kb);
	s->count[1] = side_values(new, label, 1, vn, &kn);
	s->t[0] = side_values(base, label, 0, vb, &kb);
	s->t[1] = side_values(new, label, 0, vn, &kn);
	s->points = tot > 0 ? (s->t[1] - s->t[0]) / tot * 100 : 0;
	s->lo = -INFINITY;
	s->hi = INFINITY;
	if (tot > 0 && kb && kn && !lat_shift_interval(vb, kb, vn, kn, LAT_PAIR_CONFIDENCE, &sh)) {
		s->lo = sh.lo / tot * 100;
		s->hi = sh.hi / tot * 100;
	}
	s->apart = s->lo > 0 || s->hi < 0;
	s->significant = s->apart && conf > 0 &&
			 !lat_shift_interval(vb, kb, vn, kn, conf, &shc) && (shc.lo > 0 || shc.hi < 0);
}

static int cmp_points(const void *a, const void *b)
{
	double x = fabs(((const struct cause_sum *)a)->points);
	double y = fabs(((const struct cause_sum *)b)->points);

	return (x < y) - (x > y);
}

/* Every cause's sums, largest change first; labels holds the strings the
 * sums point to; tot: the whole slow time per million iterations on each
 * side. The number of causes. */
static size_t cause_sums(const struct lat_side *base, const struct lat_side *new, int gate,
			 cJSON *labels, struct cause_sum **out, double tot[2])
{
	double conf;
	size_t nb = side_runs(base) + 1, nn = side_runs(new) + 1, n = 0, k;
	double *vb = malloc(nb * sizeof(*vb)), *vn = malloc(nn * sizeof(*vn));
	struct cause_sum *s = NULL;
	cJSON *l, *list = NULL;

	*out = NULL;
	if (vb && vn) {
		tot[0] = side_values(base, NULL, 0, vb, &k);
		tot[1] = side_values(new, NULL, 0, vn, &k);
		for (k = 0; k < base->n; k++)
			lat_runs_cause_labels(base->doc[k], labels);
		for (k = 0; k < new->n; k++)
			lat_runs_cause_labels(new->doc[k], labels);
		s = calloc((size_t)cJSON_GetArraySize(labels) + 1, sizeof(*s));
		list = s ? labels : NULL;
	}
	conf = gate && list ? 1 - (1 - LAT_PAIR_CONFIDENCE) / (double)cJSON_GetArraySize(list) : 0;
	cJSON_ArrayForEach(l, list)
		cause_sum_of(base, new, l->valuestring, tot[0], conf, vb, vn, &s[n++]);
	if (s)
		qsort(s, n, sizeof(*s), cmp_points);
	free(vb);
	free(vn);
	*out = s;
	return n;
}

static void explain_line(FILE *out, const struct cause_sum *s)
{
	char c0[24], c1[24], e0[24], e1[24], pt[24], lo[24], hi[24], line[160];
	int n;

	lat_fmt_int(c0, sizeof(c0), s->count[0], 7);
	lat_fmt_int(c1, sizeof(c1), s->count[1], 7);
	lat_pair_fmt(e0, sizeof(e0), s->t[0], "ns");
	lat_pair_fmt(e1, sizeof(e1), s->t[1], "ns");
	lat_fmt_change(pt, sizeof(pt), s->points, "", 7);
	n = snprintf(line, sizeof(line), "  %-13s %7s -> %-7s %9s -> %-9s %7s%s", s->label,
		     c0, c1, e0, e1, pt, s->significant ? " " : "~");
	if (isfinite(s->lo) && isfinite(s->hi)) {
		lat_fmt_change(lo, sizeof(lo), s->lo, "", 6);
		lat_fmt_change(hi, sizeof(hi), s->hi, "", 6);
	}
	if (!isfinite(s->lo) || !isfinite(s->hi))
		fprintf(out, "%s unbounded\n", line);
	else if (n + 1 + strlen(lo) + 2 + strlen(hi) <= LAT_TEXT_WIDTH)
		fprintf(out, "%s %s..%s\n", line, lo, hi);
	else	/* a wide interval on a line of its own, under its column */
		fprintf(out, "%s\n%*s%s..%s\n", line, n - 6, "", lo, hi);
}

/* The median of the slow thresholds of a side's runs, in ns. */
static double threshold_of(const struct lat_side *sd)
{
	struct lat_interval iv;
	double *v = NULL;
	size_t n = 0, i, d, k = side_runs(sd);

	v = malloc((k ? k : 1) * sizeof(*v));
	for (d = 0; v && d < sd->n; d++)
		for (i = 0; i < lat_runs_count(sd->doc[d]); i++) {
			const cJSON *c = cJSON_GetObjectItemCaseSensitive(lat_run_at(sd->doc[d], i),
									  "causes");
			double t = cJSON_GetNumberValue(
				cJSON_GetObjectItemCaseSensitive(c, "slow_threshold_ns"));

			if (!isnan(t))
				v[n++] = t;
		}
	iv.median = NAN;
	if (n)
		lat_median_interval(v, n, &iv);
	free(v);
	return iv.median;
}

/* How much of the change in slow time each cause accounts for; gate: the
 * primary metric changed significantly. */
void lat_compare_explain(FILE *out, const struct lat_side *base, const struct lat_side *new,
			 int gate)
{
	cJSON *labels = cJSON_CreateArray();
	struct cause_sum *s;
	double tot[2], sum = 0;
	size_t n = cause_sums(base, new, gate, labels, &s, tot), i;
	char t0[24], t1[24], ch[24];

	lat_pair_fmt(t0, sizeof(t0), tot[0], "ns");
	lat_pair_fmt(t1, sizeof(t1), tot[1], "ns");
	lat_fmt_change(ch, sizeof(ch), tot[0] > 0 ? (tot[1] - tot[0]) / tot[0] * 100 : 0, "%", 9);
	fprintf(out, "\nthe change explained by causes: slow time per million iterations\n"
		"%s -> %s (%s)\n  %-13s %17s %22s %8s %s\n", t0, t1, ch,
		"cause", "slow per 1M", "time per 1M", "points", "95% interval");
	for (i = 0; s && i < n; i++) {
		explain_line(out, &s[i]);
		sum += s[i].points;
	}
	lat_pair_fmt(t0, sizeof(t0), threshold_of(base), "ns");
	lat_pair_fmt(t1, sizeof(t1), threshold_of(new), "ns");
	lat_fmt_change(ch, sizeof(ch), sum, "", 9);
	fprintf(out,
		"  points: the cause's change in %% of the base's slow time (sum %s);\n"
		"  means over the %s; ~: not significant (%s); slow per 1M: iterations\n"
		"  where it is the primary cause. Slow is each run's own --slow: median\n"
		"  %s base, %s new (an absolute --slow on both sides: one set)\n",
		ch, base->n > 1 || new->n > 1 ? "units" : "runs",
		gate ? "its interval, corrected over\n  the causes by Bonferroni, holds 0" :
		       "the primary metric did not\n  change, so no cause is called significant",
		t0, t1);
	free(s);
	cJSON_Delete(labels);
}

cJSON *lat_compare_causes_json(const struct lat_side *base, const struct lat_side *new, int gate)
{
	cJSON *labels = cJSON_CreateArray(), *a = cJSON_CreateArray(), *o;
	struct cause_sum *s;
	double tot[2];
	size_t n = cause_sums(base, new, gate, labels, &s, tot), i;

	for (i = 0; s && i < n; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "cause", s[i].label);
		cJSON_AddNumberToObject(o, "count_base", s[i].count[0]);
		cJSON_AddNumberToObject(o, "count_new", s[i].count[1]);
		cJSON_AddNumberToObject(o, "slow_ns_base", s[i].t[0]);
		cJSON_AddNumberToObject(o, "slow_ns_new", s[i].t[1]);
		cJSON_AddNumberToObject(o, "points", s[i].points);
		cJSON_AddItemToObject(o, "points_lo", isfinite(s[i].lo) ? cJSON_CreateNumber(s[i].lo) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "points_hi", isfinite(s[i].hi) ? cJSON_CreateNumber(s[i].hi) : cJSON_CreateNull());
		cJSON_AddBoolToObject(o, "interval_excludes_0", s[i].apart);
		cJSON_AddBoolToObject(o, "significant", s[i].significant);
		cJSON_AddItemToArray(a, o);
	}
	free(s);
	cJSON_Delete(labels);
	return a;
}
