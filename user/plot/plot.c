// SPDX-License-Identifier: MIT
/*
 * The plot library: one result as an SVG picture (lat_plot_svg). Top: the
 * log2 histogram of every iteration (bar height log10 of the count), each
 * bar split by count into the iterations faster than the slow threshold and
 * the slow ones by primary cause. Bottom: the timeline of the slow
 * iterations (iteration index against duration, log scale), each a mark
 * coloured and shaped by its cause (the style in its label's descriptor),
 * with the p50 and the threshold. The shared geometry, bars and legend are
 * also used by the comparison picture (plot_compare.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc/runs.h"
#include "events/iter.h"
#include "plot/plot.h"
#include "file/outfile.h"
#include "plot/plot_int.h"
#include "plot/svg.h"

/* A label's style from its descriptor; the last slot (NLAB - 1) is a label
 * this latctl does not know. */
const struct lat_style *lat_plot_style(int label)
{
	static const struct lat_style unknown = { "#666666", HATCH_BACKDIAG, MARK_CROSS };
	const struct join_label_desc *d = label >= 0 && label < JOIN_NR_LABELS ?
					  join_label_desc(label) : NULL;

	return d && d->style.colour ? &d->style : &unknown;
}

/* o[key] of the given cJSON type, or NULL and one line naming the key. */
static const cJSON *need(struct plot *p, const cJSON *o, const char *key, int type)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v && (v->type & 0xff) == type)
		return v;
	if (!p->bad && p->path)
		fprintf(stderr, "latctl plot: %s: key '%s' is missing or not %s\n", p->path, key,
			type == cJSON_Number ? "a number" : type == cJSON_String ? "a string" :
			type == cJSON_Array ? "an array" : "an object");
	p->bad = 1;
	return NULL;
}

static double need_num(struct plot *p, const cJSON *o, const char *key)
{
	const cJSON *v = need(p, o, key, cJSON_Number);

	return v ? v->valuedouble : 0;
}

static const char *need_str(struct plot *p, const cJSON *o, const char *key)
{
	const cJSON *v = need(p, o, key, cJSON_String);

	return v ? v->valuestring : "";
}

int lat_plot_label(const char *name)
{
	int l;

	for (l = 0; l < JOIN_NR_LABELS; l++)
		if (join_label_name(l) && !strcmp(name, join_label_name(l)))
			return l;
	return JOIN_NR_LABELS;
}

/* log2 slot of a bucket or a duration: [0,1] is 0, [2,3] 1, [4,7] 2, ...;
 * a value past 2^63 (or not finite) takes the last slot, 63. */
static int slot_of(double ns)
{
	return ns < 2 ? 0 : !(ns < 0x1p63) ? 63 : (int)floor(log2(ns));
}

static void read_buckets(struct plot *p, const cJSON *hist)
{
	const cJSON *b, *arr = need(p, hist, "buckets", cJSON_Array);
	int k, first = 1;

	cJSON_ArrayForEach(b, arr) {
		k = slot_of(need_num(p, b, "lo"));
		if (first)
			p->k0 = k;
		first = 0;
		if (p->bad || k < p->k0 || k - p->k0 >= MAX_SLOTS) {
			if (p->path && !p->bad)
				fprintf(stderr, "latctl plot: %s: histogram buckets out of order or out of range\n", p->path);
			p->bad = 1;
			return;
		}
		p->slots[k - p->k0].lo = need_num(p, b, "lo");
		p->slots[k - p->k0].hi = need_num(p, b, "hi");
		p->slots[k - p->k0].count = need_num(p, b, "count");
		p->nslots = k - p->k0 + 1;
	}
	for (k = 0; k < p->nslots; k++)
		if (!p->slots[k].hi) {		/* an empty bucket between two others */
			p->slots[k].lo = k + p->k0 ? ldexp(1, k + p->k0) : 0;
			p->slots[k].hi = ldexp(1, k + p->k0 + 1) - 1;
		}
}

/* A number that older results may lack: 0 then. */
static double opt_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* The listed slow iterations, counted into their bucket by cause. */
static void read_slow(struct plot *p, const cJSON *slow)
{
	const cJSON *it, *arr = need(p, slow, "iterations", cJSON_Array);
	struct slow_it *s;
	int k;

	p->slow = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof(*p->slow));
	if (!p->slow) {
		p->bad = 1;
		return;
	}
	cJSON_ArrayForEach(it, arr) {
		s = &p->slow[p->nslow++];
		s->index = need_num(p, it, "index");
		s->t_ns = p->by_time ? (opt_num(it, "tsc_begin") - p->tsc_first) / p->tsc_ghz : 0;
		s->ns = need_num(p, it, "duration_ns");
		s->label = lat_plot_label(need_str(p, it, "primary"));
		p->per_label[s->label]++;
		k = slot_of(floor(s->ns)) - p->k0;
		if (k >= 0 && k < p->nslots)
			p->slots[k].slow[s->label]++;
	}
}

/* "es" after s, x, z, ch and sh ("pushes"), else "s". */
static const char *plural_suffix(const char *unit)
{
	size_t n = strlen(unit);

	return n && (strchr("sxz", unit[n - 1]) ||
		     (n > 1 && unit[n - 1] == 'h' && strchr("cs", unit[n - 2]))) ? "es" : "s";
}

/* p->backend and p->lost: who recorded the kernel's events, and its losses. */
static void read_source(struct plot *p, const cJSON *doc)
{
	const cJSON *be = cJSON_GetObjectItemCaseSensitive(doc, "backend");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(be, "name");
	const char *n = cJSON_IsString(name) ? name->valuestring : "latmon";	/* older results */

	snprintf(p->backend, sizeof(p->backend), "%s", !strcmp(n, "bpf") ? "the BPF backend" :
		 !strcmp(n, "latmon") ? "latmon (the kernel module)" : n);
	p->lost = lat_run_lost(lat_run_at(doc, 0));
}

/* Several streams at once (exec's threads) are drawn on one time axis,
 * not one after another; results without the span stay in run order. */
static void read_span(struct plot *p, const cJSON *doc, const cJSON *run)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "environment");
	double first = opt_num(run, "tsc_first"), last = opt_num(run, "tsc_last");

	p->streams = opt_num(run, "streams");
	p->tsc_ghz = opt_num(env, "tsc_hz") / 1e9;
	p->tsc_first = first;
	p->by_time = p->streams > 1 && last > first && p->tsc_ghz > 0;
	p->span_ns = p->by_time ? (last - first) / p->tsc_ghz : 0;
}

int lat_plot_read(struct plot *p, const cJSON *doc)
{
	const cJSON *run = need(p, doc, "run", cJSON_Object);
	const cJSON *sum = need(p, doc, "summary", cJSON_Object);
	const cJSON *slow = need(p, doc, "slow", cJSON_Object);
	const cJSON *hist = need(p, doc, "histogram", cJSON_Object);
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(run, "mode");

	if (p->bad)
		return -EINVAL;
	p->cmd = need_str(p, doc, "command_line");
	p->iterations = need_num(p, run, "iterations");
	snprintf(p->units, sizeof(p->units), "%s", need_str(p, run, "unit"));
	snprintf(p->what, sizeof(p->what), "%s%s%s: %.0f %s%s, kernel %s", need_str(p, run, "workload"),
		 cJSON_IsString(mode) ? ", mode " : "", cJSON_IsString(mode) ? mode->valuestring : "",
		 p->iterations, p->units, plural_suffix(p->units), need_str(p, doc, "kernel_release"));
	p->p50 = need_num(p, sum, "p50_ns");
	p->max = need_num(p, sum, "max_ns");
	p->threshold = need_num(p, slow, "threshold_ns");
	p->slow_count = need_num(p, slow, "count");
	p->runs = (double)lat_runs_count(doc);
	read_source(p, doc);
	read_span(p, doc, run);
	if (!p->bad)
		read_buckets(p, hist);
	if (!p->bad)
		read_slow(p, slow);
	return p->bad ? -EINVAL : 0;
}

/* "512 ns", "16 us", "1.5 ms" */
void lat_plot_fmt_ns(char *buf, size_t len, double ns)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i;

	for (i = 0; i < 3 && ns < u[i].div; i++)
		;
	snprintf(buf, len, "%.3g %s", ns / u[i].div, u[i].unit);
}

/* Bar height in pixels for a count: log10(1 + count) against the top. */
static double bar_px(double count, double top)
{
	return (HY1 - HY0) * log10(1 + count) / log10(1 + top);
}

void lat_plot_hist_axes(FILE *out, const struct plot *p, double top, const char *title)
{
	double t, y, slot_w = (double)(PX1 - PX0) / p->nslots;
	char buf[64];
	int k, every = 1;

	svg_text(out, PX0, HY0 - 14, 15, "start", "bold", title);
	for (t = 1; t <= top && t < LAT_PLOT_MAX_TICK; t *= 10) {
		y = HY1 - bar_px(t, top);
		svg_line(out, PX0, y, PX1, y, GRID, 0.6, "2,3");
		snprintf(buf, sizeof(buf), "%.0f", t);
		svg_text(out, PX0 - 6, y + 4, 11, "end", NULL, buf);
	}
	svg_line(out, PX0, HY1, PX1, HY1, "#000000", 1, NULL);
	svg_line(out, PX0, HY0, PX0, HY1, "#000000", 1, NULL);
	/* every label, the widest with a gap, fits in the buckets it skips to */
	for (k = 0; k < p->nslots; k++) {
		lat_plot_fmt_ns(buf, sizeof(buf), p->slots[k].lo);
		while (every * slot_w < svg_text_width(10, buf) + 4)
			every++;
	}
	for (k = 0; k < p->nslots; k += every) {
		lat_plot_fmt_ns(buf, sizeof(buf), p->slots[k].lo);
		svg_text(out, PX0 + (k + 0.5) * slot_w, HY1 + 16, 10, "middle", NULL, buf);
	}
	svg_text(out, (PX0 + PX1) / 2.0, HY1 + 36, 12, "middle", NULL,
		 "duration (each bar a bucket twice as wide as the one before; label: its lower bound)");
	svg_text(out, PX0 - 10, HY0 - 14, 11, "end", NULL, "count");
}

/* One bar: the fast part at the bottom, then each cause, in label order. */
void lat_plot_bar(FILE *out, const struct slot *s, double x, double w, double top, const char *fast)
{
	double slow = 0, h = bar_px(s->count, top), y = HY1, part;
	int l;

	if (s->count <= 0)
		return;
	for (l = 0; l < NLAB; l++)
		slow += s->slow[l];
	part = h * fmax(s->count - slow, 0) / s->count;
	if (part > 0)
		svg_rect(out, x, y - part, w, part, fast);
	y -= part;
	for (l = 0; l < NLAB; l++) {
		char fill[16];

		if (!s->slow[l])
			continue;
		part = h * s->slow[l] / fmax(s->count, slow);
		snprintf(fill, sizeof(fill), "url(#p%d)", l);
		svg_rect(out, x, y - part, w, part, fill);
		y -= part;
	}
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" "
		"stroke=\"#000000\" stroke-width=\"0.7\"/>\n", x, HY1 - h, w, h);
}

void lat_plot_threshold(FILE *out, const struct plot *p, double threshold,
			const char *name, double dy, int left)
{
	double x = PX0 + (log2(fmax(threshold, 1)) - p->k0) * (PX1 - PX0) / p->nslots;
	char buf[64];
	double w;

	if (threshold <= 0 || x < PX0 || x > PX1)
		return;
	svg_line(out, x, HY0, x, HY1, "#000000", 1.2, "6,3");
	lat_plot_fmt_ns(buf, sizeof(buf), threshold);
	w = fmax(svg_text_width(11, name), svg_text_width(11, buf));
	/* the label on the side asked for, unless it would cross an axis there */
	if (left && x - 4 - w < PX0 + 4)
		left = 0, dy += 30;
	else if (!left && x + 4 + w > PX1 - 2)
		left = 1, dy += 30;
	x += left ? -4 : 4;
	svg_text(out, x, HY0 + dy, 11, left ? "end" : "start", NULL, name);
	svg_text(out, x, HY0 + dy + 13, 11, left ? "end" : "start", NULL, buf);
}

static void draw_histogram(FILE *out, const struct plot *p)
{
	double top = 1, slot_w = (double)(PX1 - PX0) / p->nslots;
	int k;

	for (k = 0; k < p->nslots; k++)
		while (top < p->slots[k].count)
			top *= 10;
	lat_plot_hist_axes(out, p, top,
			   "Histogram: every iteration by duration; slow ones by primary cause");
	for (k = 0; k < p->nslots; k++)
		lat_plot_bar(out, &p->slots[k], PX0 + k * slot_w + 1, slot_w - 2, top, FAST_FILL);
	lat_plot_threshold(out, p, p->threshold, "slow >", 10, 0);
}

/* Timeline y of a duration: log10 between lo and hi. */
static double time_y(double ns, double lo, double hi)
{
	return TY1 - (TY1 - TY0) * (log10(fmax(ns, lo)) - log10(lo)) / (log10(hi) - log10(lo));
}

/* The tick step for about four ticks up to n: 1, 2 or 5 times a power of 10. */
static double nice_step(double n)
{
	double p = pow(10, floor(log10(fmax(n, 1))));

	return n >= 5 * p ? 5 * p : n >= 2 * p ? 2 * p : p;
}

/* "0", "500", "20k", "1.5M" */
static void fmt_count(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

static void draw_time_axes(FILE *out, const struct plot *p, double lo, double hi)
{
	char buf[128];
	double t, x, v, step, end;

	if (p->by_time)
		snprintf(
			buf, sizeof(buf),
			"Timeline: the slow iterations of %.0f threads on one time axis, by primary cause",
			p->streams);
	else
		snprintf(buf, sizeof(buf),
			 "Timeline: the slow iterations in run order, by primary cause");
	svg_text(out, PX0, TY0 - 14, 15, "start", "bold", buf);
	for (t = lo; t <= hi * 1.0001 && t < LAT_PLOT_MAX_TICK; t *= 10) {
		svg_line(out, PX0, time_y(t, lo, hi), PX1, time_y(t, lo, hi), GRID, 0.6, "2,3");
		lat_plot_fmt_ns(buf, sizeof(buf), t);
		svg_text(out, PX0 - 6, time_y(t, lo, hi) + 4, 11, "end", NULL, buf);
	}
	svg_line(out, PX0, TY1, PX1, TY1, "#000000", 1, NULL);
	svg_line(out, PX0, TY0, PX0, TY1, "#000000", 1, NULL);
	end = p->by_time ? p->span_ns : p->iterations;
	step = nice_step(end / 4);
	for (v = 0; v < end && v < step * 10; v += step) {
		x = PX0 + 8 + (PX1 - PX0 - 16) * v / fmax(p->by_time ? end : end - 1, 1);
		if (p->by_time)
			lat_plot_fmt_ns(buf, sizeof(buf), v);
		else
			fmt_count(buf, sizeof(buf), v);
		svg_line(out, x, TY1, x, TY1 + 4, "#000000", 1, NULL);
		svg_text(out, x, TY1 + 16, 10, "middle", NULL, v || !p->by_time ? buf : "0");
	}
	if (p->by_time)
		snprintf(buf, sizeof(buf), "time since the first %s began", p->units);
	else
		snprintf(buf, sizeof(buf), "%s number", p->units);
	svg_text(out, (PX0 + PX1) / 2.0, TY1 + 34, 12, "middle", NULL, buf);
}

/* A level line at y, its label at its right moved by dy (two levels close
 * together push their labels apart). */
static void draw_level(FILE *out, double y, double dy, const char *name, double ns,
		       const char *dash)
{
	char buf[64], v[32];

	lat_plot_fmt_ns(v, sizeof(v), ns);
	snprintf(buf, sizeof(buf), "%s %s", name, v);
	svg_line(out, PX0, y, PX1, y, "#000000", 1.2, dash);
	svg_text(out, PX1 + 4, y + 4 + dy, 11, "start", NULL, buf);
}

/* The p50 and threshold lines; labels at least LABEL_GAP apart. */
#define LABEL_GAP 13
static void draw_levels(FILE *out, const struct plot *p, double lo, double hi)
{
	double y50 = time_y(p->p50, lo, hi), yt = time_y(p->threshold, lo, hi);
	double push = fmax(0, (LABEL_GAP - fabs(y50 - yt)) / 2), dir = y50 >= yt ? 1 : -1;

	if (p->threshold <= 0)
		push = 0;
	draw_level(out, y50, dir * push, "p50", p->p50, "2,2");
	if (p->threshold > 0)
		draw_level(out, yt, -dir * push, "slow >", p->threshold, "6,3");
}

static void draw_timeline(FILE *out, const struct plot *p)
{
	double lo = 1, hi = 10, span = fmax(p->iterations - 1, 1);
	size_t i;

	while (lo * 10 <= fmin(p->p50 > 0 ? p->p50 : 1, p->threshold > 0 ? p->threshold : 1))
		lo *= 10;
	while (hi < p->max)
		hi *= 10;
	draw_time_axes(out, p, lo, hi);
	draw_levels(out, p, lo, hi);
	for (i = 0; i < p->nslow; i++) {
		const struct slow_it *s = &p->slow[i];
		double at = p->by_time ? s->t_ns / p->span_ns : s->index / span;

		svg_marker(out, lat_plot_style(s->label)->marker, PX0 + 8 + (PX1 - PX0 - 16) * at,
			   time_y(s->ns, lo, hi), 3.6, lat_plot_style(s->label)->colour);
	}
}

double lat_plot_legend_head(FILE *out, double x_text, int repeated)
{
	double y = HY0 + 34;

	svg_text(out, 760, HY0 + 4, 13, "start", "bold", "primary cause");
	svg_rect(out, 760, HY0 + 14, 22, 14, FAST_FILL);
	svg_text(out, x_text, HY0 + 25, 12, "start", NULL, "not slow");
	if (repeated) {
		svg_text(out, x_text, y + 3, 10, "start", NULL, "and the slow ones of runs 2..N");
		y += 14;
	}
	return y;
}

static void draw_legend(FILE *out, const struct plot *p)
{
	double y = lat_plot_legend_head(out, 810, p->runs > 1);
	char buf[96], fill[16];
	int l;

	for (l = 0; l < NLAB; l++) {
		if (!p->per_label[l])
			continue;
		snprintf(fill, sizeof(fill), "url(#p%d)", l);
		fprintf(out, "<rect x=\"760\" y=\"%.1f\" width=\"22\" height=\"14\" fill=\"%s\" "
			"stroke=\"#000000\" stroke-width=\"0.7\"/>\n", y, fill);
		svg_marker(out, lat_plot_style(l)->marker, 797, y + 7, 4, lat_plot_style(l)->colour);
		snprintf(buf, sizeof(buf), "%s (%.0f)",
			 l < JOIN_NR_LABELS ? join_label_name(l) : "other", p->per_label[l]);
		svg_text(out, 810, y + 11, 12, "start", NULL, buf);
		y += 22;
	}
}

static void draw_notes(FILE *out, const struct plot *p)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s%.0f slow iterations (slower than the dashed threshold), "
		 "%zu of them in the result and drawn.",
		 p->runs > 1 ? "Run 1 of the --repeat: " : "", p->slow_count, p->nslow);
	svg_text(out, PX0, H - 50, 11, "start", NULL, buf);
	svg_text(out, PX0, H - 34, 11, "start", NULL,
		 "Faster ones are not stored: the p50 line stands for them. Bar height: log10 of the "
		 "count; within a bar, each part is its share.");
	if (!strcmp(p->backend, "none"))
		snprintf(buf, sizeof(buf), "No kernel events were recorded (--backend none): "
			 "no causes, every slow iteration unattributed.");
	else
		snprintf(buf, sizeof(buf), "Causes from the kernel's events, recorded by %s; "
			 "%.0f events lost or incomplete.", p->backend, p->lost);
	svg_text(out, PX0, H - 18, 11, "start", NULL, buf);
}

void lat_plot_defs(FILE *out)
{
	int l;

	fputs("<defs>\n", out);
	for (l = 0; l < NLAB; l++)
		svg_pattern(out, l, lat_plot_style(l));
	fputs("</defs>\n", out);
}

/* The command line under the title; one too long for the width keeps its
 * start and its end, "..." between. */
static void draw_command(FILE *out, const char *cmd)
{
	size_t n = strlen(cmd), fit = (size_t)((W - 40) / svg_text_width(11, "x")), head, tail;
	char buf[512];

	if (n <= fit || fit < 20 || fit >= sizeof(buf)) {
		svg_text(out, 20, 50, 11, "start", NULL, cmd);
		return;
	}
	head = fit / 2 - 2;
	tail = n - (fit - fit / 2 - 1);
	while (head > 0 && (cmd[head] & 0xc0) == 0x80) /* whole UTF-8 characters */
		head--;
	while (tail < n && (cmd[tail] & 0xc0) == 0x80)
		tail++;
	snprintf(buf, sizeof(buf), "%.*s...%s", (int)head, cmd, cmd + tail);
	svg_text(out, 20, 50, 11, "start", NULL, buf);
}

static void draw(FILE *out, const struct plot *p)
{
	char title[256];

	snprintf(title, sizeof(title), "latctl: %s", p->what);
	svg_begin(out, W, H, title);
	lat_plot_defs(out);
	svg_text(out, 20, 28, 17, "start", "bold", title);
	draw_command(out, p->cmd);
	draw_histogram(out, p);
	draw_timeline(out, p);
	draw_legend(out, p);
	draw_notes(out, p);
	svg_end(out);
}

int lat_plot_svg(const cJSON *doc, const char *origin, FILE *out)
{
	struct plot *p = calloc(1, sizeof(*p));
	int ret = -ENOMEM;

	if (p) {
		p->path = origin;
		ret = lat_plot_read(p, doc);
		if (!ret)
			draw(out, p);
		free(p->slow);
	}
	free(p);
	return ret;
}

/* The SVG drawn in memory, then written as file/outfile.h says. 0; -EINVAL
 * for a path that cannot be written (bad input, said); -EIO when the
 * writing failed (said); -ENOMEM. */
int lat_plot_write(const char *path, lat_plot_fn fn, void *arg)
{
	struct lat_outfile o;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (!path) {
		ret = fn(arg, stdout);
		fflush(stdout);		/* a failed stdout: main says it, exit 1 */
		return ret;
	}
	if (lat_outfile_open(&o, path, "plot -o"))
		return -EINVAL;
	f = open_memstream(&text, &len);
	ret = f ? fn(arg, f) : -ENOMEM;
	if (f && fclose(f) && !ret)
		ret = -ENOMEM;
	if (!ret && lat_outfile_commit(&o, text, len))
		ret = -EIO;
	lat_outfile_abort(&o);
	free(text);
	return ret;
}

