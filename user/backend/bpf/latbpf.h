/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * What latbpf.bpf.c and latbpf.c share besides the latmon records
 * (include/latmon.h, written unchanged into the ring buffer): the per-CPU
 * state the programs keep and latctl reads after detaching, and the one
 * BPF-only mark a record carries in its header's reserved field (latctl
 * clears it before the join sees the record). Fixed-size types only.
 */
#ifndef LATBPF_H
#define LATBPF_H

#include "latmon.h"

/* latmon_event.reserved of a fault record: no event of the thread ended the
 * fault before its next fault did; latctl clips it to the iteration's end. */
#define LATBPF_REC_OPEN_END	1
/* ... no event ended it before the thread's switch-out did. */
#define LATBPF_REC_OUT_END	2

/* Interrupt kinds with an entry/exit pair: one entry time per CPU each. */
enum latbpf_slot {
	LATBPF_SLOT_HARD,
	LATBPF_SLOT_SOFT,
	LATBPF_SLOT_TIMER,
	LATBPF_SLOT_RESCHED,
	LATBPF_SLOT_CALL,
	LATBPF_SLOT_CALL_SINGLE,
	LATBPF_SLOT_IRQ_WORK,
	LATBPF_SLOT_PLATFORM,
	LATBPF_NR_SLOTS
};

#define LATBPF_BATCH	16	/* task-context records per ring entry */

/* One per CPU: records waiting for a full batch (seq set when written). */
struct latbpf_batch {
	__u32 n;
	__u32 reserved;
	struct latmon_event ev[LATBPF_BATCH];
};

#define LATBPF_NR_TYPES __LATMON_EV_MAX /* tries[] by record type */

/* One per CPU (a per-CPU array of one element). */
struct latbpf_cpu {
	__u64 seq;		/* next record number of this CPU */
	__u64 lost;		/* dropped, not yet reported by a lost record */
	__u64 lost_first;	/* ktime of the first of those drops */
	__u64 lost_last;	/* ... and of the last */
	__u64 dropped;		/* every failed reservation on this CPU */
	__u64 lost_records;	/* lost records written */
	__u64 tries[LATBPF_NR_TYPES];	/* records attempted, by type */
	__u64 irq_ns[LATBPF_NR_SLOTS];	/* entry of a target's interrupt */
	__u64 irq_in;			/* 1 << slot: interrupts of any task this
					 * CPU is in now */
	__u64 steal_at;			/* ktime of the last steal reading while
					 * a target was current here; 0: none */
	__u64 steal_clock;		/* the steal clock then (ns) */
	__u64 steal_tid;		/* the target current then */
	__u64 steal_reads;		/* readings taken */
};

#define LATBPF_FOLLOW_MAX	1024	/* followed processes alive at once (default) */
#define LATBPF_FOLLOW_LOG	4096	/* followed and refused tgids remembered */

/* The processes the target forked (a global of the programs). */
struct latbpf_follow {
	__u64 live;		/* followed now */
	__u64 followed;		/* followed since attach */
	__u64 refused;		/* not followed: the limit (max_entries) was reached */
	__u64 gen;		/* moved by every addition and removal */
};

#endif /* LATBPF_H */
