/* SPDX-License-Identifier: MIT */
/* How long every fault of the measured threads in the timed loop took. */
#ifndef LATCTL_FAULTS_H
#define LATCTL_FAULTS_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "latmon.h"

/* Which records: those of the threads tids between the loop's two TSC
 * reads; events NULL when none were recorded. */
struct lat_fault_scope {
	const struct latmon_event *events;
	size_t n_events;
	const uint32_t *tids;
	size_t n_tids;
	uint64_t tsc_before, tsc_after;
	double tsc_hz;
};

/* {count, p50, p90, p99, max} in ns of the fault records in scope (not
 * retried, not failed); null without events or faults. */
cJSON *lat_fault_times_json(const struct lat_fault_scope *in);

/* The same by kind: {"zero": {count, p50, ...}, "cow": {...}, "unknown":
 * {..., "why": {"reason": count}}}, kinds without faults left out; "none"
 * for records that do not tell one (an older latmon). null without events. */
cJSON *lat_fault_kinds_json(const struct lat_fault_scope *in);

#endif /* LATCTL_FAULTS_H */
