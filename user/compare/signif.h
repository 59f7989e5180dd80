/* SPDX-License-Identifier: MIT */
/*
 * Statistics for comparing two sets of runs: the median of each with a
 * distribution-free confidence interval, and the two-sided Mann-Whitney U
 * test (the choice of benchstat), with alpha 0.05.
 */
#ifndef LATCTL_SIGNIF_H
#define LATCTL_SIGNIF_H

#include <stddef.h>

#define LAT_SIGNIF_ALPHA	0.05
#define LAT_SIGNIF_CONFIDENCE	0.95
/* A change of the medians smaller than this is noise, never significant
 * (criterion.rs's threshold). */
#define LAT_SIGNIF_NOISE_PCT	1.0

/* Median of n values with the interval [x(k), x(n+1-k)] of the order
 * statistics: the narrowest whose binomial coverage is >= 95%; below 6
 * values none reaches it and the interval is [min, max] with its own,
 * lower, coverage in confidence. */
struct lat_interval {
	double median, lo, hi;
	double confidence;	/* 0..1, the coverage actually reached */
	size_t n;
};

/* 0, or -EINVAL for n == 0. x is not changed. */
int lat_median_interval(const double *x, size_t n, struct lat_interval *out);

/* Two-sided p-value of the Mann-Whitney U test of x against y. Exact and
 * conditional on the ties up to LAT_MWU_EXACT_N values in all: every
 * choice of nx of the pooled values counted by its rank sum (mid-ranks for
 * ties), p the share at least as far from the mean as x's. Beyond that the
 * normal approximation with tie and continuity correction (as
 * scipy.stats.mannwhitneyu), accurate there. 1 when a side is empty or
 * every value is equal. */
#define LAT_MWU_EXACT_N		50
double lat_mwu_p(const double *x, size_t nx, const double *y, size_t ny);

/*
 * The shift of y against x: the Hodges-Lehmann estimate (the median of the
 * nx ny differences y_j - x_i) and its distribution-free (Moses) interval
 * [d(k), d(nx ny + 1 - k)], k from the exact null distribution of U (the
 * normal one above LAT_SHIFT_EXACT_MAX differences) so that it covers the
 * shift with confidence at least conf. Too few runs for conf: the bounds
 * are -inf and +inf. The interval narrows as runs are added, so a decision
 * on it never loses power with more runs. 0, -EINVAL (a side empty),
 * -ENOMEM.
 */
#define LAT_SHIFT_EXACT_MAX	1600
struct lat_shift {
	double est, lo, hi;
	double confidence;
};
int lat_shift_interval(const double *x, size_t nx, const double *y, size_t ny, double conf,
		       struct lat_shift *out);

/* The smallest p-value the test can give for sizes nx, ny (no ties):
 * 2 / C(nx + ny, nx). */
double lat_mwu_min_p(size_t nx, size_t ny);

/* Runs needed per side so that a difference can be significant at all:
 * the smallest n with lat_mwu_min_p(n, n) < alpha (4 at 0.05). */
size_t lat_signif_min_runs(double alpha);

#endif /* LATCTL_SIGNIF_H */
