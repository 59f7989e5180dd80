/* SPDX-License-Identifier: MIT */
/*
 * The ordinary iterations around the slowest ones, for a trace viewer:
 * the LAT_CONTEXT_SLOWEST slowest iterations with LAT_CONTEXT_AROUND of
 * their stream's iterations on each side, windows that meet merged, as
 * the result's "context" (latctl-result(5)).
 */
#ifndef LATCTL_RUN_CONTEXT_H
#define LATCTL_RUN_CONTEXT_H

#include <cjson/cJSON.h>

#include "workload/workload.h"

#define LAT_CONTEXT_SLOWEST 10
#define LAT_CONTEXT_AROUND 100

/* {"around", "windows": [{"stream", "from", "tsc_begin": [], "duration_ticks": []}]} */
cJSON *lat_run_context_json(const struct lat_run *run);

#endif /* LATCTL_RUN_CONTEXT_H */
