/* SPDX-License-Identifier: MIT */
/*
 * The labels of a slow iteration and the iteration as the join fills it:
 * what every record type (evtype.h) notes into, what the join sweeps and
 * what the report prints. Labels and their precedence are in label.c:
 *   interrupt > blocked > preemption > thp-zero > fault, the allocator's
 *   zeroing and compaction and reclaim as parts, syscall, smi (uncovered
 *   ticks where the SMI count moved), hypervisor (after a fault, with the
 *   probe's evidence); steal placed in the uncovered ticks (join_steal.c);
 *   then the remainder
 *   labels realloc > migration > unexplained | unattributed; incomplete is a
 *   primary label only (join/join.h says when each applies).
 */
#ifndef LATCTL_ITER_H
#define LATCTL_ITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "latmon.h"

/* clang-format off */
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
	JOIN_STEAL,		/* an amount placed in uncovered ticks (join_steal.c) */
	JOIN_HYPERVISOR,	/* uncovered ticks after a fault, with evidence */
	JOIN_SMI,		/* uncovered ticks where the SMI count moved */
	JOIN_MIGRATION,
	JOIN_REALLOC,
	JOIN_UNEXPLAINED,
	JOIN_UNATTRIBUTED,
	JOIN_INCOMPLETE,	/* primary label only, never in a breakdown */
	JOIN_NR_LABELS
};
/* clang-format on */

/*
 * How a label is drawn by `latctl plot`: a colour (Okabe-Ito, and Paul
 * Tol's muted scheme for compaction, reclaim and syscall, safe for
 * colour-blind readers), a hatching and a marker shape, so that the causes
 * stay apart in a greyscale print too. Two labels never share a colour,
 * but a part shares its whole's.
 */
enum lat_hatch { HATCH_NONE = 1, HATCH_DIAG, HATCH_BACKDIAG, HATCH_CROSS,
		 HATCH_HORIZ, HATCH_VERT, HATCH_DOTS, HATCH_GRID };
enum lat_marker { MARK_CIRCLE = 1, MARK_SQUARE, MARK_TRIANGLE, MARK_DIAMOND,
		  MARK_CROSS, MARK_PLUS, MARK_TRIANGLE_DOWN };

struct lat_style {
	const char *colour;		/* "#rrggbb" */
	enum lat_hatch hatch;
	enum lat_marker marker;
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
	struct lat_style style;	/* how the plot draws it */
};

/* Labels by rank, highest first: event labels only, or all but incomplete. */
struct join_prec {
	enum join_label order[JOIN_NR_LABELS];
	size_t n;
};

#define JOIN_MAX_ADDRS 8	/* faults kept per iteration, with their memory */
#define JOIN_MAX_IRQS	4	/* distinct interrupts kept per iteration */
#define JOIN_MAX_SPANS 64	/* kernel spans kept per iteration */

/* One kernel event inside a slow iteration, as recorded (not clipped). */
struct join_span {
	uint64_t begin, end; /* TSC */
	uint16_t type;	     /* enum latmon_event_type */
	uint8_t label;	     /* enum join_label it gives */
	uint8_t pad;
	uint32_t cpu;
};
#define JOIN_MAX_WAKES	4	/* wake-ups kept per iteration (the last) */
#define JOIN_MAX_SYSCALLS 4	/* distinct system calls kept per iteration */

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

/* One fault inside a slow iteration, as recorded. */
struct join_fault {
	uint64_t address;
	uint64_t ino;	/* the file's inode, 0: anonymous */
	uint64_t ticks; /* its own duration */
	uint32_t pid;
	uint8_t kind; /* LATMON_FK_* (0: not told) */
	uint8_t map;  /* LATMON_MAP_* */
	uint16_t why; /* LATMON_FKW_* */
};

struct join_iter {
	size_t index;		/* index_base + position in samples */
	size_t stream_index;	/* position in its own stream */
	uint32_t stream;	/* which stream (thread) of the run, from 0 */
	uint32_t pid, tid;	/* its process and thread; 0 if not known */
	char comm[16];		/* the thread's name; "" if not known */
	uint64_t tsc_begin;
	uint64_t duration;	/* ticks, tsc_end - tsc_begin (0 if negative) */
	double tsc_hz;		/* the run's: ticks to ns */
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
	struct join_span *spans;		/* its spans, in begin order (owned) */
	uint32_t n_spans, spans_dropped;	/* kept; past JOIN_MAX_SPANS */
	uint32_t n_type[__LATMON_EV_MAX];	/* ... by record type */
	uint32_t n_addrs;			/* faults kept, the first JOIN_MAX_ADDRS */
	uint32_t addrs_dropped;			/* ... and those past them */
	struct join_fault fault[JOIN_MAX_ADDRS];
	uint32_t n_kind[__LATMON_FK_MAX];     /* faults by kind */
	uint64_t kind_ticks[__LATMON_FK_MAX]; /* ... their own durations */
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
	uint64_t steal_ns;			/* steal of the steal records around it */
	uint64_t smis;				/* SMIs of the SMI records around it */
	uint64_t lost;		/* events reported lost in overlapping windows */
};

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

#endif /* LATCTL_ITER_H */
