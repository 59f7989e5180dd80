// SPDX-License-Identifier: MIT
/* Exact tail statistics: sort, then nearest-rank percentiles. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"

int lat_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double lat_percentile_sorted(const double *sorted, size_t n, double p)
{
	double rank;
	size_t k;

	if (n == 0)
		return 0;
	/* p * n / 100 is exact in decimal; shave the binary rounding error */
	rank = ceil(p * (double)n / 100.0 * (1.0 - 1e-12));
	k = rank < 1 ? 1 : (size_t)rank;
	if (k > n)
		k = n;
	return sorted[k - 1];
}

/* Share of the total time spent in the slowest ceil(n/1000) samples. */
static double slowest_share(const double *sorted, size_t n, double total)
{
	size_t k = (n + 999) / 1000, i;
	double sum = 0;

	for (i = n - k; i < n; i++)
		sum += sorted[i];
	return total > 0 ? sum / total : 0;
}

int lat_summary_compute(double *ns, size_t n, struct lat_summary *out)
{
	double total = 0;
	size_t i;

	if (n == 0)
		return -EINVAL;
	qsort(ns, n, sizeof(*ns), lat_cmp_double);
	for (i = 0; i < n; i++)
		total += ns[i];
	out->count = n;
	out->min = ns[0];
	out->max = ns[n - 1];
	out->p50 = lat_percentile_sorted(ns, n, 50);
	out->p90 = lat_percentile_sorted(ns, n, 90);
	out->p99 = lat_percentile_sorted(ns, n, 99);
	out->p999 = lat_percentile_sorted(ns, n, 99.9);
	out->p9999 = lat_percentile_sorted(ns, n, 99.99);
	out->total = total;
	out->mean = total / (double)n;
	out->slowest_0_1_share = slowest_share(ns, n, total);
	return 0;
}
