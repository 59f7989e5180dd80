/* SPDX-License-Identifier: MIT */
/*
 * The causes of a run's slow iterations: every stream of samples (one per
 * thread, LAT_SAMPLE_F_NEWSTREAM boundaries) joined with latmon's events for
 * its thread (run->streams), the results merged into one cause table and
 * one list, written into the result document as "causes" and "slow".
 */
#ifndef LATCTL_CAUSES_H
#define LATCTL_CAUSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "latmon.h"
#include "workload/workload.h"

#define LAT_MAX_SLOW_LISTED	100000	/* slow iterations kept in the JSON */
/* The default slow threshold (a percentile, no --slow given) is at least
 * this many times the median: under it an iteration is ordinary
 * variation, not a tail (tests/BENCHMARKS.md 30). */
#define LAT_SLOW_MEDIANS	4

struct lat_causes_in {
	const struct lat_run *run;
	const struct latmon_event *events;	/* NULL when not recording */
	size_t n_events;
	bool have_events;
	const char *threshold;		/* --slow as given */
	double limit_ns;		/* slow: longer than this */
	double percentile_ns;		/* > 0: the default percentile, which
					 * limit_ns (LAT_SLOW_MEDIANS x the median)
					 * was raised above */
	bool at_max;			/* limit_ns is a percentile that is the
					 * slowest sample (p99 of fewer than 100):
					 * the slowest are slow, none being slower */
	uint64_t tsc_before, tsc_after;	/* around the two counter reads */
	bool hypervisor;		/* join_input.hypervisor */
	double hv_noise_per_s;		/* > 0: the hypervisor probe showed idle
					 * gaps no guest event explains, this many
					 * a second: uncovered stretches as long
					 * are hypervisor (join_input.hv_stretch) */
	double hv_gap_ns;		/* the probe's shortest gap */
	double typical_ns;		/* the run's median iteration */
};

/* Add "slow" and "causes" to doc. 0, -ENOMEM or -EINVAL (join input). */
int lat_causes_add(cJSON *doc, const struct lat_causes_in *in);

#endif /* LATCTL_CAUSES_H */
