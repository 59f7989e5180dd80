// SPDX-License-Identifier: MIT
/* compare's rows: 80-column table, cause explanation, LKP table, JSON. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fmt.h"
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

/* A row of the table while the rows are gathered. */
struct row {
	struct lat_metric m;
	char name[96], label[64];
	struct lat_pair p;
};

struct rows {
	struct row *v;
	size_t n, cap;
};

static int add_row(struct rows *r, const cJSON *base, const cJSON *new, const struct lat_metric *m)
{
	struct row *x;

	if (r->n == r->cap) {
		x = realloc(r->v, (r->cap ? 2 * r->cap : 32) * sizeof(*x));
		if (!x)
			return -ENOMEM;
		r->v = x;
		r->cap = r->cap ? 2 * r->cap : 32;
	}
	x = &r->v[r->n];
	snprintf(x->name, sizeof(x->name), "%s", m->name);
	if (lat_metric_parse(x->name, &x->m, x->label, sizeof(x->label)))
		x->m = *m;
	if (lat_pair_compute(base, new, &x->m, &x->p))
		return -ENOMEM;
	r->n += x->p.present;
	return 0;
}

/* Rows of the causes either side names: count:, share:, own: each. */
static int cause_rows_of(struct rows *r, const cJSON *base, const cJSON *new)
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
			ret = add_row(r, base, new, &m);
		}
	cJSON_Delete(labels);
	return ret;
}

static int cmp_p(const void *a, const void *b)
{
	double x = (*(struct row *const *)a)->p.p, y = (*(struct row *const *)b)->p.p;

	return (x > y) - (x < y);
}

/* The primary row judged at alpha; the others are a second family, tested
 * only when the primary changed (serial gatekeeping, so that a table flags
 * anything at most alpha of the time), by Holm's step-down: the k-th
 * smallest p (from 0) at alpha / (K - k), until one fails. */
static void holm(struct rows *r, const char *primary)
{
	struct row **o = malloc((r->n ? r->n : 1) * sizeof(*o));
	size_t k = 0, i;
	int gate = 0;

	for (i = 0; i < r->n; i++) {
		r->v[i].p.primary = !strcmp(r->v[i].m.name, primary);
		r->v[i].p.alpha = LAT_SIGNIF_ALPHA;
		gate |= r->v[i].p.primary && r->v[i].p.significant;
		if (!r->v[i].p.primary && o && r->v[i].p.verdict && !r->v[i].p.missing)
			o[k++] = &r->v[i];
	}
	if (o)
		qsort(o, k, sizeof(*o), cmp_p);
	for (i = 0; o && i < k; i++) {
		o[i]->p.alpha = gate ? LAT_SIGNIF_ALPHA / (double)(k - i) : 0;
		o[i]->p.significant = gate && lat_pair_significant(&o[i]->p, o[i]->p.alpha);
		if (!o[i]->p.significant)
			break;
	}
	for (i++; o && i < k; i++) {
		o[i]->p.alpha = gate ? o[i - 1]->p.alpha : 0;
		o[i]->p.significant = 0;
	}
	free(o);
}

int lat_compare_rows(const cJSON *base, const cJSON *new, const char *primary,
		     lat_row_fn fn, void *arg)
{
	struct rows r = { NULL, 0, 0 };
	size_t i;
	int ret = 0;

	for (i = 0; i < lat_n_metrics && !ret; i++)
		ret = add_row(&r, base, new, &lat_metrics[i]);
	if (!ret)
		ret = cause_rows_of(&r, base, new);
	if (!ret) {
		/* the rows moved as the array grew: their metrics' names too */
		for (i = 0; i < r.n; i++)
			lat_metric_parse(r.v[i].name, &r.v[i].m, r.v[i].label, sizeof(r.v[i].label));
		holm(&r, primary ? primary : LAT_COMPARE_PRIMARY);
		for (i = 0; i < r.n; i++)
			fn(arg, &r.v[i].m, &r.v[i].p);
	}
	free(r.v);
	return ret;
}

/* "v ±half" with half in fmt, or "v ±>999" and unit for a wider half: a
 * cell of at most LAT_PAIR_WIDTH + 8 characters. */
static void spread_fmt(char *buf, size_t len, const char *v, double half,
		       const char *fmt, const char *unit)
{
	char h[16];

	if (half < 999.5)
		snprintf(h, sizeof(h), fmt, half);
	else
		snprintf(h, sizeof(h), ">999%s", unit);
	snprintf(buf, len, "%s ±%s", v, h);
}

/* "2.315us ±5%": the median and the interval's larger half-width in % of
 * it; a share's in percentage points ("2.7% ±9.4pt"), which a share of a
 * few percent would otherwise blow up to hundreds of percent. */
static void fmt_side(char *buf, size_t len, const struct lat_interval *iv, const char *unit)
{
	char v[32];
	double half = fmax(iv->hi - iv->median, iv->median - iv->lo);

	lat_pair_fmt(v, sizeof(v), iv->median, unit);
	if (!strcmp(unit, "%"))
		spread_fmt(buf, len, v, half * 100, "%.1fpt", "pt");
	else if (iv->median != 0)
		spread_fmt(buf, len, v, half / fabs(iv->median) * 100, "%.0f%%", "%");
	else
		snprintf(buf, len, "%s", v);
}

/* State of the text table: the lowest interval coverage seen, the rows
 * corrected for multiplicity, the primary row. */
struct text_ctx {
	FILE *out;
	double min_conf;
	size_t min_n, corrected;
	struct lat_pair primary;
	const char *primary_name;
	const char *primary_unit;
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
	char b[64], w[64], ch[16], pv[16], n[24], full[64];
	const char *name = row_name(m, c->out);

	fmt_side(b, sizeof(b), &p->base, m->unit);
	fmt_side(w, sizeof(w), &p->new, m->unit);
	if (!p->verdict)
		snprintf(ch, sizeof(ch), "?");
	else if (!p->significant)
		snprintf(ch, sizeof(ch), "~");
	else if (isnan(p->change_pct))
		snprintf(ch, sizeof(ch), "new");
	else if (!isfinite(p->change_pct))
		snprintf(ch, sizeof(ch), "%s", p->change_pct > 0 ? "new" : "gone");
	else
		lat_fmt_change(ch, sizeof(ch), p->change_pct, "%", 9);
	snprintf(pv, sizeof(pv), p->verdict ? "%.3f" : "-", p->p);
	snprintf(n, sizeof(n), "%zu+%zu", p->base.n, p->new.n);
	snprintf(full, sizeof(full), "%s%s", name, p->primary ? "*" : "");
	fprintf(c->out, "%s%-*s %16s %16s %9s %7s %7s\n", name == m->name ? "" : "  ",
		name == m->name ? 12 : 10, full, b, w, ch, pv, n);
	c->min_conf = fmin(c->min_conf, fmin(p->base.confidence, p->new.confidence));
	c->corrected += !p->primary && p->verdict && !p->missing;
	if (p->primary) {
		c->primary = *p;
		c->primary_name = m->name;
		c->primary_unit = m->unit;
	}
}

/*
 * The change in slow time explained by causes, one decomposition that adds
 * up: per run, a cause's slow time and its slow iterations (where it is
 * primary) per million iterations; the means over the runs on each side
 * (means add up: the causes' times sum to the slow time of every run, so
 * their changes sum to the change of the whole); each cause's change in
 * points, % of the base's slow time per million iterations, with the 95%
 * distribution-free interval of the difference (Hodges-Lehmann on the
 * runs' values); a row whose interval holds 0 is marked "~".
 */
struct cause_sum {
	const char *label;
	double t[2], count[2];	/* base, new: means per million iterations */
	double points, lo, hi;	/* change, its interval, in points */
	int apart;		/* the interval excludes 0 */
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

/* One cause on both sides; tot: the base's mean slow time. */
static void cause_sum_of(const cJSON *base, const cJSON *new, const char *label, double tot,
			 double *vb, double *vn, struct cause_sum *s)
{
	struct lat_shift sh;
	size_t kb, kn;

	s->label = label;
	s->count[0] = runs_values(base, label, 1, vb, &kb);
	s->count[1] = runs_values(new, label, 1, vn, &kn);
	s->t[0] = runs_values(base, label, 0, vb, &kb);
	s->t[1] = runs_values(new, label, 0, vn, &kn);
	s->points = tot > 0 ? (s->t[1] - s->t[0]) / tot * 100 : 0;
	s->lo = -INFINITY;
	s->hi = INFINITY;
	if (tot > 0 && kb && kn && !lat_shift_interval(vb, kb, vn, kn, LAT_PAIR_CONFIDENCE, &sh)) {
		s->lo = sh.lo / tot * 100;
		s->hi = sh.hi / tot * 100;
	}
	s->apart = s->lo > 0 || s->hi < 0;
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
static size_t cause_sums(const cJSON *base, const cJSON *new, cJSON *labels,
			 struct cause_sum **out, double tot[2])
{
	size_t nb = lat_runs_count(base), nn = lat_runs_count(new), n = 0, k;
	double *vb = malloc(nb * sizeof(*vb)), *vn = malloc(nn * sizeof(*vn));
	struct cause_sum *s = NULL;
	cJSON *l, *list = NULL;

	*out = NULL;
	if (vb && vn) {
		tot[0] = runs_values(base, NULL, 0, vb, &k);
		tot[1] = runs_values(new, NULL, 0, vn, &k);
		lat_runs_cause_labels(base, labels);
		lat_runs_cause_labels(new, labels);
		s = calloc((size_t)cJSON_GetArraySize(labels) + 1, sizeof(*s));
		list = s ? labels : NULL;
	}
	cJSON_ArrayForEach(l, list)
		cause_sum_of(base, new, l->valuestring, tot[0], vb, vn, &s[n++]);
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
		     c0, c1, e0, e1, pt, s->apart ? " " : "~");
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

/* The median of the runs' slow thresholds of doc, in ns. */
static double threshold_of(const cJSON *doc)
{
	struct lat_metric m = { "threshold", LAT_METRIC_SUMMARY, "slow_threshold_ns", "ns", 0 };
	struct lat_interval iv;
	double *v = NULL;
	size_t n = 0, i, k = lat_runs_count(doc);

	v = malloc((k ? k : 1) * sizeof(*v));
	for (i = 0; v && i < k; i++) {
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(lat_run_at(doc, i), "causes");
		double t = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, m.key));

		if (!isnan(t))
			v[n++] = t;
	}
	iv.median = NAN;
	if (n)
		lat_median_interval(v, n, &iv);
	free(v);
	return iv.median;
}

/* How much of the change in slow time each cause accounts for. */
static void explain(FILE *out, const cJSON *base, const cJSON *new)
{
	cJSON *labels = cJSON_CreateArray();
	struct cause_sum *s;
	double tot[2], sum = 0;
	size_t n = cause_sums(base, new, labels, &s, tot), i;
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
	fprintf(out, "  points: the cause's change in %% of the base's slow time (sum %s);\n"
		"  means over the runs; ~: its interval holds 0; slow per 1M: iterations\n"
		"  where it is the primary cause. Slow is each run's own --slow: median\n"
		"  %s base, %s new (an absolute --slow on both sides: one set)\n",
		ch, t0, t1);
	free(s);
	cJSON_Delete(labels);
}

static cJSON *causes_json(const cJSON *base, const cJSON *new)
{
	cJSON *labels = cJSON_CreateArray(), *a = cJSON_CreateArray(), *o;
	struct cause_sum *s;
	double tot[2];
	size_t n = cause_sums(base, new, labels, &s, tot), i;

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
		cJSON_AddBoolToObject(o, "significant", s[i].apart);
		cJSON_AddItemToArray(a, o);
	}
	free(s);
	cJSON_Delete(labels);
	return a;
}

/* "+36.5% (95% interval +12.0% .. +60.3%)" of the primary row. */
static void primary_line(FILE *out, const struct text_ctx *c)
{
	const struct lat_pair *p = &c->primary;
	char ch[24], lo[24], hi[24];

	if (!c->primary_name)
		return;
	fprintf(out, "  * %s, the primary metric: ", c->primary_name);
	if (p->missing) {
		fputs("no value on a side\n", out);
		return;
	}
	lat_fmt_change(ch, sizeof(ch), isfinite(p->change_pct) ? p->change_pct : 0, "%", 9);
	fprintf(out, "%s, p = %.3f\n    change %s, 95%% interval ", !p->verdict ? "no verdict" :
		p->significant ? "significant" : "not significant", p->p, ch);
	if (isfinite(p->change_lo) && isfinite(p->change_hi)) {
		lat_fmt_change(lo, sizeof(lo), p->change_lo, "%", 9);
		lat_fmt_change(hi, sizeof(hi), p->change_hi, "%", 9);
		fprintf(out, "%s .. %s\n", lo, hi);
	} else {
		fputs("unbounded (too few runs)\n", out);
	}
}

int lat_compare_print(FILE *out, const cJSON *base, const cJSON *new, const char *primary)
{
	struct text_ctx c = { .out = out, .min_conf = 1 };
	size_t need = lat_pair_min_runs(), nb = lat_runs_count(base), nw = lat_runs_count(new);

	fprintf(out, "%-12s %16s %16s %9s %7s %7s\n", "metric", "base", "new", "change", "p", "n");
	if (lat_compare_rows(base, new, primary, text_row, &c))
		return -ENOMEM;
	fputs("  base, new: median of the runs ± the larger half of its interval\n"
	      "  (in % of the median; in percentage points, pt, for shares);\n"
	      "  change: Hodges-Lehmann estimate; ~: not significant (Mann-Whitney U,\n"
	      "  exact for small samples, and the change's 95% interval clear of ±1%)\n", out);
	primary_line(out, &c);
	if (c.corrected && c.primary.significant)
		fprintf(out, "  the other %zu rows are Holm-corrected over them: the smallest p must\n"
			"  be below %.4f (at 5 runs a side no p goes below 0.008)\n",
			c.corrected, LAT_SIGNIF_ALPHA / (double)c.corrected);
	else if (c.corrected)
		fprintf(out, "  the other %zu rows are exploratory: they are tested only when the\n"
			"  primary metric changed (--metric picks another)\n", c.corrected);
	if (c.min_conf < LAT_SIGNIF_CONFIDENCE)
		fprintf(out, "  with fewer than 6 runs a side a median's interval is its runs' [min, max],\n"
			"  which holds it with %.1f%% confidence, not 95%%\n", c.min_conf * 100);
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

int lat_compare_print_lkp(FILE *out, const cJSON *base, const cJSON *new, const char *primary)
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
	return lat_compare_rows(base, new, primary, lkp_row, &c);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_row(void *arg, const struct lat_metric *m, const struct lat_pair *p)
{
	cJSON *o = lat_pair_json(p);

	cJSON_AddStringToObject(o, "metric", m->name);
	cJSON_AddStringToObject(o, "unit", m->unit);
	cJSON_AddItemToArray(arg, o);
}

cJSON *lat_compare_json(const cJSON *base, const cJSON *new, const char *primary)
{
	cJSON *o = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(o, "metrics");
	size_t need = lat_pair_min_runs();

	lat_compare_rows(base, new, primary, json_row, rows);
	cJSON_AddItemToObject(o, "causes", causes_json(base, new));
	cJSON_AddNumberToObject(o, "runs_base", (double)lat_runs_count(base));
	cJSON_AddNumberToObject(o, "runs_new", (double)lat_runs_count(new));
	cJSON_AddNumberToObject(o, "runs_needed", (double)need);
	cJSON_AddBoolToObject(o, "verdict", lat_runs_count(base) >= need &&
			      lat_runs_count(new) >= need);
	return o;
}
