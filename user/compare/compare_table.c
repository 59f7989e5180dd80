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

/* The primary row judged at alpha, every other one by Holm's step-down
 * over the others that have a verdict: the k-th smallest p (from 0) at
 * alpha / (K - k), until one fails. */
static void holm(struct rows *r, const char *primary)
{
	struct row **o = malloc((r->n ? r->n : 1) * sizeof(*o));
	size_t k = 0, i;

	for (i = 0; i < r->n; i++) {
		r->v[i].p.primary = !strcmp(r->v[i].m.name, primary);
		r->v[i].p.alpha = LAT_SIGNIF_ALPHA;
		if (!r->v[i].p.primary && o && r->v[i].p.verdict && !r->v[i].p.missing)
			o[k++] = &r->v[i];
	}
	if (o)
		qsort(o, k, sizeof(*o), cmp_p);
	for (i = 0; o && i < k; i++) {
		o[i]->p.alpha = LAT_SIGNIF_ALPHA / (double)(k - i);
		o[i]->p.significant = lat_pair_significant(&o[i]->p, o[i]->p.alpha);
		if (!o[i]->p.significant)
			break;
	}
	for (i++; o && i < k; i++) {
		o[i]->p.alpha = o[i - 1]->p.alpha;
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
		holm(&r, primary ? primary : LAT_COMPARE_PRIMARY);
		for (i = 0; i < r.n; i++) {
			/* the rows moved as the array grew: their names too */
			lat_metric_parse(r.v[i].name, &r.v[i].m, r.v[i].label, sizeof(r.v[i].label));
			fn(arg, &r.v[i].m, &r.v[i].p);
		}
	}
	free(r.v);
	return ret;
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
	char b[48], w[48], ch[16], pv[16], n[24], full[64];
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
		snprintf(ch, sizeof(ch), "%+.1f%%", p->change_pct);
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
	struct lat_metric share = { "share", LAT_METRIC_CAUSE_SHARE, label, "%", 0 };
	struct lat_metric count = { "count", LAT_METRIC_CAUSE_COUNT, label, "", 0 };
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

/* "+36.5% (95% interval +12.0% .. +60.3%)" of the primary row. */
static void primary_line(FILE *out, const struct text_ctx *c)
{
	const struct lat_pair *p = &c->primary;

	if (!c->primary_name)
		return;
	fprintf(out, "  * %s, the primary metric: ", c->primary_name);
	if (p->missing) {
		fputs("no value on a side\n", out);
		return;
	}
	fprintf(out, "%s, p = %.3f\n    change %+.1f%%, 95%% interval ", !p->verdict ? "no verdict" :
		p->significant ? "significant" : "not significant", p->p,
		isfinite(p->change_pct) ? p->change_pct : 0);
	if (isfinite(p->change_lo) && isfinite(p->change_hi))
		fprintf(out, "%+.1f%% .. %+.1f%%\n", p->change_lo, p->change_hi);
	else
		fputs("unbounded (too few runs)\n", out);
}

int lat_compare_print(FILE *out, const cJSON *base, const cJSON *new, const char *primary)
{
	struct text_ctx c = { .out = out, .min_conf = 1 };
	size_t need = lat_pair_min_runs(), nb = lat_runs_count(base), nw = lat_runs_count(new);

	fprintf(out, "%-12s %16s %16s %9s %7s %7s\n", "metric", "base", "new", "change", "p", "n");
	if (lat_compare_rows(base, new, primary, text_row, &c))
		return -ENOMEM;
	fputs("  base, new: median of the runs ± the larger half of its interval;\n"
	      "  change: Hodges-Lehmann estimate; ~: not significant (Mann-Whitney U,\n"
	      "  exact for small samples, and the change's 95% interval clear of ±1%)\n", out);
	primary_line(out, &c);
	if (c.corrected)
		fprintf(out, "  the other %zu rows are exploratory, Holm-corrected over them: the\n"
			"  smallest p must be below %.4f (at 5 runs a side the test cannot go\n"
			"  below 0.008)\n", c.corrected, LAT_SIGNIF_ALPHA / (double)c.corrected);
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
