/* SPDX-License-Identifier: MIT */
/*
 * The join: label every slow iteration of a run with what the kernel did
 * meanwhile. Input: the TSC samples of one measured thread and latmon's event
 * records (any order). Output: per slow iteration a net breakdown in TSC
 * ticks that sums exactly to its duration, a primary label (the largest
 * share) and details; and a cause table over all slow iterations.
 *
 * Net time: each tick of an iteration goes to exactly one label, the one of
 * highest precedence active at that tick:
 *   interrupt > blocked > preemption > thp-zero > fault
 * (a preemption by an interrupt thread, "irq/N-name", is interrupt)
 * and the ticks no event covers go to the remainder label:
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
#include "workload/workload.h"

enum join_label {
	JOIN_FAULT,
	JOIN_THP_ZERO,
	JOIN_PREEMPTION,
	JOIN_BLOCKED,
	JOIN_INTERRUPT,
	JOIN_COMPACTION,
	JOIN_RECLAIM,
	JOIN_ZERO_ALLOC,	/* a part of thp-zero, folded into it after the sweep */
	JOIN_SYSCALL,
	JOIN_MIGRATION,
	JOIN_REALLOC,
	JOIN_UNEXPLAINED,
	JOIN_UNATTRIBUTED,
	JOIN_INCOMPLETE,	/* primary label only, never in a breakdown */
	JOIN_NR_LABELS
};

/*
 * One label: its name (also its key in the JSON), what its own duration
 * measures, and its rank. Event labels (rank > 0, declared by the record
 * types in user/ev_*.c) compete for each tick: the highest rank wins. All
 * ranks break a tie for the largest share (the primary label).
 */
struct join_label_desc {
	enum join_label id;
	const char *name;
	const char *own;
	int rank;
	/*
	 * Parts of one label: a label with part set is where (part) the ticks of
	 * label into were spent; after the sweep its ticks fold into into's and
	 * stay apart in join_iter.parts (into itself names its own part too).
	 * twice: into's note when an iteration has ticks in two of its parts.
	 */
	const char *part;
	enum join_label into;
	const char *twice;
};

/* Labels by rank, highest first: event labels only, or all but incomplete. */
struct join_prec {
	enum join_label order[JOIN_NR_LABELS];
	size_t n;
};

#define JOIN_MAX_ADDRS	4	/* fault addresses kept per iteration */
#define JOIN_MAX_IRQS	4	/* distinct interrupts kept per iteration */
#define JOIN_MAX_WAKES	4	/* wake-ups kept per iteration (the last) */
#define JOIN_MAX_SYSCALLS 4	/* distinct system calls kept per iteration */

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
};

struct join_irq {
	uint32_t kind;		/* enum latmon_irq_kind */
	uint32_t number;
	uint32_t count;		/* how many of this one in the iteration */
	char name[17];
};

struct join_wake {		/* the thread was woken at t by pid on cpu */
	uint64_t t;
	uint32_t pid, cpu, flags;	/* flags: LATMON_WAKE_F_* */
	char comm[17];
};

struct join_iter {
	size_t index;		/* index_base + position in samples */
	uint64_t tsc_begin;
	uint64_t duration;	/* ticks, tsc_end - tsc_begin (0 if negative) */
	uint16_t cpu_begin, cpu_end;
	uint32_t sample_flags;
	enum join_label primary;
	bool incomplete;	/* overlaps a lost-events window */
	bool migrated;
	bool thp;		/* a THP clear or a huge-page fault inside */
	uint64_t ticks[JOIN_NR_LABELS];	/* net; sums exactly to duration */
	uint64_t parts[JOIN_NR_LABELS];	/* net ticks of each part (label with
					 * .part) before the fold; they sum
					 * to ticks[into] */
	uint32_t zero_flags;	/* LATMON_ZERO_F_* of the allocator's zeroing */
	uint64_t zeroed_bytes;	/* bytes the allocator zeroed */
	uint32_t reclaimed_pages;	/* pages reclaimed inside */
	uint32_t memcg_reclaims;	/* reclaims for the memory cgroup */
	uint32_t n_events;	/* events of this iteration that were used */
	uint32_t n_type[__LATMON_EV_MAX];	/* ... by record type */
	uint32_t n_addrs;
	uint64_t fault_addr[JOIN_MAX_ADDRS];
	uint32_t n_irq_kinds;
	struct join_irq irq[JOIN_MAX_IRQS];
	uint32_t other_pid;	/* task that ran while the thread was out, */
	char other_comm[17];	/* of the longest switch-out; 0 / "" if none */
	uint64_t longest_out;	/* ticks of that switch-out */
	uint64_t preempt_longest;	/* the longest preempted switch-out */
	uint32_t preempt_pid;	/* ... and the task that ran instead */
	char preempt_comm[17];
	uint64_t blocked_begin;	/* the longest blocked switch-out, */
	uint64_t blocked_end;	/* 0 / 0 if none */
	uint32_t n_wakes;	/* wake-ups of the thread, the last kept */
	struct join_wake wake[JOIN_MAX_WAKES];
	uint64_t sys_longest;	/* ticks of the longest system call inside */
	uint32_t sys_nr, sys_flags;	/* ... its number and LATMON_SYSCALL_F_* */
	uint32_t n_sys_kinds;	/* distinct calls (number, flags), in order */
	struct { uint32_t nr, flags, count; } sys[JOIN_MAX_SYSCALLS];
	uint64_t lock_ticks;	/* lock waits that slept (overlapping it) */
	uint32_t lock_kind;	/* enum latmon_lock_kind of the longest */
	uint64_t lock_longest;
	uint32_t tlb_sent, tlb_received;	/* TLB shoot-downs */
	uint64_t lost;		/* events reported lost in overlapping windows */
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

/* The descriptor of a label; NULL for an out-of-range one. */
const struct join_label_desc *join_label_desc(enum join_label l);
/* The label named name that is no part of another; -1 if none. */
int join_label_by_name(const char *name);
/* Fold the parts' ticks of it into the labels they are parts of. */
void join_fold_parts(struct join_iter *it);
/* Fill *p with the event labels (events_only) or all ranked labels. */
void join_precedence(struct join_prec *p, bool events_only);
/* "fault", "thp-zero", ...; NULL for an out-of-range label. */
const char *join_label_name(enum join_label l);
/* What a label's own duration measures: "fault", "clear", "off-CPU", ... */
const char *join_label_own(enum join_label l);
/* TSC ticks to nanoseconds. */
double join_ticks_to_ns(uint64_t ticks, double tsc_hz);

/* JSON array of the slow iterations in run order (durations in ns and in
 * ticks); _max keeps only the max slowest of them (0: all). NULL: no memory. */
cJSON *join_to_json(const struct join_result *r);
cJSON *join_to_json_max(const struct join_result *r, size_t max);
/* JSON object: cause table, totals, event statistics. */
cJSON *cause_table_to_json(const struct join_result *r);
/* Text: the cause table and the ten slowest iterations with their breakdown,
 * from the two objects above (so a saved report prints the same). Either may
 * be NULL. lat_render_causes reads them through the strict reader r (the
 * first bad key in r->bad) and marks the labels named in the array
 * estimated (may be NULL) with "~"; join_print ignores bad keys. */
struct lat_rd;
void lat_render_causes(FILE *out, struct lat_rd *r, const cJSON *causes, const cJSON *iters,
		       const cJSON *estimated);
void join_print(const cJSON *causes, const cJSON *iters, FILE *out);

#endif /* LATCTL_JOIN_H */
