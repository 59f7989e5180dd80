/* SPDX-License-Identifier: MIT */
/* Tail statistics over a series of latencies in nanoseconds. */
#ifndef LATCTL_STATS_H
#define LATCTL_STATS_H

#include <stddef.h>
#include <stdint.h>

struct lat_summary {
	uint64_t count;
	double min, p50, p90, p99, p999, p9999, max, mean;	/* ns */
	double total;		/* ns, sum of all samples */
	double slowest_0_1_share; /* share of total time in the slowest 0.1% */
};

/*
 * Exact percentiles of ns[0..n): sorts ns in place (nearest-rank method:
 * the p-th percentile is the ceil(p/100*n)-th smallest). -EINVAL if n == 0.
 */
int lat_summary_compute(double *ns, size_t n, struct lat_summary *out);

/* qsort's comparison of doubles, ascending. */
int lat_cmp_double(const void *a, const void *b);

/* One exact percentile of an already sorted array (nearest rank). */
double lat_percentile_sorted(const double *sorted, size_t n, double p);

#endif /* LATCTL_STATS_H */
