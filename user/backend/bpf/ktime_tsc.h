/* SPDX-License-Identifier: MIT */
/*
 * bpf_ktime_get_ns() (CLOCK_MONOTONIC) mapped to the TSC latctl times with:
 * the tightest of many rdtscp / clock_gettime / rdtscp triples at session
 * start and again at its end; times are mapped by the line through the two.
 * Checked with the points the reader takes between drains (on its own CPU):
 * the largest distance of one from the line plus the widest half-window is
 * the mapping's error, compared with LAT_KTIME_BOUND_NS (a run worse than
 * that says so). Drift: how far the end point lies from where the start
 * point and latctl's TSC frequency put it (the two clocks' rate difference).
 */
#ifndef LATCTL_KTIME_TSC_H
#define LATCTL_KTIME_TSC_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#define LAT_KTIME_BOUND_NS	1000.0	/* stated error bound of the mapping */
#define LAT_KTIME_PAIRS		2000	/* triples tried per end point */
#define LAT_KTIME_MID_PAIRS	20	/* ... per point between drains */
#define LAT_KTIME_MAX_MID	4096	/* points kept between drains */

struct lat_ktime_point {
	uint64_t tsc;		/* middle of the tightest rdtscp window */
	uint64_t ns;		/* CLOCK_MONOTONIC read inside it */
	uint64_t window;	/* its width in TSC ticks */
};

struct lat_ktime_map {
	struct lat_ktime_point start, end;
	double tsc_hz;		/* latctl's TSC frequency */
	double ticks_per_ns;	/* slope used: through start and end */
	struct lat_ktime_point *mid;	/* LAT_KTIME_MAX_MID, written at begin */
	size_t n_mid;
	double drift_ns;	/* end as measured minus as the start predicted */
	double residual_ns;	/* largest distance of a mid point from the line */
	double error_ns;	/* residual + the widest half-window */
	bool have_end, worse;	/* worse: error_ns > LAT_KTIME_BOUND_NS */
};

/* The tightest of tries triples. */
void lat_ktime_point(struct lat_ktime_point *p, int tries);
/* Start point now; the array of mid points. 0 or -ENOMEM. */
int lat_ktime_begin(struct lat_ktime_map *m, double tsc_hz);
/* One mid point now (the reader, between drains; never allocates). */
void lat_ktime_mid(struct lat_ktime_map *m);
void lat_ktime_free(struct lat_ktime_map *m);
/* End point now, the slope, the drift and the bound check. */
void lat_ktime_end(struct lat_ktime_map *m);
/* A bpf_ktime_get_ns() value on the TSC. */
uint64_t lat_ktime_to_tsc(const struct lat_ktime_map *m, uint64_t ns);
cJSON *lat_ktime_json(const struct lat_ktime_map *m);

#endif /* LATCTL_KTIME_TSC_H */
