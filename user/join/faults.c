// SPDX-License-Identifier: MIT
/*
 * Every page fault of the measured threads in the timed loop, not only the
 * slow iterations': how long each took (percentiles), so that a comparison
 * of kernels can judge the faults themselves (the metrics fault:p50,
 * fault:p90, fault:p99 of compare and check), thousands of them per run.
 */
#include <stdlib.h>

#include "events/evtype.h"
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

static bool in_scope(const struct lat_fault_scope *in, const struct latmon_event *e)
{
	return e->type == LATMON_EV_FAULT && e->tsc_end >= e->tsc_begin &&
	       !(e->u.fault.flags & (LATMON_FAULT_F_RETRY | LATMON_FAULT_F_ERROR)) &&
	       e->tsc_begin >= in->tsc_before && e->tsc_end <= in->tsc_after &&
	       has_tid(in->tids, in->n_tids, e->tid);
}

/* The ticks of every counted fault of tids into a new array, *n of them;
 * kind >= 0: only those of that kind (LATMON_FK_*, 0: not told). */
static uint64_t *fault_ticks(const struct lat_fault_scope *in, int kind, size_t *n)
{
	uint64_t *v = malloc((in->n_events ? in->n_events : 1) * sizeof(*v));
	size_t i;

	*n = 0;
	for (i = 0; v && i < in->n_events; i++) {
		const struct latmon_event *e = &in->events[i];

		if (!in_scope(in, e) || (kind >= 0 && e->u.fault.kind != kind))
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

/* {count, p50, p90, p99, max} of the faults of kind (-1: all); NULL for none. */
static cJSON *times_json(const struct lat_fault_scope *in, int kind)
{
	size_t n;
	uint64_t *v;
	cJSON *o;

	v = fault_ticks(in, kind, &n);
	if (!v || !n) {
		free(v);
		return NULL;
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

cJSON *lat_fault_times_json(const struct lat_fault_scope *in)
{
	cJSON *o;

	if (!in->events || !(in->tsc_hz > 0))
		return cJSON_CreateNull();
	o = times_json(in, -1);
	return o ? o : cJSON_CreateNull();
}

/* {"reason": count} of the faults of kind unknown. */
static cJSON *why_json(const struct lat_fault_scope *in)
{
	uint64_t n[64] = { 0 };
	cJSON *o = cJSON_CreateObject();
	size_t i;

	for (i = 0; i < in->n_events; i++) {
		const struct latmon_event *e = &in->events[i];

		if (in_scope(in, e) && e->u.fault.kind == LATMON_FK_UNKNOWN)
			n[e->u.fault.why < 64 ? e->u.fault.why : 0]++;
	}
	for (i = 0; o && i < 64; i++)
		if (n[i])
			cJSON_AddNumberToObject(o,
						lat_fault_why_text((unsigned int)i) ?
							lat_fault_why_text((unsigned int)i) :
							"not said",
						(double)n[i]);
	return o;
}

cJSON *lat_fault_kinds_json(const struct lat_fault_scope *in)
{
	cJSON *o, *k;
	unsigned int kind;

	if (!in->events || !(in->tsc_hz > 0))
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	for (kind = 0; o && kind < __LATMON_FK_MAX; kind++) {
		k = times_json(in, (int)kind);
		if (!k)
			continue;
		if (kind == LATMON_FK_UNKNOWN)
			cJSON_AddItemToObject(k, "why", why_json(in));
		cJSON_AddItemToObject(o, kind ? lat_fault_kind_name(kind) : "none", k);
	}
	return o;
}
