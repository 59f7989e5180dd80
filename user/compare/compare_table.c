// SPDX-License-Identifier: MIT
/* compare's rows: 80-column table, cause explanation, LKP table, JSON. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/pair.h"

/* Per-cause rows and their names in the text table. */
static const struct {
	const char *prefix, *row;
} cause_rows[] = {
	{ "count:", "slow iters" },
	{ "share:", "share" },
	{ "own:",   "own median" },
};
#define N_CAUSE_ROWS (sizeof(cause_rows) / sizeof(cause_rows[0]))

static int one_row(const cJSON *base, const cJSON *new, const struct lat_metric *m,
		   lat_row_fn fn, void *arg)
{
	struct lat_pair p;

	if (lat_pair_compute(base, new, m, &p))
		return -ENOMEM;
	if (p.present)
		fn(arg, m, &p);
	return 0;
}

/* Rows of the causes either side names: count:, share:, own: each. */
static int cause_rows_of(const cJSON *base, const cJSON *new, lat_row_fn fn, void *arg)
{
	cJSON *labels = cJSON_CreateArray(), *l;
	char name[96], label[64];
	struct lat_metric m;
	size_t k;
	int ret = 0;

	lat_runs_cause_labels(base, labels);
	lat_runs_cause_labels(new, labels);
	cJSON_ArrayForEach(l, labels)
		for (k = 0; k < N_CAUSE_ROWS && !ret; k++) {
			snprintf(name, sizeof(name), "%s%s", cause_rows[k].prefix, l->valuestring);
			lat_metric_parse(name, &m, label, sizeof(label));
			ret = one_row(base, new, &m, fn, arg);
		}
	cJSON_Delete(labels);
	return ret;
}

int lat_compare_rows(const cJSON *base, const cJSON *new, lat_row_fn fn, void *arg)
{
	size_t i;

	for (i = 0; i < lat_n_metrics; i++)
		if (one_row(base, new, &lat_metrics[i], fn, arg))
			return -ENOMEM;
	return cause_rows_of(base, new, fn, arg);
}

/* "2.315us ±5%": the median and the interval's larger half-width in %. */
static void fmt_side(char *buf, size_t len, const struct lat_interval *iv, const char *unit)
{
	char v[32];
	double half = fmax(iv->hi - iv->median, iv->median - iv->lo);

	lat_pair_fmt(v, sizeof(v), iv->median, unit);
	if (iv->median != 0)
		snprintf(buf, len, "%s ±%.0f%%", v, half / fabs(iv->median) * 100);
	else
		snprintf(buf, len, "%s", v);
}

/* State of the text table: the lowest interval coverage seen. */
struct text_ctx {
	FILE *out;
	double min_conf;
	size_t min_n;
};

static const char *row_name(const struct lat_metric *m, FILE *out)
{
	size_t k, n;

	for (k = 0; k < N_CAUSE_ROWS; k++) {
		n = strlen(cause_rows[k].prefix);
		if (strncmp(m->name, cause_rows[k].prefix, n))
			continue;
		if (!k)
			fprintf(out, "cause %s\n", m->name + n);
		return cause_rows[k].row;
	}
	return m->name;
}

static void text_row(void *arg, const struct lat_metric *m, const struct lat_pair *p)
{
	struct text_ctx *c = arg;
	char b[48], w[48], ch[16], pv[16], n[24];
	const char *name = row_name(m, c->out);

	fmt_side(b, sizeof(b), &p->base, m->unit);
	fmt_side(w, sizeof(w), &p->new, m->unit);
	if (!p->verdict)
		snprintf(ch, sizeof(ch), "?");
	else if (!p->significant)
		snprintf(ch, sizeof(ch), "~");
	else if (isnan(p->change_pct))
		snprintf(ch, sizeof(ch), "new");
	else
		snprintf(ch, sizeof(ch), "%+.1f%%", p->change_pct);
	snprintf(pv, sizeof(pv), p->verdict ? "%.3f" : "-", p->p);
	snprintf(n, sizeof(n), "%zu+%zu", p->base.n, p->new.n);
	fprintf(c->out, "%s%-*s %16s %16s %9s %7s %7s\n", name == m->name ? "" : "  ",
		name == m->name ? 12 : 10, name, b, w, ch, pv, n);
	c->min_conf = fmin(c->min_conf, fmin(p->base.confidence, p->new.confidence));
}

/* Medians over the runs of one cause's slow time and count, and of the
 * total slow time, for the explanation. */
struct cause_sum {
	const char *label;
	double t[2], count[2];	/* base, new */
	double points;		/* change of its time in % of base slow time */
};

static double median_of(const cJSON *doc, const char *label, int what)
{
	size_t n = lat_runs_count(doc), i, k = 0;
	double *v = malloc((n ? n : 1) * sizeof(*v)), r = 0, tot;
	struct lat_metric share = { "share", LAT_METRIC_CAUSE_SHARE, label, "%" };
	struct lat_metric count = { "count", LAT_METRIC_CAUSE_COUNT, label, "" };
	struct lat_interval iv;
	const cJSON *run;

	if (!v)
		return 0;
	for (i = 0; i < n; i++) {
		run = lat_run_at(doc, i);
		tot = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(run, "causes"), "slow_total_ns"));
		v[k++] = what == 0 ? tot : what == 1 ? lat_metric_value(run, &share) * tot :
			 lat_metric_value(run, &count);
	}
	if (!lat_median_interval(v, k, &iv))
		r = iv.median;
	free(v);
	return r;
}

static int cmp_points(const void *a, const void *b)
{
	double x = fabs(((const struct cause_sum *)a)->points);
	double y = fabs(((const struct cause_sum *)b)->points);

	return (x < y) - (x > y);
}

static void explain_line(FILE *out, const struct cause_sum *s)
{
	char e0[24], e1[24];

	lat_pair_fmt(e0, sizeof(e0), s->count[0] ? s->t[0] / s->count[0] : 0, "ns");
	lat_pair_fmt(e1, sizeof(e1), s->count[1] ? s->t[1] / s->count[1] : 0, "ns");
	fprintf(out, "  %-14s %7.0f -> %-7.0f %10s -> %-10s %+7.1f%s\n", s->label,
		s->count[0], s->count[1], e0, e1, s->points,
		s->count[0] == s->count[1] ? " same count" : "");
}

/* Every cause's slow time and count on each side, largest change first;
 * labels holds the strings the sums point to. The number of causes. */
static size_t cause_sums(const cJSON *base, const cJSON *new, cJSON *labels,
			 struct cause_sum **out, double tot[2])
{
	struct cause_sum *s;
	size_t n = 0;
	cJSON *l;

	tot[0] = median_of(base, NULL, 0);
	tot[1] = median_of(new, NULL, 0);
	lat_runs_cause_labels(base, labels);
	lat_runs_cause_labels(new, labels);
	*out = s = calloc((size_t)cJSON_GetArraySize(labels) + 1, sizeof(*s));
	if (!s)
		return 0;
	cJSON_ArrayForEach(l, labels) {
		s[n] = (struct cause_sum){ l->valuestring,
			{ median_of(base, l->valuestring, 1), median_of(new, l->valuestring, 1) },
			{ median_of(base, l->valuestring, 2), median_of(new, l->valuestring, 2) }, 0 };
		s[n].points = tot[0] > 0 ? (s[n].t[1] - s[n].t[0]) / tot[0] * 100 : 0;
		n++;
	}
	qsort(s, n, sizeof(*s), cmp_points);
	return n;
}

/* How much of the change in slow time each cause accounts for. */
static void explain(FILE *out, const cJSON *base, const cJSON *new)
{
	cJSON *labels = cJSON_CreateArray();
	struct cause_sum *s;
	double tot[2];
	size_t n = cause_sums(base, new, labels, &s, tot), i;
	char t0[24], t1[24];

	lat_pair_fmt(t0, sizeof(t0), tot[0], "ns");
	lat_pair_fmt(t1, sizeof(t1), tot[1], "ns");
	fprintf(out, "\nthe change explained by causes: slow time per run %s -> %s (%+.0f%%)\n"
		"  %-14s %17s %24s %8s\n", t0, t1, tot[0] > 0 ? (tot[1] - tot[0]) / tot[0] * 100 : 0,
		"cause", "count base -> new", "time each base -> new", "points");
	for (i = 0; i < n; i++)
		explain_line(out, &s[i]);
	fputs("  points: the cause's change in slow time, in % of the base's slow time;\n"
	      "  count x time each = the cause's slow time (medians over the runs)\n", out);
	free(s);
	cJSON_Delete(labels);
}

static cJSON *causes_json(const cJSON *base, const cJSON *new)
{
	cJSON *labels = cJSON_CreateArray(), *a = cJSON_CreateArray(), *o;
	struct cause_sum *s;
	double tot[2];
	size_t n = cause_sums(base, new, labels, &s, tot), i;

	for (i = 0; i < n; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "cause", s[i].label);
		cJSON_AddNumberToObject(o, "count_base", s[i].count[0]);
		cJSON_AddNumberToObject(o, "count_new", s[i].count[1]);
		cJSON_AddNumberToObject(o, "slow_ns_base", s[i].t[0]);
		cJSON_AddNumberToObject(o, "slow_ns_new", s[i].t[1]);
		cJSON_AddNumberToObject(o, "points", s[i].points);
		cJSON_AddItemToArray(a, o);
	}
	free(s);
	cJSON_Delete(labels);
	return a;
}

int lat_compare_print(FILE *out, const cJSON *base, const cJSON *new)
{
	struct text_ctx c = { out, 1, 0 };
	size_t need = lat_pair_min_runs(), nb = lat_runs_count(base), nw = lat_runs_count(new);

	fprintf(out, "%-12s %16s %16s %9s %7s %7s\n", "metric", "base", "new", "change", "p", "n");
	if (lat_compare_rows(base, new, text_row, &c))
		return -ENOMEM;
	fputs("  base, new: median of the runs ± the larger half of its interval;\n"
	      "  ~: not significant: Mann-Whitney U p >= 0.05, the two intervals\n"
	      "  overlap, or the change is below 1% (noise)\n", out);
	if (c.min_conf < LAT_SIGNIF_CONFIDENCE)
		fprintf(out, "  with fewer than 6 runs the interval is [min, max], %.1f%% or less\n",
			c.min_conf * 100);
	if (nb < need || nw < need)
		fprintf(out, "no verdict: base has %zu run%s, new %zu; a difference can be significant\n"
			"only with at least %zu runs a side (run --repeat %zu)\n",
			nb, nb == 1 ? "" : "s", nw, need, need);
	explain(out, base, new);
	return 0;
}

/* ---- the 0-day style ---------------------------------------------------- */

static void mean_sd(const cJSON *doc, const struct lat_metric *m, double *mean, double *sd)
{
	double *v, s = 0, q = 0;
	size_t n = lat_metric_values(doc, m, &v), i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = n ? s / (double)n : 0;
	for (i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*sd = n > 1 ? sqrt(q / (double)(n - 1)) : 0;
	free(v);
}

struct lkp_ctx {
	FILE *out;
	const cJSON *base, *new;
	char prefix[64];
};

static void lkp_side(FILE *out, double mean, double sd)
{
	fprintf(out, fabs(mean) >= 1000 ? "%10.0f" : "%10.4g", mean);
	if (mean != 0 && sd / fabs(mean) >= 0.02)
		fprintf(out, " \u00b1%3.0f%%", sd / fabs(mean) * 100);
	else
		fputs("      ", out);
}

/* The metric's name as 0-day writes them: no spaces, the unit appended. */
static void lkp_name(FILE *out, const char *prefix, const struct lat_metric *m)
{
	const char *p;

	fprintf(out, "  %s.", prefix);
	for (p = m->name; *p; p++)
		fputc(*p == ' ' ? '_' : *p, out);
	fprintf(out, "%s\n", !strcmp(m->unit, "ns") ? "_ns" : !strcmp(m->unit, "%") ? "_share" : "");
}

static void lkp_row(void *arg, const struct lat_metric *m, const struct lat_pair *p)
{
	struct lkp_ctx *c = arg;
	double bm, bs, nm, ns;

	mean_sd(c->base, m, &bm, &bs);
	mean_sd(c->new, m, &nm, &ns);
	lkp_side(c->out, bm, bs);
	if (p->significant && bm != 0)
		fprintf(c->out, "   %+8.1f%%  ", (nm - bm) / fabs(bm) * 100);
	else
		fprintf(c->out, "   %9s  ", p->verdict ? "~" : "?");
	lkp_side(c->out, nm, ns);
	lkp_name(c->out, c->prefix, m);
}

int lat_compare_print_lkp(FILE *out, const cJSON *base, const cJSON *new)
{
	struct lkp_ctx c = { out, base, new, "" };
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(base, "run");
	const char *wl = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "workload"));
	const char *mode = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "mode"));

	snprintf(c.prefix, sizeof(c.prefix), "latctl.%s%s%s", wl ? wl : "?",
		 mode ? "." : "", mode ? mode : "");
	fputs("      base                  new\n"
	      "---------------- --------------------------\n"
	      "         %stddev     %change         %stddev\n"
	      "             \\          |                \\\n", out);
	return lat_compare_rows(base, new, lkp_row, &c);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_row(void *arg, const struct lat_metric *m, const struct lat_pair *p)
{
	cJSON *o = lat_pair_json(p);

	cJSON_AddStringToObject(o, "metric", m->name);
	cJSON_AddStringToObject(o, "unit", m->unit);
	cJSON_AddItemToArray(arg, o);
}

cJSON *lat_compare_json(const cJSON *base, const cJSON *new)
{
	cJSON *o = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(o, "metrics");
	size_t need = lat_pair_min_runs();

	lat_compare_rows(base, new, json_row, rows);
	cJSON_AddItemToObject(o, "causes", causes_json(base, new));
	cJSON_AddNumberToObject(o, "runs_base", (double)lat_runs_count(base));
	cJSON_AddNumberToObject(o, "runs_new", (double)lat_runs_count(new));
	cJSON_AddNumberToObject(o, "runs_needed", (double)need);
	cJSON_AddBoolToObject(o, "verdict", lat_runs_count(base) >= need &&
			      lat_runs_count(new) >= need);
	return o;
}
