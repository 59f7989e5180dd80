/* SPDX-License-Identifier: MIT */
/*
 * bpf_ktime_get_ns() (CLOCK_MONOTONIC) mapped to the TSC latctl times with:
 * the tightest of many rdtscp / clock_gettime / rdtscp triples at session
 * start and again at its end. Times are mapped by the line through the two
 * points; the start point with latctl's TSC frequency predicts the end point,
 * and the difference (drift) plus the two points' half-windows is checked
 * against LAT_KTIME_BOUND_NS: a run worse than that says so.
 */
#ifndef LATCTL_KTIME_TSC_H
#define LATCTL_KTIME_TSC_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#define LAT_KTIME_BOUND_NS	1000.0	/* stated error bound of the mapping */
#define LAT_KTIME_PAIRS		2000	/* triples tried per point */

struct lat_ktime_point {
	uint64_t tsc;		/* middle of the tightest rdtscp window */
	uint64_t ns;		/* CLOCK_MONOTONIC read inside it */
	uint64_t window;	/* its width in TSC ticks */
};

struct lat_ktime_map {
	struct lat_ktime_point start, end;
	double tsc_hz;		/* latctl's TSC frequency */
	double ticks_per_ns;	/* slope used: through start and end */
	double drift_ns;	/* end as measured minus as the start predicted */
	double error_ns;	/* |drift| + both half-windows */
	bool have_end, worse;	/* worse: error_ns > LAT_KTIME_BOUND_NS */
};

/* The tightest triple of LAT_KTIME_PAIRS. */
void lat_ktime_point(struct lat_ktime_point *p);
/* Start point now. */
void lat_ktime_begin(struct lat_ktime_map *m, double tsc_hz);
/* End point now, the slope, the drift and the bound check. */
void lat_ktime_end(struct lat_ktime_map *m);
/* A bpf_ktime_get_ns() value on the TSC. */
uint64_t lat_ktime_to_tsc(const struct lat_ktime_map *m, uint64_t ns);
cJSON *lat_ktime_json(const struct lat_ktime_map *m);

#endif /* LATCTL_KTIME_TSC_H */
