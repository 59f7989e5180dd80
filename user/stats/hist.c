// SPDX-License-Identifier: MIT
/* log2 histogram: bucket index, bounds, and bar length. */
#include <math.h>

#include "stats/hist.h"

int lat_hist_bucket(double ns)
{
	uint64_t v;
	int b = 0;

	if (!(ns >= 2))		/* also catches NaN */
		return 0;
	v = ns >= 1.8e19 ? UINT64_MAX : (uint64_t)ns;
	while (v >>= 1)
		b++;
	return b;
}

uint64_t lat_hist_lo(int bucket)
{
	return bucket == 0 ? 0 : 1ULL << bucket;
}

uint64_t lat_hist_hi(int bucket)
{
	return bucket >= 63 ? UINT64_MAX : (2ULL << bucket) - 1;
}

void lat_hist_add(struct lat_hist *h, double ns)
{
	h->count[lat_hist_bucket(ns)]++;
}

int lat_hist_bar_len(uint64_t count)
{
	/* the epsilon keeps exact powers of ten on their step (log10(1000) = 2.99..) */
	return count ? 1 + (int)floor(4.0 * log10((double)count) + 1e-9) : 0;
}

void lat_hist_print_line(FILE *out, uint64_t lo, uint64_t hi, uint64_t count)
{
	int i, bar = lat_hist_bar_len(count);

	fprintf(out, "  [%9llu, %9llu] %9llu  ", (unsigned long long)lo,
		(unsigned long long)hi, (unsigned long long)count);
	for (i = 0; i < bar; i++)
		fputc('#', out);
	fputc('\n', out);
}
