/* SPDX-License-Identifier: MIT */
/* log2 histogram of latencies in ns, with logarithmic bars. */
#ifndef LATCTL_HIST_H
#define LATCTL_HIST_H

#include <stdint.h>
#include <stdio.h>

#define LAT_HIST_BUCKETS 64

/* Bucket 0 holds 0-1 ns; bucket k >= 1 holds [2^k, 2^(k+1) - 1] ns. */
struct lat_hist {
	uint64_t count[LAT_HIST_BUCKETS];
};

int lat_hist_bucket(double ns);
uint64_t lat_hist_lo(int bucket);
uint64_t lat_hist_hi(int bucket);
void lat_hist_add(struct lat_hist *h, double ns);

/* Bar length for a count: 0 for 0, else 1 + floor(4 * log10(count)),
 * so four '#' per factor of ten and a single '#' for one sample. */
int lat_hist_bar_len(uint64_t count);

/* Print one line "  [    lo,     hi] count  ####". */
void lat_hist_print_line(FILE *out, uint64_t lo, uint64_t hi, uint64_t count);

#endif /* LATCTL_HIST_H */
