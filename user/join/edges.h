/* SPDX-License-Identifier: MIT */
/*
 * What stays unexplained around faults: in the complete slow iterations
 * whose only events are faults, the ticks no event covers beyond an
 * ordinary iteration's, per fault. No record times a fault's edges (its
 * entry before the first event, its work after the last, its return), so
 * the join leaves them unexplained; this says how much they are.
 */
#ifndef LATCTL_EDGES_H
#define LATCTL_EDGES_H

#include <stdint.h>
#include <cjson/cJSON.h>

#include "join/join.h"

/* {iterations, faults, typical_ns, ns_per_fault_median, unexplained_ns,
 * share} over r's slow iterations (typical: an ordinary iteration's ticks);
 * NULL when no slow iteration has only faults. */
cJSON *lat_fault_edges_json(const struct join_result *r, uint64_t typical);

#endif /* LATCTL_EDGES_H */
