/* SPDX-License-Identifier: MIT */
/* One metric of two result documents: each side's median with its
 * interval, the change and its significance (compare and check). */
#ifndef LATCTL_PAIR_H
#define LATCTL_PAIR_H

#include <cjson/cJSON.h>

#include "doc/runs.h"
#include "compare/signif.h"

struct lat_pair {
	struct lat_interval base, new;
	double change_pct;	/* of the medians; NAN when base is 0 and new is not */
	double p;		/* Mann-Whitney U, two-sided */
	int verdict;		/* 0: too few runs on a side to tell anything */
	int significant;	/* p < LAT_SIGNIF_ALPHA and the two intervals do
				 * not overlap (only with verdict) */
	int present;		/* some run of either side has a value */
};

/* Compute m over the runs of base and new. 0 or -ENOMEM. */
int lat_pair_compute(const cJSON *base, const cJSON *new, const struct lat_metric *m,
		     struct lat_pair *out);

/* Runs a side needs for a verdict (lat_signif_min_runs at alpha). */
size_t lat_pair_min_runs(void);

/* "2.315us", "29.85ns", "12.5%", "0.0271" for a value of unit. */
void lat_pair_fmt(char *buf, size_t len, double v, const char *unit);

/* The pair as JSON {base: {median, lo, hi, confidence, n}, new: ...,
 * change_pct, p, significant, verdict}. */
cJSON *lat_pair_json(const struct lat_pair *p);

#endif /* LATCTL_PAIR_H */
