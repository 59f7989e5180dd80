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

static int add_row(struct rows *r, const struct lat_side *base, const struct lat_side *new,
		   const struct lat_metric *m)
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
	if (lat_pair_sides(base->doc, base->n, new->doc, new->n, &x->m, &x->p))
		return -ENOMEM;
	r->n += x->p.present;
	return 0;
}

/* A metric's name around a name: "share:" + label, "fault." + kind + ":p50". */
struct around {
	const char *before, *after;
};

/* Rows named after what either side has: collect() appends the names (a
 * cause label, a fault kind) of one document to a list; each name gives
 * one row per entry of arounds. */
static int named_rows(struct rows *r, const struct lat_side *base, const struct lat_side *new,
		      void (*collect)(const cJSON *doc, cJSON *list),
		      const struct around *arounds, size_t n_arounds)
{
	cJSON *names = cJSON_CreateArray(), *l;
	char name[96], label[64];
	struct lat_metric m;
	size_t k;
	int ret = 0;

	if (!names)
		return -ENOMEM;
	for (k = 0; k < base->n; k++)
		collect(base->doc[k], names);
	for (k = 0; k < new->n; k++)
		collect(new->doc[k], names);
	cJSON_ArrayForEach(l, names)
		for (k = 0; k < n_arounds && !ret; k++) {
			snprintf(name, sizeof(name), "%s%s%s", arounds[k].before, l->valuestring,
				 arounds[k].after);
			lat_metric_parse(name, &m, label, sizeof(label));
			ret = add_row(r, base, new, &m);
		}
	cJSON_Delete(names);
	return ret;
}

/* Rows of the causes either side names (count:, share:, own: each), then
 * of the fault kinds either side has (fault.KIND:count and :p50). */
static int label_rows(struct rows *r, const struct lat_side *base, const struct lat_side *new)
{
	static const struct around kinds[] = { { "fault.", ":count" }, { "fault.", ":p50" } };
	struct around causes[N_CAUSE_ROWS];
	size_t k;
	int ret;

	for (k = 0; k < N_CAUSE_ROWS; k++)
		causes[k] = (struct around){ cause_rows[k].prefix, "" };
	ret = named_rows(r, base, new, lat_runs_cause_labels, causes, N_CAUSE_ROWS);
	return ret ? ret : named_rows(r, base, new, lat_runs_fault_kinds, kinds, 2);
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

int lat_compare_rows(const struct lat_side *base, const struct lat_side *new, const char *primary,
		     lat_row_fn fn, void *arg)
{
	struct rows r = { NULL, 0, 0 };
	size_t i;
	int ret = 0;

	for (i = 0; i < lat_n_metrics && !ret; i++)
		ret = add_row(&r, base, new, &lat_metrics[i]);
	if (!ret)
		ret = label_rows(&r, base, new);
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
	int one_unit;		/* a row with one unit on a side */
	size_t runs_to_tell, tell_nb, tell_nw;	/* the most a "cannot tell" row needs */
	double tell_alpha;
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
	if (m->kind == LAT_METRIC_FAULT_KIND) {	/* "fault.cow:count", then ":p50" */
		n = strcspn(m->key, ":");
		if (!strcmp(m->key + n, ":count"))
			fprintf(out, "%.*s faults\n", (int)n, m->key);
		return !strcmp(m->key + n, ":count") ? "count" : "median";
	}
	return m->name;
}

/* What the notes under the table need of a row: the least confidence of
 * an interval of 2 to 5 units, a side of one unit, the runs a side that
 * a row that cannot tell would need. */
static void note_row(struct text_ctx *c, const struct lat_pair *p)
{
	size_t k;

	/* an interval of 2 or more values holds the median with 50% or more;
	 * 0 is a side whose interval was not computed */
	if (p->base.n >= 2 && p->base.confidence > 0)
		c->min_conf = fmin(c->min_conf, p->base.confidence);
	if (p->new.n >= 2 && p->new.confidence > 0)
		c->min_conf = fmin(c->min_conf, p->new.confidence);
	c->one_unit |= p->base.n == 1 || p->new.n == 1;
	if (strcmp(lat_pair_word(p), "cannot tell") || p->missing)
		return;
	k = lat_pair_runs_to_tell(p);
	if (k > c->runs_to_tell) {
		c->runs_to_tell = k;
		c->tell_alpha = p->alpha;
		c->tell_nb = p->base.n;
		c->tell_nw = p->new.n;
	}
}

static void text_row(void *arg, const struct lat_metric *m, const struct lat_pair *p)
{
	struct text_ctx *c = arg;
	char b[64], w[64], ch[16], pv[16], n[24], full[64];
	const char *name = row_name(m, c->out);

	fmt_side(b, sizeof(b), &p->base, m->unit);
	fmt_side(w, sizeof(w), &p->new, m->unit);
	if (!p->verdict || !p->significant)
		snprintf(ch, sizeof(ch), "%s", lat_pair_word(p));	/* no change, cannot tell */
	else if (isnan(p->change_pct))
		snprintf(ch, sizeof(ch), "new");
	else if (!isfinite(p->change_pct))
		snprintf(ch, sizeof(ch), "%s", p->change_pct > 0 ? "new" : "gone");
	else
		lat_fmt_change(ch, sizeof(ch), p->change_pct, "%", 9);
	snprintf(pv, sizeof(pv), p->verdict ? "%.3f" : "-", p->p);
	snprintf(n, sizeof(n), "%zu+%zu", p->base.n, p->new.n);
	snprintf(full, sizeof(full), "%s%s", name, p->primary ? "*" : "");
	fprintf(c->out, "%s%-*s %16s %16s %11s %7s %7s\n", name == m->name ? "" : "  ",
		name == m->name ? 12 : 10, full, b, w, ch, pv, n);
	note_row(c, p);
	c->corrected += !p->primary && p->verdict && !p->missing;
	if (p->primary) {
		c->primary = *p;
		c->primary_name = m->name;
		c->primary_unit = m->unit;
	}
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

/* The units' line when a side pools invocations: their counts and the
 * ICC of the primary metric's runs within an invocation. */
static void units_lines(FILE *out, const struct lat_side *base, const struct lat_side *new,
			const char *primary)
{
	struct lat_metric m;
	char label[64], ib[32], in[32];

	if (lat_metric_parse(primary, &m, label, sizeof(label)))
		return;
	lat_icc_fmt(ib, sizeof(ib), "base", lat_side_icc(base->doc, base->n, &m));
	lat_icc_fmt(in, sizeof(in), "new", lat_side_icc(new->doc, new->n, &m));
	fprintf(out,
		"  units: base %zu %s, new %zu %s (each its runs' median)\n"
		"  ICC of %s within an invocation: %s, %s\n"
		"  (1: an invocation's runs agree; 0: they vary as much as invocations do)\n",
		lat_side_units(base->doc, base->n), base->n > 1 ? "invocations" : "runs",
		lat_side_units(new->doc, new->n), new->n > 1 ? "invocations" : "runs", primary, ib,
		in);
	if ((base->n > 1) != (new->n > 1))
		fprintf(out,
			"  mixed units: the %s side is one invocation's runs, whose spread lacks\n"
			"  the drift between invocations: give it several files\n",
			base->n > 1 ? "new" : "base");
}

/* Whether a verdict is possible, and what the units of the sides are. */
static void verdict_lines(FILE *out, const struct lat_side *base, const struct lat_side *new,
			  const char *primary)
{
	size_t need = lat_pair_min_runs();
	size_t ub = lat_side_units(base->doc, base->n), un = lat_side_units(new->doc, new->n);
	int pooled = base->n > 1 || new->n > 1;

	if (pooled)
		units_lines(out, base, new, primary);
	if ((ub < need || un < need) && !pooled)
		fprintf(out,
			"no verdict: base has %zu run%s, new %zu; a difference can be significant\n"
			"only with at least %zu runs a side (run --repeat %zu)\n",
			ub, ub == 1 ? "" : "s", un, need, need);
	else if (ub < need || un < need)
		fprintf(out,
			"no verdict: base has %zu unit%s, new %zu; a difference can be significant\n"
			"only with at least %zu units a side (give more result files)\n",
			ub, ub == 1 ? "" : "s", un, need);
	else if (!pooled)
		fprintf(out,
			"  each side is one invocation: its runs share a process and a boot, so a\n"
			"  drift between invocations cannot be told from a change here; %zu\n"
			"  invocations a side can (--baseline A1.json ... --pool B1.json ...)\n",
			need);
}

int lat_compare_print(FILE *out, const struct lat_side *base, const struct lat_side *new,
		      const char *primary)
{
	struct text_ctx c = { .out = out, .min_conf = 1 };

	primary = primary ? primary : LAT_COMPARE_PRIMARY;
	fprintf(out, "%-12s %16s %16s %11s %7s %7s\n", "metric", "base", "new", "change", "p", "n");
	if (lat_compare_rows(base, new, primary, text_row, &c))
		return -ENOMEM;
	fprintf(out,
		"  base, new: median of the %s ± the larger half of its interval\n"
		"  (in %% of the median; in percentage points, pt, for shares);\n"
		"  change: Hodges-Lehmann estimate where it changed (Mann-Whitney U,\n"
		"  exact for small samples, and the change's 95%% interval clear of ±1%%);\n"
		"  no change: that interval inside ±1%%; cannot tell: neither\n",
		base->n > 1 || new->n > 1 ? "units" : "runs");
	if (c.runs_to_tell)
		fprintf(out,
			"  cannot tell with %zu+%zu: no p can go below %.4f there, and such a row\n"
			"  is judged at %.4f; %zu runs a side could tell\n",
			c.tell_nb, c.tell_nw, lat_mwu_min_p(c.tell_nb, c.tell_nw),
			c.tell_alpha > 0 ? c.tell_alpha : LAT_SIGNIF_ALPHA, c.runs_to_tell);
	primary_line(out, &c);
	if (c.corrected && c.primary.significant)
		fprintf(out,
			"  the other %zu rows are Holm-corrected over them: the smallest p must\n"
			"  be below %.4f (at 5 units a side no p goes below 0.008)\n",
			c.corrected, LAT_SIGNIF_ALPHA / (double)c.corrected);
	else if (c.corrected)
		fprintf(out, "  the other %zu rows are exploratory: they are tested only when the\n"
			"  primary metric changed (--metric picks another)\n", c.corrected);
	if (c.min_conf < LAT_SIGNIF_CONFIDENCE)
		fprintf(out,
			"  with 2 to 5 units a side a median's interval is their [min, max],\n"
			"  which holds it with %.1f%% confidence, not 95%%\n",
			c.min_conf * 100);
	if (c.one_unit)
		fputs("  a side of one unit has no interval (±0%): one value is no spread\n", out);
	verdict_lines(out, base, new, primary);
	lat_compare_explain(out, base, new, c.primary_name && c.primary.significant);
	return 0;
}

/* ---- the 0-day style ---------------------------------------------------- */

/* Mean and standard deviation of a side's units. */
static void mean_sd(const struct lat_side *side, const struct lat_metric *m, double *mean,
		    double *sd)
{
	double s = 0, q = 0;
	size_t n = 0, i;
	double *v = lat_side_values(side->doc, side->n, m, &n);

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
	const struct lat_side *base, *new;
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

int lat_compare_print_lkp(FILE *out, const struct lat_side *base, const struct lat_side *new,
			  const char *primary)
{
	struct lkp_ctx c = { out, base, new, "" };
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(base->doc[0], "run");
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

struct json_ctx {
	cJSON *rows;
	int gate;		/* the primary row changed significantly */
};

static void json_row(void *arg, const struct lat_metric *m, const struct lat_pair *p)
{
	struct json_ctx *c = arg;
	cJSON *o = lat_pair_json(p);

	cJSON_AddStringToObject(o, "metric", m->name);
	cJSON_AddStringToObject(o, "unit", m->unit);
	cJSON_AddItemToArray(c->rows, o);
	c->gate |= p->primary && p->significant;
}

/* A number, or null where it is not finite. */
static cJSON *number_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* Each side's runs, units and the ICC of the primary metric. */
static void units_json(cJSON *o, const struct lat_side *base, const struct lat_side *new,
		       const char *primary)
{
	const struct lat_side *sides[2] = { base, new };
	static const char *const names[2] = { "base", "new" };
	char key[32], label[64];
	struct lat_metric m;
	size_t runs, i, k;
	int known = !lat_metric_parse(primary, &m, label, sizeof(label));

	for (k = 0; k < 2; k++) {
		for (runs = 0, i = 0; i < sides[k]->n; i++)
			runs += lat_runs_count(sides[k]->doc[i]);
		snprintf(key, sizeof(key), "runs_%s", names[k]);
		cJSON_AddNumberToObject(o, key, (double)runs);
		snprintf(key, sizeof(key), "invocations_%s", names[k]);
		cJSON_AddNumberToObject(o, key, (double)sides[k]->n);
		snprintf(key, sizeof(key), "units_%s", names[k]);
		cJSON_AddNumberToObject(o, key, (double)lat_side_units(sides[k]->doc, sides[k]->n));
		snprintf(key, sizeof(key), "icc_%s", names[k]);
		cJSON_AddItemToObject(
			o, key,
			number_or_null(known ? lat_side_icc(sides[k]->doc, sides[k]->n, &m) : NAN));
	}
}

cJSON *lat_compare_json(const struct lat_side *base, const struct lat_side *new,
			const char *primary)
{
	cJSON *o = cJSON_CreateObject();
	struct json_ctx c = { cJSON_AddArrayToObject(o, "metrics"), 0 };
	size_t need = lat_pair_min_runs();

	primary = primary ? primary : LAT_COMPARE_PRIMARY;
	lat_compare_rows(base, new, primary, json_row, &c);
	cJSON_AddItemToObject(o, "causes", lat_compare_causes_json(base, new, c.gate));
	units_json(o, base, new, primary);
	cJSON_AddStringToObject(o, "unit", base->n > 1 || new->n > 1 ? "invocation" : "run");
	cJSON_AddNumberToObject(o, "runs_needed", (double)need);
	cJSON_AddBoolToObject(o, "verdict",
			      lat_side_units(base->doc, base->n) >= need &&
				      lat_side_units(new->doc, new->n) >= need);
	return o;
}
