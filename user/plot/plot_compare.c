// SPDX-License-Identifier: MIT
/*
 * `latctl plot BASE.json NEW.json` and `latctl plot COMPARISON.json`: one
 * SVG picture of a comparison, drawn from what `compare --json` writes
 * (for two results, computed here the same way). Top: both histograms bar
 * beside bar, base left with a thin outline, new right with a thick one,
 * each split as plot splits one result. Bottom left: each percentile's
 * median over the runs with its interval, base over new, on a log scale,
 * and the change when it is significant. Bottom right: each cause's change
 * in slow time, in points of the base's slow time, as a bar from zero.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "plot/plot_int.h"
#include "lib/rdoc.h"
#include "doc/runs.h"

#define QX0		90	/* percentile panel */
#define QX1		460
#define CNAME		640	/* cause panel: names end here, */
#define CX0		648	/* bars from CX0 to CX1 around CZ, */
#define CX1		852	/* their values right of CX1 */
#define CZ		750
#define MAX_PCT		8
#define MAX_CAUSE_ROWS	11
#define NEW_FILL	"#555555"
#define PALE		"0.4"	/* the opacity of a cause's change that is not shown */

struct pct_row {
	const char *name;
	double side[2][3];	/* base, new: median, lo, hi */
	double change;		/* NAN: none (base 0) */
	int verdict, significant;
	const char *says;	/* "no change", "cannot tell" (older documents: NULL) */
};

struct cause_row {
	const char *cause;
	int label;
	double count[2], points;
	int apart;		/* its interval excludes 0 (older documents: not said) */
};

struct cmp {
	const char *origin;		/* for messages; NULL: none */
	struct lat_rd rd;
	const char *files[2];
	struct plot *side[2];		/* the histograms; NULL: not drawn */
	char why_no_hist[PATH_MAX + 96];
	struct pct_row pct[MAX_PCT];
	size_t npct;
	struct cause_row *causes;
	size_t ncauses;
	double runs[2], runs_needed;
};

/* ---- reading ------------------------------------------------------------ */

static void read_interval(struct cmp *c, const cJSON *m, const char *key, double out[3])
{
	const cJSON *iv = lat_rd_obj(&c->rd, m, key);

	out[0] = lat_rd_num(&c->rd, iv, "median");
	out[1] = lat_rd_num(&c->rd, iv, "lo");
	out[2] = lat_rd_num(&c->rd, iv, "hi");
}

/* The row of metric name in the comparison's metrics; absent: skipped (a
 * metric neither side has, as compare leaves it out). */
static void read_pct(struct cmp *c, const cJSON *metrics, const char *name)
{
	struct pct_row *r = &c->pct[c->npct];
	const cJSON *m, *ch;

	cJSON_ArrayForEach(m, metrics) {
		if (strcmp(lat_rd_str(&c->rd, m, "metric"), name))
			continue;
		r->name = name;
		read_interval(c, m, "base", r->side[0]);
		read_interval(c, m, "new", r->side[1]);
		ch = lat_rd_get(&c->rd, m, "change_pct", cJSON_Number | cJSON_NULL);
		r->change = cJSON_IsNumber(ch) ? ch->valuedouble : NAN;
		r->verdict = lat_rd_bool(&c->rd, m, "verdict");
		r->significant = lat_rd_bool(&c->rd, m, "significant");
		r->says = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "says"));
		c->npct++;
		return;
	}
}

static void read_causes(struct cmp *c, const cJSON *arr)
{
	const cJSON *o, *sig;
	struct cause_row *r;

	c->causes = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof(*c->causes));
	if (!c->causes)
		return;
	cJSON_ArrayForEach(o, arr) {
		r = &c->causes[c->ncauses++];
		r->cause = lat_rd_str(&c->rd, o, "cause");
		r->label = lat_plot_label(r->cause);
		r->count[0] = lat_rd_num(&c->rd, o, "count_base");
		r->count[1] = lat_rd_num(&c->rd, o, "count_new");
		r->points = lat_rd_num(&c->rd, o, "points");
		sig = cJSON_GetObjectItemCaseSensitive(o, "significant");
		lat_rd_expect(&c->rd, !sig || cJSON_IsBool(sig), "significant");
		r->apart = !sig || cJSON_IsTrue(sig);
	}
}

/* One element of "comparisons" into c: the duration metrics (p50 ... max,
 * mean), the causes, the runs; every key checked. -EINVAL: c->rd.bad. */
static int read_comparison(struct cmp *c, const cJSON *cmp)
{
	const cJSON *metrics = lat_rd_array(&c->rd, cmp, "metrics");
	size_t i;

	c->files[0] = lat_rd_str(&c->rd, cmp, "base");
	c->files[1] = lat_rd_str(&c->rd, cmp, "new");
	for (i = 0; i < lat_n_metrics && c->npct < MAX_PCT; i++)
		if (lat_metrics[i].kind == LAT_METRIC_SUMMARY)
			read_pct(c, metrics, lat_metrics[i].name);
	read_causes(c, lat_rd_array(&c->rd, cmp, "causes"));
	c->runs[0] = lat_rd_num(&c->rd, cmp, "runs_base");
	c->runs[1] = lat_rd_num(&c->rd, cmp, "runs_new");
	c->runs_needed = lat_rd_num(&c->rd, cmp, "runs_needed");
	if (!c->causes)
		return -ENOMEM;
	return c->rd.bad ? -EINVAL : 0;
}

/* Empty buckets between two others get their bounds, as plot's reader does. */
static void fill_bounds(struct plot *p)
{
	int k;

	for (k = 0; k < p->nslots; k++)
		if (!p->slots[k].hi) {
			p->slots[k].lo = k + p->k0 ? ldexp(1, k + p->k0) : 0;
			p->slots[k].hi = ldexp(1, k + p->k0 + 1) - 1;
		}
}

/* Both sides on the same buckets: from the lower first to the higher last. */
static int align(struct plot *a, struct plot *b)
{
	int k0 = a->k0 < b->k0 ? a->k0 : b->k0;
	int end = fmax(a->k0 + a->nslots, b->k0 + b->nslots);
	struct plot *s[2] = { a, b };
	int i, d;

	if (end - k0 > MAX_SLOTS)
		return -EINVAL;
	for (i = 0; i < 2; i++) {
		d = s[i]->k0 - k0;
		memmove(&s[i]->slots[d], &s[i]->slots[0], (size_t)s[i]->nslots * sizeof(struct slot));
		memset(&s[i]->slots[0], 0, (size_t)d * sizeof(struct slot));
		s[i]->k0 = k0;
		s[i]->nslots = end - k0;
		fill_bounds(s[i]);
	}
	return 0;
}

/* The two results' histograms into c->side (docs may be NULL: none). */
static int read_sides(struct cmp *c, const cJSON *const docs[2])
{
	int i, ret = 0;

	for (i = 0; i < 2 && docs[0] && docs[1] && !ret; i++) {
		c->side[i] = calloc(1, sizeof(*c->side[i]));
		if (!c->side[i])
			return -ENOMEM;
		c->side[i]->path = c->origin ? c->files[i] : NULL;
		ret = lat_plot_read(c->side[i], docs[i]);
	}
	if (!ret && c->side[1] && align(c->side[0], c->side[1])) {
		if (c->origin)
			fprintf(stderr, "latctl plot: the histograms of %s and %s are more than %d buckets apart\n",
				c->files[0], c->files[1], MAX_SLOTS);
		ret = -EINVAL;
	}
	return ret;
}

/* ---- the histograms ----------------------------------------------------- */

static double top_of(const struct cmp *c)
{
	double top = 1;
	int i, k;

	for (i = 0; i < 2; i++)
		for (k = 0; k < c->side[i]->nslots; k++)
			while (top < c->side[i]->slots[k].count)
				top *= 10;
	return top;
}

static void draw_histograms(FILE *out, const struct cmp *c)
{
	const struct plot *b = c->side[0], *n = c->side[1];
	double top = top_of(c), slot_w = (double)(PX1 - PX0) / b->nslots, w = slot_w / 2 - 1.5;
	double x, h;
	int k;

	lat_plot_hist_axes(out, b, top, "Histograms: base (left bar, light) and new (right, dark, thick outline)");
	for (k = 0; k < b->nslots; k++) {
		x = PX0 + k * slot_w + 1;
		lat_plot_bar(out, &b->slots[k], x, w, top, FAST_FILL);
		lat_plot_bar(out, &n->slots[k], x + w + 1, w, top, NEW_FAST_FILL);
		h = n->slots[k].count > 0 ? (HY1 - HY0) * log10(1 + n->slots[k].count) / log10(1 + top) : 0;
		if (h > 0)
			fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" "
				"stroke=\"#000000\" stroke-width=\"2\"/>\n", x + w + 2, HY1 - h + 1, w - 2, h - 1);
	}
	if (fabs(b->threshold - n->threshold) <= 0.005 * b->threshold) {
		lat_plot_threshold(out, b, b->threshold, "slow >", 10, 0);
		return;
	}
	lat_plot_threshold(out, b, b->threshold, "base slow >", 10, b->threshold < n->threshold);
	lat_plot_threshold(out, b, n->threshold, "new slow >", 10, b->threshold >= n->threshold);
}

static void draw_no_histograms(FILE *out, const struct cmp *c)
{
	svg_text(out, PX0, HY0 - 14, 15, "start", "bold", "Histograms: not drawn");
	svg_text(out, PX0, (HY0 + HY1) / 2.0, 12, "start", NULL, c->why_no_hist);
	svg_text(out, PX0, (HY0 + HY1) / 2.0 + 18, 12, "start", NULL,
		 "(plot BASE.json NEW.json, or keep the results next to the comparison)");
}

/* ---- the percentiles ---------------------------------------------------- */

/* Decades around every interval: lo, hi. */
static void pct_range(const struct cmp *c, double *lo, double *hi)
{
	double mn = INFINITY, mx = 1;
	size_t i;
	int s;

	for (i = 0; i < c->npct; i++)
		for (s = 0; s < 2; s++) {
			mn = fmin(mn, fmax(c->pct[i].side[s][1], 1));
			mx = fmax(mx, c->pct[i].side[s][2]);
		}
	*lo = pow(10, floor(log10(isinf(mn) ? 1 : mn)));
	*hi = pow(10, ceil(log10(mx)));
	if (*hi <= *lo)
		*hi = *lo * 10;
}

static double pct_x(double ns, double lo, double hi)
{
	double v = log10(fmin(fmax(ns, lo), hi));

	return QX0 + (QX1 - QX0) * (v - log10(lo)) / (log10(hi) - log10(lo));
}

static void draw_pct_axes(FILE *out, double lo, double hi)
{
	char buf[32];
	double t;

	svg_text(out, QX0, TY0 - 14, 13, "start", "bold", "Percentiles: median over the runs, interval");
	for (t = lo; t <= hi * 1.0001 && t < LAT_PLOT_MAX_TICK; t *= 10) {
		svg_line(out, pct_x(t, lo, hi), TY0, pct_x(t, lo, hi), TY1, GRID, 0.6, "2,3");
		lat_plot_fmt_ns(buf, sizeof(buf), t);
		svg_text(out, pct_x(t, lo, hi), TY1 + 16, 10, "middle", NULL, buf);
	}
	svg_line(out, QX0, TY1, QX1, TY1, "#000000", 1, NULL);
	svg_text(out, (QX0 + QX1) / 2.0, TY1 + 32, 11, "middle", NULL,
		 "upper bar: base (open), lower: new (dark); dot: the median");
}

/* "+12.3%" (changed), "no change", "cannot tell" (also with too few runs),
 * as compare says them. */
static void change_text(char *buf, size_t len, const struct pct_row *r)
{
	if (!r->verdict)
		snprintf(buf, len, "cannot tell");	/* the runs: in the notes */
	else if (!r->significant)
		snprintf(buf, len, "%s", r->says ? r->says : "cannot tell");
	else if (isnan(r->change))
		snprintf(buf, len, "new");
	else
		snprintf(buf, len, "%+.1f%%", r->change);
}

static void draw_pct_row(FILE *out, const struct pct_row *r, double y, double lo, double hi)
{
	static const char *const fill[2] = { "#ffffff", NEW_FILL };
	static const char *const dot[2] = { "#ffffff", "#000000" };
	char buf[48];
	double x0, x1;
	int s;

	svg_text(out, QX0 - 6, y + 4, 12, "end", NULL, r->name);
	for (s = 0; s < 2; s++) {
		x0 = pct_x(r->side[s][1], lo, hi);
		x1 = fmax(pct_x(r->side[s][2], lo, hi), x0 + 2);
		fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"11\" fill=\"%s\" "
			"stroke=\"#000000\" stroke-width=\"0.8\"/>\n", x0, y - 12 + 12 * s, x1 - x0, fill[s]);
		svg_marker(out, MARK_CIRCLE, pct_x(r->side[s][0], lo, hi), y - 6.5 + 12 * s, 3.6, dot[s]);
	}
	change_text(buf, sizeof(buf), r);
	svg_text(out, QX1 + 8, y + 4, 12, "start", r->verdict && r->significant ? "bold" : NULL, buf);
}

static void draw_percentiles(FILE *out, const struct cmp *c)
{
	double lo, hi, row = (double)(TY1 - TY0) / (c->npct ? c->npct : 1);
	size_t i;

	pct_range(c, &lo, &hi);
	draw_pct_axes(out, lo, hi);
	for (i = 0; i < c->npct; i++)
		draw_pct_row(out, &c->pct[i], TY0 + (i + 0.5) * row, lo, hi);
}

/* ---- the causes --------------------------------------------------------- */

/* 1, 2, 5, 10, 20, 50, ... at or above v. */
static double nice_scale(double v)
{
	double d = pow(10, floor(log10(fmax(v, 1))));

	return v <= d ? d : v <= 2 * d ? 2 * d : v <= 5 * d ? 5 * d : 10 * d;
}

static void draw_cause_axes(FILE *out, double scale)
{
	char buf[32];
	int i;

	svg_text(out, 560, TY0 - 14, 13, "start", "bold", "Slow time by cause: the change, base -> new");
	for (i = -1; i <= 1; i++) {
		svg_line(out, CZ + i * (CX1 - CZ), TY0, CZ + i * (CX1 - CZ), TY1, i ? GRID : "#000000",
			 i ? 0.6 : 1.2, i ? "2,3" : NULL);
		snprintf(buf, sizeof(buf), "%+.0f", i * scale);
		svg_text(out, CZ + i * (CX1 - CZ), TY1 + 16, 10, "middle", NULL, i ? buf : "0");
	}
	svg_text(out, CX1 + 6, TY0 - 2, 10, "start", NULL, "points (count)");
	svg_text(out, CZ, TY1 + 32, 11, "middle", NULL,
		 "points: change in slow time, in % of the base's slow time");
}

static void draw_cause_row(FILE *out, const struct cause_row *r, double y, double scale)
{
	double len = (CX1 - CZ) * fmax(fmin(r->points / scale, 1), -1);
	char buf[64], fill[16];

	svg_text(out, CNAME, y + 4, 12, "end", NULL, r->cause);
	snprintf(fill, sizeof(fill), "url(#p%d)", r->label);
	/* a change not shown (its interval holds 0): pale, dashed outline */
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"12\" fill=\"%s\" "
		"stroke=\"#000000\" stroke-width=\"0.7\"%s/>\n", len < 0 ? CZ + len : CZ, y - 6, fabs(len), fill,
		r->apart ? "" : " fill-opacity=\"" PALE "\" stroke-dasharray=\"3,2\"");
	snprintf(buf, sizeof(buf), "%+.1f%s (%.0f->%.0f)", fabs(r->points) < 0.05 ? 0 : r->points,
		 r->apart ? "" : " ~", r->count[0], r->count[1]);
	svg_text(out, CX1 + 6, y + 4, 10, "start", NULL, buf);
}

static void draw_causes(FILE *out, const struct cmp *c)
{
	size_t i, n = c->ncauses < MAX_CAUSE_ROWS ? c->ncauses : MAX_CAUSE_ROWS;
	double big = 0, row = (double)(TY1 - TY0) / MAX_CAUSE_ROWS, scale;
	char buf[64];

	for (i = 0; i < n; i++)
		big = fmax(big, fabs(c->causes[i].points));
	scale = nice_scale(big);
	draw_cause_axes(out, scale);
	for (i = 0; i < n; i++)
		draw_cause_row(out, &c->causes[i], TY0 + (i + 0.5) * row, scale);
	if (!c->ncauses)
		svg_text(out, CZ, (TY0 + TY1) / 2.0, 12, "middle", NULL, "no slow iterations on either side");
	if (c->ncauses > n) {
		snprintf(buf, sizeof(buf), "and %zu causes of smaller change", c->ncauses - n);
		svg_text(out, CNAME, TY1 - 4, 11, "end", NULL, buf);
	}
}

/* ---- the page ----------------------------------------------------------- */

static int present(const struct cmp *c, int l)
{
	size_t i;

	for (i = 0; i < c->ncauses; i++)
		if (c->causes[i].label == l)
			return 1;
	return c->side[0] && (c->side[0]->per_label[l] || c->side[1]->per_label[l]);
}

static void draw_legend(FILE *out, const struct cmp *c)
{
	double y = lat_plot_legend_head(out, 790, c->runs[0] > 1 || c->runs[1] > 1);
	char fill[16];
	int l;

	if (c->side[0]) {
		svg_rect(out, 760, y, 22, 14, NEW_FAST_FILL);
		svg_text(out, 790, y + 11, 12, "start", NULL, "not slow, new side");
		y += 20;
	}

	for (l = 0; l < NLAB; l++) {
		if (!present(c, l))
			continue;
		snprintf(fill, sizeof(fill), "url(#p%d)", l);
		fprintf(out, "<rect x=\"760\" y=\"%.1f\" width=\"22\" height=\"14\" fill=\"%s\" "
			"stroke=\"#000000\" stroke-width=\"0.7\"/>\n", y, fill);
		svg_text(out, 790, y + 11, 12, "start", NULL, l < JOIN_NR_LABELS ? join_label_name(l) : "other");
		y += 20;
	}
}

static void draw_heading(FILE *out, const struct cmp *c, const char *title)
{
	char buf[256];
	int s;

	svg_text(out, 20, 28, 17, "start", "bold", title);
	for (s = 0; s < 2 && c->side[0]; s++) {
		snprintf(buf, sizeof(buf), "%s: %s", s ? "new" : "base", c->side[s]->what);
		svg_text(out, 20, 46 + 14 * s, 11, "start", NULL, buf);
	}
}

static void draw_notes(FILE *out, const struct cmp *c)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "Runs: base %.0f, new %.0f; a change is significant only with %.0f a side "
		 "(Mann-Whitney U p < 0.05, intervals apart); ~ and pale: not shown.", c->runs[0], c->runs[1],
		 c->runs_needed);
	svg_text(out, 20, H - 50, 11, "start", NULL, buf);
	svg_text(out, 20, H - 34, 11, "start", NULL,
		 "Bars: log10 of the count, pooled over the runs; the causes in a bar are run 1's slow "
		 "iterations, the cause panel every run's.");
	if (!c->side[0])
		return;
	snprintf(buf, sizeof(buf), "Causes recorded by: base %s, new %s; events lost or incomplete: base %.0f, new %.0f.",
		 c->side[0]->backend, c->side[1]->backend, c->side[0]->lost, c->side[1]->lost);
	svg_text(out, 20, H - 18, 11, "start", NULL, buf);
}

static void draw(FILE *out, const struct cmp *c)
{
	char title[PATH_MAX * 2 + 32];

	snprintf(title, sizeof(title), "latctl compare: %s -> %s", c->files[0], c->files[1]);
	svg_begin(out, W, H, title);
	lat_plot_defs(out);
	draw_heading(out, c, title);
	if (c->side[0])
		draw_histograms(out, c);
	else
		draw_no_histograms(out, c);
	draw_legend(out, c);
	draw_percentiles(out, c);
	draw_causes(out, c);
	draw_notes(out, c);
	svg_end(out);
}

static void cmp_free(struct cmp *c)
{
	int i;

	for (i = 0; i < 2; i++)
		if (c->side[i])
			free(c->side[i]->slow);
	free(c->side[0]);
	free(c->side[1]);
	free(c->causes);
}

int lat_plot_compare_svg(const cJSON *cmp, const cJSON *const docs[2], const char *origin,
			 const char *why_no_hist, FILE *out)
{
	struct cmp c = { .origin = origin };
	int ret = read_comparison(&c, cmp);

	if (ret == -EINVAL && origin)
		fprintf(stderr, "latctl plot: %s: key '%s' is missing or of the wrong type\n",
			origin, c.rd.bad);
	snprintf(c.why_no_hist, sizeof(c.why_no_hist), "%s", why_no_hist ? why_no_hist : "");
	if (!ret)
		ret = read_sides(&c, docs);
	if (!ret)
		draw(out, &c);
	cmp_free(&c);
	return ret;
}
