/* SPDX-License-Identifier: MIT */
/* latctl check's options and sides, shared by its verdicts (cmd_check.c)
 * and the loading of its result files (check_sides.c). */
#ifndef LATCTL_CHECK_H
#define LATCTL_CHECK_H

#include <limits.h>

#include <cjson/cJSON.h>

#include "lib/latctl.h"
#include "doc/runs.h"

#define CHECK_GOOD	0
#define CHECK_BAD	1
#define CHECK_SKIP	LAT_EXIT_CANNOT_TELL
#define MAX_LIMITS	32
#define DEFAULT_REGRESSION	10.0	/* % */

struct limit {
	struct lat_metric m;
	char label[64];
	double max;
};

#define MAX_SIDE	64	/* result files a side */

/* One side of a comparison: one result, or several invocations pooled. */
struct side {
	cJSON *doc[MAX_SIDE];
	const char *path[MAX_SIDE];
	size_t n;
	char name[PATH_MAX + 32];	/* for the verdict's line */
};

struct check_opts {
	const char *baseline[MAX_SIDE];
	size_t n_baseline;
	int pool;		/* --pool: the results are one side */
	int as_runs;		/* --runs-together: and their runs the units */
	size_t looks;		/* --looks: a sequential driver's most looks */
	int dry_run;		/* --dry-run: the options only */
	double regression;	/* % */
	struct limit limits[MAX_LIMITS];
	size_t n_limits;
	struct limit metrics[MAX_LIMITS];	/* --metric, for --baseline */
	size_t n_metrics;
	char why[2 * PATH_MAX + 1024];	/* the verdict's reason */
};

/* The files of a side, loaded; -1 with o->why at the first that fails (a
 * failed run, lost events, a missing result). */
int check_load_side(struct check_opts *o, char *const *paths, size_t n, struct side *s,
		    int baseline);
void check_free_side(struct side *s);
/* The runs of every file of s as the runs of its first, one document (the
 * side of a one-file baseline's kind: runs are its units). -1 without
 * memory. */
int check_runs_together(struct side *s);
/* 1 with o->why when a file is given twice, on one side or both. */
int check_given_twice(struct check_opts *o, const struct side *base, const struct side *new);
/* 1 when every file of both sides matches the baseline's first in machine
 * and run; else 0 with o->why. */
int check_sides_match(struct check_opts *o, const struct side *base, const struct side *new);

#endif /* LATCTL_CHECK_H */
