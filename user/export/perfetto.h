/* SPDX-License-Identifier: MIT */
/*
 * A result as a Perfetto trace (the protobuf `Trace` of `TracePacket`s that
 * ui.perfetto.dev and trace_processor open): a track per measured thread
 * with each slow iteration a slice named by its primary cause and, nested
 * in it, the kernel's spans the join used (fault, thp-zero, preemption,
 * ...); a counter track per thread of the iteration's time; a clock
 * snapshot that ties the run's TSC to CLOCK_BOOTTIME and CLOCK_MONOTONIC,
 * so that a system trace recorded meanwhile lines up with it.
 */
#ifndef LATCTL_PERFETTO_H
#define LATCTL_PERFETTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "export/pb.h"

struct lat_export_stats {
	size_t slow;	 /* slow iterations written as slices */
	size_t left_out; /* ... listed in the result but past --max */
	size_t ordinary; /* ordinary iterations around the slowest */
	size_t spans;	 /* kernel spans written inside them */
	size_t clipped;	 /* ... cut to their iteration or parent span */
	size_t threads;	 /* thread tracks */
	size_t runs;	 /* a --repeat result's runs (run 1 is exported) */
	bool snapshot;	 /* the result had its clock snapshot */
	bool have_spans; /* ... and its iterations' spans */
};

/* The trace of doc (a result checked by lat_runs_load) into b, at most
 * max_slow slow iterations (the slowest first chosen, written in time
 * order). 0, or -errno. */
int lat_perfetto_trace(const cJSON *doc, size_t max_slow, struct lat_pb *b,
		       struct lat_export_stats *st);

#endif /* LATCTL_PERFETTO_H */
