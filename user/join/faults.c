// SPDX-License-Identifier: MIT
/*
 * Every page fault of the measured threads in the timed loop, not only the
 * slow iterations': how long each took (percentiles), so that a comparison
 * of kernels can judge the faults themselves (the metrics fault:p50,
 * fault:p90, fault:p99 of compare and check), thousands of them per run.
 */
#include <stdlib.h>

#include "join/faults.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int has_tid(const uint32_t *tids, size_t n, uint32_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (tids[i] == tid)
			return 1;
	return 0;
}

/* The ticks of every counted fault of tids into a new array, *n of them. */
static uint64_t *fault_ticks(const struct lat_fault_scope *in, size_t *n)
{
	uint64_t *v = malloc((in->n_events ? in->n_events : 1) * sizeof(*v));
	size_t i;

	*n = 0;
	for (i = 0; v && i < in->n_events; i++) {
		const struct latmon_event *e = &in->events[i];

		if (e->type != LATMON_EV_FAULT || e->tsc_end < e->tsc_begin ||
		    (e->u.fault.flags & (LATMON_FAULT_F_RETRY | LATMON_FAULT_F_ERROR)) ||
		    e->tsc_begin < in->tsc_before || e->tsc_end > in->tsc_after ||
		    !has_tid(in->tids, in->n_tids, e->tid))
			continue;
		v[(*n)++] = e->tsc_end - e->tsc_begin;
	}
	return v;
}

/* Percentile p (0..100) of n sorted ticks, nearest rank, in ns. */
static double pct_ns(const uint64_t *v, size_t n, double p, double hz)
{
	size_t k = (size_t)(p / 100 * (double)n);

	return (double)v[k < n ? k : n - 1] * 1e9 / hz;
}

cJSON *lat_fault_times_json(const struct lat_fault_scope *in)
{
	size_t n;
	uint64_t *v;
	cJSON *o;

	if (!in->events || !(in->tsc_hz > 0))
		return cJSON_CreateNull();
	v = fault_ticks(in, &n);
	if (!v || !n) {
		free(v);
		return cJSON_CreateNull();
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "count", (double)n);
	cJSON_AddNumberToObject(o, "p50", pct_ns(v, n, 50, in->tsc_hz));
	cJSON_AddNumberToObject(o, "p90", pct_ns(v, n, 90, in->tsc_hz));
	cJSON_AddNumberToObject(o, "p99", pct_ns(v, n, 99, in->tsc_hz));
	cJSON_AddNumberToObject(o, "max", pct_ns(v, n, 100, in->tsc_hz));
	free(v);
	return o;
}
