// SPDX-License-Identifier: GPL-2.0
/*
 * Source "reclaim": memory reclaim done by a target thread itself, for the
 * page allocator when free memory is low (mm_vmscan_direct_reclaim_begin/end)
 * or for its memory cgroup at its limit (mm_vmscan_memcg_reclaim_begin/end,
 * CONFIG_MEMCG). One record per reclaim, written at its end; kswapd's
 * background reclaim runs in its own thread and is not recorded. The begin
 * half is kept in the thread table (threads.c), one slot per kind.
 */
#include <linux/sched.h>
#include <linux/preempt.h>
#include <asm/msr.h>
#include "latmon.h"
#include <trace/events/vmscan.h>

static struct latmon_source_status reclaim_status;

static struct latmon_thread *reclaim_thread(void)
{
	struct latmon_thread *t;

	if (!in_task() || !latmon_is_target(current))
		return NULL;
	t = latmon_thread_get(current->pid, true);
	if (!t)
		atomic64_inc(&reclaim_status.misses);
	return t;
}

static void reclaim_begin(u32 kind, int order, gfp_t gfp)
{
	struct latmon_thread *t = reclaim_thread();

	if (!t)
		return;
	t->reclaim_order[kind - 1] = order;
	t->reclaim_gfp[kind - 1] = (__force u32)gfp;
	t->reclaim_tsc[kind - 1] = rdtsc_ordered();
}

static void reclaim_end(u32 kind, unsigned long nr_reclaimed)
{
	u64 end = rdtsc_ordered();
	struct latmon_thread *t = reclaim_thread();
	struct latmon_event ev;

	if (!t || !t->reclaim_tsc[kind - 1])
		return;		/* began before START */
	latmon_event_init(&ev, LATMON_EV_RECLAIM, current);
	ev.tsc_begin = t->reclaim_tsc[kind - 1];
	ev.tsc_end = end;
	ev.u.reclaim.nr_reclaimed = nr_reclaimed;
	ev.u.reclaim.kind = kind;
	ev.u.reclaim.order = t->reclaim_order[kind - 1];
	ev.u.reclaim.gfp = t->reclaim_gfp[kind - 1];
	t->reclaim_tsc[kind - 1] = 0;
	latmon_ring_write(&ev);
}

static void direct_begin_probe(void *data, LATMON_RECLAIM_BEGIN_ARGS)
{
	reclaim_begin(LATMON_RECLAIM_DIRECT, order, gfp_flags);
}

static void direct_end_probe(void *data, LATMON_RECLAIM_END_ARGS)
{
	reclaim_end(LATMON_RECLAIM_DIRECT, nr_reclaimed);
}

static void memcg_begin_probe(void *data, LATMON_RECLAIM_BEGIN_ARGS)
{
	reclaim_begin(LATMON_RECLAIM_MEMCG, order, gfp_flags);
}

static void memcg_end_probe(void *data, LATMON_RECLAIM_END_ARGS)
{
	reclaim_end(LATMON_RECLAIM_MEMCG, nr_reclaimed);
}

static struct latmon_tp reclaim_tps[] = {
	{ .name = "mm_vmscan_direct_reclaim_begin", .probe = direct_begin_probe },
	{ .name = "mm_vmscan_direct_reclaim_end", .probe = direct_end_probe },
	{ .name = "mm_vmscan_memcg_reclaim_begin", .probe = memcg_begin_probe },
	{ .name = "mm_vmscan_memcg_reclaim_end", .probe = memcg_end_probe },
};

/* The probes match this kernel's tracepoint prototypes (build-time check). */
static void __maybe_unused reclaim_check_types(void)
{
	check_trace_callback_type_mm_vmscan_direct_reclaim_begin(direct_begin_probe);
	check_trace_callback_type_mm_vmscan_direct_reclaim_end(direct_end_probe);
#ifdef CONFIG_MEMCG
	check_trace_callback_type_mm_vmscan_memcg_reclaim_begin(memcg_begin_probe);
	check_trace_callback_type_mm_vmscan_memcg_reclaim_end(memcg_end_probe);
#endif
}

/* Available with either pair; the reason names a missing one. */
static bool reclaim_available(struct latmon_tp *tps)
{
	return (tps[0].tp && tps[1].tp) || (tps[2].tp && tps[3].tp);
}

static const struct latmon_tp_source reclaim_source = {
	.tps = reclaim_tps,
	.n = ARRAY_SIZE(reclaim_tps),
	.available = reclaim_available,
};

const struct latmon_source_ops latmon_src_reclaim = {
	.id = LATMON_SRC_RECLAIM,
	.status = &reclaim_status,
	.tp = &reclaim_source,
};
