// SPDX-License-Identifier: GPL-2.0
/*
 * Source "alloc-zero": the zeroing the page allocator does itself, from the
 * entry of the allocation from the free lists that ends with it
 * (get_page_from_freelist, see compat.h) to the mm_page_alloc tracepoint,
 * where the allocation returns the page, and from the entry of direct
 * compaction, which prepares (zeroes) the page it captures itself: that
 * record spans the compaction too (LATMON_ZERO_F_COMPACT), and the
 * compaction records inside it tell that part.
 * Recorded for target threads, in task context, for folios of order > 0 of
 * user memory (__GFP_MOVABLE and __GFP_COMP: THP, mTHP, large page-cache
 * folios) that the allocator zeroes because init_on_alloc is on or the
 * caller passed __GFP_ZERO. Such a record also marks the enclosing fault as
 * huge (threads.c), as a THP clear does: since Linux 6.13 the allocator's
 * zeroing is the only one a huge page gets when init_on_alloc is on.
 *
 * The begins are ftrace callbacks on function entry (ftr.c), the end a
 * tracepoint, all attached while a session runs. The free-list callback and
 * the tracepoint run for every page allocation of the system and return at
 * their first test for order 0; the begin of an allocation that will zero
 * is kept in the thread's slot until the tracepoint of that allocation
 * writes the record (or, for a failed allocation, drops it).
 */
#include <linux/mm.h>
#include <linux/preempt.h>
#include <asm/msr.h>
#include "latmon.h"
#include <trace/events/kmem.h>

static struct latmon_source_status zero_status;

enum { ZERO_FREELIST, ZERO_COMPACT, ZERO_HOOKS };

static struct latmon_ftr zf[ZERO_HOOKS];

static const char *const zero_symbol[ZERO_HOOKS] = {
	[ZERO_FREELIST] = LATMON_ALLOC_ZERO_SYMBOL,
	[ZERO_COMPACT] = LATMON_ALLOC_ZERO_COMPACT_SYMBOL,
};

/* LATMON_ZERO_F_* if the allocator will zero this allocation, else 0. */
static u32 zero_flags(unsigned int order, gfp_t gfp)
{
	const gfp_t user_folio = __GFP_MOVABLE | __GFP_COMP;
	u32 f = 0;

	if ((gfp & user_folio) != user_folio || !latmon_alloc_zeroes(gfp))
		return 0;
	if (latmon_init_on_alloc())
		f |= LATMON_ZERO_F_INIT_ON_ALLOC;
	if (gfp & __GFP_ZERO)
		f |= LATMON_ZERO_F_GFP_ZERO;
	return f;
}

/* An allocation of order > 0 begins: keep its begin if it will zero. */
static void notrace zero_begin(struct ftrace_regs *fregs, u32 extra)
{
	unsigned int order = latmon_ftrace_arg(fregs, LATMON_ALLOC_ZERO_ORDER_ARG);
	gfp_t gfp;
	struct latmon_thread *t;
	u32 flags;

	if (!order || !in_task() || !READ_ONCE(latmon_target_tgid))
		return;
	t = latmon_thread_find(current->pid);
	if (!t)
		return;
	gfp = (__force gfp_t)latmon_ftrace_arg(fregs, LATMON_ALLOC_ZERO_GFP_ARG);
	flags = zero_flags(order, gfp);
	if (!flags) {
		t->zero_tsc = 0;
		return;
	}
	t->zero_flags = flags | extra;
	t->zero_order = order;
	t->zero_gfp = (__force u32)gfp;
	t->zero_tsc = rdtsc_ordered();
}

static void notrace freelist_entry(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	zero_begin(fregs, 0);
}

static void notrace compact_entry(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	zero_begin(fregs, LATMON_ZERO_F_COMPACT);
}

/* Record the zeroing of @t's allocation, which returned at @end. */
static void zero_record(struct latmon_thread *t, u64 begin, u64 end)
{
	struct latmon_event ev;

	WRITE_ONCE(t->thp_clears, t->thp_clears + 1);
	latmon_event_init(&ev, LATMON_EV_ALLOC_ZERO, current);
	ev.tsc_begin = begin;
	ev.tsc_end = end;
	ev.u.zero.size = (u64)PAGE_SIZE << t->zero_order;
	ev.u.zero.order = t->zero_order;
	ev.u.zero.flags = t->zero_flags;
	ev.u.zero.gfp = t->zero_gfp;
	latmon_ring_write(&ev);
}

/* mm_page_alloc: the allocation returns @page (NULL: it failed). */
static void zero_end_probe(void *data, struct page *page, unsigned int order,
			   gfp_t gfp, int migratetype)
{
	struct latmon_thread *t;
	u64 end, begin;

	if (!order || !in_task() || !READ_ONCE(latmon_target_tgid))
		return;
	t = latmon_thread_find(current->pid);
	if (!t || !t->zero_tsc)
		return;
	end = rdtsc_ordered();
	begin = t->zero_tsc;
	t->zero_tsc = 0;
	if (page && order == t->zero_order)
		zero_record(t, begin, end);
}

static struct latmon_tp zero_tps[] = {
	{ .name = "mm_page_alloc", .probe = zero_end_probe },
};

/* The probe matches this kernel's tracepoint prototype (build-time check). */
static void __maybe_unused zero_check_types(void)
{
	check_trace_callback_type_mm_page_alloc(zero_end_probe);
}

static const ftrace_func_t zero_func[ZERO_HOOKS] = {
	[ZERO_FREELIST] = freelist_entry,
	[ZERO_COMPACT] = compact_entry,
};

static void zero_detach(void)
{
	int i;

	for (i = 0; i < ZERO_HOOKS; i++)
		latmon_ftr_disable(&zf[i]);
	latmon_tp_unregister(zero_tps, ARRAY_SIZE(zero_tps));
}

/* The end first, so that no begin waits for an end not yet there. */
static int zero_attach(void)
{
	int i, ret;

	ret = latmon_tp_register(zero_tps, ARRAY_SIZE(zero_tps));
	for (i = 0; !ret && i < ZERO_HOOKS; i++)
		ret = latmon_ftr_enable(&zf[i]);
	if (ret)
		zero_detach();
	return ret;
}

static void zero_release(void)
{
	int i;

	for (i = 0; i < ZERO_HOOKS; i++)
		latmon_ftr_release(&zf[i]);
}

/*
 * Unavailable without the free-list begin or the end; without the
 * compaction begin (inlined, or no CONFIG_COMPACTION) the pages compaction
 * captures are not seen, which the reason says.
 */
static int zero_resolve(struct latmon_source_status *st)
{
	int ret[ZERO_HOOKS], i;

	for (i = 0; i < ZERO_HOOKS; i++)
		ret[i] = latmon_ftr_init(&zf[i], zero_symbol[i], zero_func[i]);
	st->symbol = zero_symbol[ZERO_FREELIST];
	st->missing = latmon_tp_lookup(zero_tps, ARRAY_SIZE(zero_tps), st->reason,
				       sizeof(st->reason));
	if (ret[ZERO_FREELIST] && !st->missing)
		snprintf(st->reason, sizeof(st->reason), "cannot trace %s: %d",
			 zero_symbol[ZERO_FREELIST], ret[ZERO_FREELIST]);
	if (ret[ZERO_FREELIST] || st->missing) {
		st->missing = 1;
		zero_release();
		return 0;
	}
	st->available = true;
	if (ret[ZERO_COMPACT]) {
		st->missing = 1;
		snprintf(st->reason, sizeof(st->reason),
			 "cannot trace %s: %d; pages captured by compaction are not seen",
			 zero_symbol[ZERO_COMPACT], ret[ZERO_COMPACT]);
	}
	return 0;
}

const struct latmon_source_ops latmon_src_zero = {
	.id = LATMON_SRC_ALLOC_ZERO,
	.status = &zero_status,
	.resolve = zero_resolve,
	.attach = zero_attach,
	.detach = zero_detach,
	.release = zero_release,
};
