/* SPDX-License-Identifier: MIT */
/*
 * Workloads that span threads and processes (procs.c): latmon's thread
 * table counts in the result, each stream's own fault events, the report.
 */
#ifndef LATCTL_PROCS_H
#define LATCTL_PROCS_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "latmon.h"
#include "workload/workload.h"

/* Per stream {tid, fault_events}: the fault events of its thread over the
 * whole recording, as getrusage/wait4 counts them. */
cJSON *lat_stream_faults_json(const struct lat_run *run, const struct latmon_event *ev,
			      size_t n_events, size_t streams);
/* The lines about what latmon followed, from the result's "latmon" object. */
struct lat_rd;
void lat_procs_render(const cJSON *latmon, FILE *out, struct lat_rd *r);
/* When the measured streams are other processes' (forked workers), the sum
 * of their fault events, per stream; nothing when they are this process's. */
void lat_stream_faults_render(const cJSON *causes, FILE *out, struct lat_rd *r);

#endif /* LATCTL_PROCS_H */
