/* SPDX-License-Identifier: MIT */
/*
 * What the two pictures of `latctl plot` share: the page geometry, the
 * cause styles, the histogram of one result as read by cmd_plot.c, and the
 * drawing of its bars and axes. cmd_plot.c draws one result,
 * plot_compare.c two results side by side.
 */
#ifndef LATCTL_PLOT_INT_H
#define LATCTL_PLOT_INT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "events/iter.h"
#include "plot/svg.h"

#define W		1000
#define H		800
#define PX0		90	/* plot area, both panels */
#define PX1		730
#define HY0		90	/* histogram */
#define HY1		370
#define TY0		450	/* timeline */
#define TY1		700
#define NLAB		(JOIN_NR_LABELS + 1)
/* No axis tick at or above: whatever the values, an axis has at most 17
 * decades (the readers already refuse times over 1e15 ns). */
#define LAT_PLOT_MAX_TICK	1e16	/* the last: a label this latctl does not know */
#define FAST_FILL	"#d9d9d9"
#define NEW_FAST_FILL	"#a3a3a3"	/* a comparison's new side */
#define GRID		"#b0c4de"	/* not a grey: never mistaken for FAST_FILL */
#define MAX_SLOTS	64

/* One bar of the histogram: a log2 bucket, its count, its listed slow
 * iterations by primary cause. */
struct slot {
	double lo, hi, count;
	double slow[NLAB];
};

struct slow_it {
	double index, ns;
	double t_ns; /* its begin since the run's first */
	int label;
};

struct plot {
	const char *path;		/* the input, for messages; NULL: none */
	int bad;			/* a key was missing or of the wrong type */
	char what[160], units[48];
	char backend[48];		/* who recorded: "latmon (the kernel module)", ... */
	double lost;			/* events it lost or left incomplete (run 1) */
	const char *cmd;
	double iterations, p50, max, threshold, slow_count;
	double runs;			/* of a --repeat result; else 1 */
	double streams;			/* concurrent streams (exec's threads) */
	double span_ns;			/* first begin to last end */
	int by_time;			/* timeline x: time, not run order */
	double tsc_first, tsc_ghz;	/* for the slow iterations' times */
	int k0, nslots;			/* log2 slot of the first bar, number of bars */
	struct slot slots[MAX_SLOTS];
	struct slow_it *slow;
	size_t nslow;
	double per_label[NLAB];
};

/* Cause styles by label; [JOIN_NR_LABELS] is a label this latctl does not know. */
/* The style of label l (0 .. NLAB - 1, the last: a label this latctl does
 * not know), from its descriptor. */
const struct lat_style *lat_plot_style(int l);

/* The label of a cause name; JOIN_NR_LABELS for one this latctl does not know. */
int lat_plot_label(const char *name);
/* Read a result into p (p->path set, the rest zero); 0 or -EINVAL (one
 * line said which key, when p->path). p->slow is malloc'd. */
int lat_plot_read(struct plot *p, const cJSON *doc);
/* "512 ns", "16 us", "1.5 ms" */
void lat_plot_fmt_ns(char *buf, size_t len, double ns);
/* The <defs> of the cause patterns "url(#pL)". */
void lat_plot_defs(FILE *out);
/* Title, grid, count labels and bucket labels of the histogram panel for
 * the buckets of p, whose highest bar reaches top. */
void lat_plot_hist_axes(FILE *out, const struct plot *p, double top, const char *title);
/* The legend's title and its "not slow" entry (text at x_text; repeated:
 * a --repeat result, whose grey also holds runs 2..N's slow iterations).
 * The y of the first cause entry. */
double lat_plot_legend_head(FILE *out, double x_text, int repeated);
/* One bar at x, w wide: the part that is not slow (in fast), then each cause. */
void lat_plot_bar(FILE *out, const struct slot *s, double x, double w, double top, const char *fast);
/* The dashed slow threshold at its place on p's buckets, named name,
 * its text dy below the top of the panel, right of the line (left: left). */
void lat_plot_threshold(FILE *out, const struct plot *p, double threshold,
			const char *name, double dy, int left);

/* Draw with fn(arg, out) into path through a temporary file and rename
 * (stdout without a path); origin names the input. 0, -EINVAL (fn refused
 * the input, nothing written), -EIO (cannot write) or -ENOMEM. */
typedef int (*lat_plot_fn)(void *arg, FILE *out);
int lat_plot_write(const char *path, lat_plot_fn fn, void *arg);

/* `latctl plot` of a comparison (plot_compare_in.c): in[1] set: BASE.json
 * and NEW.json; else in[0] when it is a `compare --json` document.
 * An exit status, or -1 when in[0] alone is not a comparison. */
int lat_plot_compare_cmd(const char *const in[2], const char *out);

#endif /* LATCTL_PLOT_INT_H */
