/* SPDX-License-Identifier: MIT */
/*
 * The join: label every slow iteration of a run with what the kernel did
 * meanwhile. Input: the TSC samples of one measured thread and latmon's event
 * records (any order). Output: per slow iteration a net breakdown in TSC
 * ticks that sums exactly to its duration, a primary label (the largest
 * share) and details; and a cause table over all slow iterations.
 *
 * Net time: each tick of an iteration goes to exactly one label, the one of
 * highest precedence active at that tick (the ranks of events/ev_*.c):
 *   interrupt > blocked > preemption > compaction > reclaim > thp-zero >
 *   fault > syscall > smi (a window where the SMI count moved) >
 *   hypervisor (the iteration's begin to a fault's begin and the fault's
 *   end to the iteration's end, with the probe's or the run's evidence,
 *   join_input.hypervisor)
 * (a preemption by an interrupt thread, "irq/N-name", is interrupt;
 * thp-zero has two parts, the THP clear and the allocator's zeroing, whose
 * ticks fold into it after the sweep; an allocator's zeroing that spans
 * direct compaction is compaction up to the end of the last compaction
 * record inside it, join_split.c) and the ticks no event covers go to
 * steal, where a steal record's amount is placed whole (join_steal.c: the
 * hypervisor ran something else, the guest ran nothing, so steal takes
 * uncovered ticks only); where the probe showed gaps no guest event
 * explains, uncovered ticks beyond an ordinary iteration's, one such gap
 * long at least, go to hypervisor (join_steal.c); the rest to the
 * remainder label (events/label.c):
 *   realloc (LAT_SAMPLE_F_REALLOC) > migration (cpu_end != cpu_begin or a
 *   LATMON_EV_MIGRATE of the thread inside) > unexplained (events were
 *   recorded) or unattributed (no event stream: the module was not loaded).
 * An iteration that overlaps a window of lost events on its CPU(s) gets the
 * primary label "incomplete"; its breakdown is kept but flagged, and the cause
 * table counts its whole duration under "incomplete" only.
 *
 * The join sorts an index of the events by tsc_begin (the caller's array is
 * not modified) and merges it with the slow iterations in one pass, keeping a
 * small active set of events that began earlier and have not ended.
 */
#ifndef LATCTL_JOIN_H
#define LATCTL_JOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "latmon.h"
#include "events/iter.h"
#include "workload/workload.h"


struct join_input {
	const struct lat_sample *samples;	/* one thread, in time order
						 * (else slower: the merge restarts) */
	size_t n_samples;
	size_t index_base;	/* added to the indices in the output */
	const size_t *slow;	/* ascending indices into samples, or NULL: */
	size_t n_slow;
	uint64_t slow_ticks;	/* ... then slow = duration >= slow_ticks */
	uint32_t tid;		/* the measured thread */
	const struct latmon_event *events;	/* any order, not modified */
	size_t n_events;
	bool have_events;	/* false: the module was not recording */
	double tsc_hz;
	bool hypervisor;     /* the hypervisor probe showed the gap after a
				 * fault is the hypervisor's: those uncovered
				 * ticks are label hypervisor, but for the
				 * hv_typical an iteration needs for its work */
	uint64_t hv_stretch; /* > 0: uncovered ticks beyond hv_typical, this
				 * many at least, are label hypervisor (the
				 * probe's idle gaps no guest event explains) */
	uint64_t hv_typical; /* an ordinary iteration, in ticks: stays rest */
};


struct join_cause {
	uint64_t n_primary;	/* slow iterations with this primary label */
	uint64_t n_any;		/* ... where it is present at all */
	uint64_t ticks;		/* net ticks over all complete slow iterations */
	uint64_t n_own;		/* own durations: one per event (fault, */
	uint64_t own_median;	/* thp-zero, preemption, blocked, interrupt) */
	uint64_t own_max;	/* or one per iteration for the others */
	uint64_t part_ticks;	/* a part: its net ticks (folded into into) */
	uint64_t n_twice;	/* a label with parts: iterations with two */
};

struct join_stats {
	uint64_t events;	/* records given */
	uint64_t used;		/* records that overlapped a slow iteration */
	uint64_t other_thread;	/* records of another thread, skipped */
	uint64_t bad;		/* unknown type or tsc_end < tsc_begin */
	uint64_t lost_records;	/* LATMON_EV_LOST records */
	uint64_t lost_events;	/* sum of their counts (+ seq gaps) */
	uint64_t seq_gaps;	/* holes in a ring's seq (a module bug) */
	uint64_t incomplete;	/* slow iterations labelled incomplete */
	uint64_t rewinds;	/* samples not in time order: merge restarted */
	uint64_t steal;		/* ticks of steal in the thread's steal records */
	uint64_t steal_placed;	/* ... of it placed in slow iterations */
	uint64_t hv_stretches;	/* slow iterations given a stretch (hv_stretch) */
};

struct join_result {
	struct join_iter *iters;	/* one per slow iteration, index order */
	size_t n_iters;
	struct join_cause causes[JOIN_NR_LABELS];
	uint64_t slow_total;		/* ticks over all slow iterations */
	uint64_t slow_ticks;		/* threshold given, 0 if indices */
	bool have_events;
	double tsc_hz;
	struct join_stats stats;
};

/* Join samples and events; fills *out (free with join_result_free). 0 or
 * -EINVAL (bad input: unsorted or out-of-range indices, tsc_hz <= 0),
 * -ENOMEM. */
int join_run(const struct join_input *in, struct join_result *out);
void join_result_free(struct join_result *r);

/* JSON array of the slow iterations in run order (durations in ns and in
 * ticks); _max keeps only the max slowest of them (0: all). NULL: no memory. */
cJSON *join_to_json(const struct join_result *r);
cJSON *join_to_json_max(const struct join_result *r, size_t max);
/* JSON object: cause table, totals, event statistics. */
cJSON *cause_table_to_json(const struct join_result *r);
#endif /* LATCTL_JOIN_H */
