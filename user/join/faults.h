/* SPDX-License-Identifier: MIT */
/* How long every fault of the measured threads in the timed loop took. */
#ifndef LATCTL_FAULTS_H
#define LATCTL_FAULTS_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "join/causes.h"

/* {count, p50, p90, p99, max} in ns of the fault records of tids inside
 * the loop (not retried, not failed); null without events or faults. */
cJSON *lat_fault_times_json(const struct lat_causes_in *in, const uint32_t *tids, size_t n_tids);

#endif /* LATCTL_FAULTS_H */
