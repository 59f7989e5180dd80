// SPDX-License-Identifier: GPL-2.0
/*
 * Source "compaction": direct compaction done by a target thread, typically
 * inside a huge-page fault when no free block of that order is left and THP
 * defrag lets the fault wait. One record per compacted zone, from
 * mm_compaction_begin to mm_compaction_end, with the order and priority of
 * the preceding mm_compaction_try_to_compact_pages. kcompactd's background
 * work runs in its own thread and is not recorded. The begin half is kept in
 * the thread table (threads.c).
 */
#include <linux/sched.h>
#include <linux/preempt.h>
#include <asm/msr.h>
#include "latmon.h"		/* first: compat.h declares struct compact_control */
#include <trace/events/compaction.h>

static struct latmon_source_status compact_status;

/* The target's slot if current is a target thread in task context. */
static struct latmon_thread *compact_thread(void)
{
	struct latmon_thread *t;

	if (!in_task() || !latmon_is_target(current))
		return NULL;
	t = latmon_thread_get(current->pid, true);
	if (!t)
		atomic64_inc(&compact_status.misses);
	return t;
}

static void compact_try_probe(void *data, LATMON_COMPACTION_TRY_ARGS)
{
	struct latmon_thread *t = compact_thread();

	if (!t)
		return;
	t->compact_order = order;
	t->compact_prio = prio;
	t->compact_known = true;
}

static void compact_begin_probe(void *data, LATMON_COMPACTION_BEGIN_ARGS)
{
	struct latmon_thread *t = compact_thread();

	if (t)
		t->compact_tsc = rdtsc_ordered();
}

static void compact_end_probe(void *data, LATMON_COMPACTION_END_ARGS)
{
	u64 end = rdtsc_ordered();
	struct latmon_thread *t = compact_thread();
	struct latmon_event ev;

	if (!t || !t->compact_tsc)
		return;		/* began before START */
	latmon_event_init(&ev, LATMON_EV_COMPACT, current);
	ev.tsc_begin = t->compact_tsc;
	ev.tsc_end = end;
	ev.u.compact.status = status;
	ev.u.compact.flags = sync ? LATMON_COMPACT_F_SYNC : 0;
	if (t->compact_known) {
		ev.u.compact.order = t->compact_order;
		ev.u.compact.prio = t->compact_prio;
		ev.u.compact.flags |= LATMON_COMPACT_F_ORDER;
	}
	t->compact_tsc = 0;
	latmon_ring_write(&ev);
}

static struct latmon_tp compact_tps[] = {
	{ .name = "mm_compaction_begin", .probe = compact_begin_probe },
	{ .name = "mm_compaction_end", .probe = compact_end_probe },
	{ .name = "mm_compaction_try_to_compact_pages", .probe = compact_try_probe },
};

/* The probes match this kernel's tracepoint prototypes (build-time check). */
static void __maybe_unused compact_check_types(void)
{
	check_trace_callback_type_mm_compaction_begin(compact_begin_probe);
	check_trace_callback_type_mm_compaction_end(compact_end_probe);
	check_trace_callback_type_mm_compaction_try_to_compact_pages(compact_try_probe);
}

/* Needs begin and end; without try_to_compact_pages the order is unknown. */
static bool compact_available(struct latmon_tp *tps)
{
	return tps[0].tp && tps[1].tp;
}

static const struct latmon_tp_source compact_source = {
	.tps = compact_tps,
	.n = ARRAY_SIZE(compact_tps),
	.available = compact_available,
};

const struct latmon_source_ops latmon_src_compact = {
	.id = LATMON_SRC_COMPACTION,
	.status = &compact_status,
	.tp = &compact_source,
};
