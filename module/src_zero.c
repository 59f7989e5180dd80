// SPDX-License-Identifier: GPL-2.0
/*
 * Source "alloc-zero": the zeroing the page allocator does itself, a
 * kretprobe on the allocation from the free lists that ends with it
 * (get_page_from_freelist, see compat.h), recorded when a page came back,
 * and one on direct compaction, which prepares (zeroes) the page it captures
 * itself: that record spans the compaction too (LATMON_ZERO_F_COMPACT), and
 * the compaction records inside it tell that part.
 * Recorded for target threads, in task context, for folios of order > 0 of
 * user memory (__GFP_MOVABLE and __GFP_COMP: THP, mTHP, large page-cache
 * folios) that the allocator zeroes because init_on_alloc is on or the
 * caller passed __GFP_ZERO. Such a record also marks the enclosing fault as
 * huge (threads.c), as a THP clear does: since Linux 6.13 the allocator's
 * zeroing is the only one a huge page gets when init_on_alloc is on.
 * Registered disabled at load and enabled per session, like the fault probe.
 */
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <asm/msr.h>
#include "latmon.h"

struct zero_data {
	u64 tsc;
	u32 order;
	u32 flags;
	u32 gfp;
	u32 mark;			/* thread's huge-page marks at entry */
};

static struct latmon_source_status zero_status;

/* The probed allocation paths, see compat.h; the first one is required. */
static struct {
	const char *symbol;
	u32 flags;			/* LATMON_ZERO_F_* added to its records */
	struct latmon_krp krp;
} zp[] = {
	{ .symbol = LATMON_ALLOC_ZERO_SYMBOL },
	{ .symbol = LATMON_ALLOC_ZERO_COMPACT_SYMBOL, .flags = LATMON_ZERO_F_COMPACT },
};

/* LATMON_ZERO_F_* if the allocator will zero this allocation, else 0. */
static u32 zero_flags(unsigned int order, gfp_t gfp)
{
	const gfp_t user_folio = __GFP_MOVABLE | __GFP_COMP;
	u32 f = 0;

	if (!order || (gfp & user_folio) != user_folio || !latmon_alloc_zeroes(gfp))
		return 0;
	if (latmon_init_on_alloc())
		f |= LATMON_ZERO_F_INIT_ON_ALLOC;
	if (gfp & __GFP_ZERO)
		f |= LATMON_ZERO_F_GFP_ZERO;
	return f;
}

/* The thread's count of huge-page marks (threads.c), 0 if it has no slot. */
static u32 zero_mark(void)
{
	struct latmon_thread *t = latmon_thread_get(current->pid, true);

	return t ? READ_ONCE(t->thp_clears) : 0;
}

static int zero_entry(struct kretprobe_instance *ri, struct pt_regs *regs, u32 extra)
{
	struct zero_data *d = (struct zero_data *)ri->data;
	unsigned int order = regs_get_kernel_argument(regs, LATMON_ALLOC_ZERO_ORDER_ARG);
	gfp_t gfp = (__force gfp_t)regs_get_kernel_argument(regs, LATMON_ALLOC_ZERO_GFP_ARG);

	if (!order || !in_task() || !latmon_is_target(current))
		return 1;		/* no return probe */
	d->flags = zero_flags(order, gfp);
	if (!d->flags)
		return 1;
	d->flags |= extra;
	d->order = order;
	d->gfp = (__force u32)gfp;
	d->mark = zero_mark();
	d->tsc = rdtsc_ordered();
	return 0;
}

static int freelist_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return zero_entry(ri, regs, zp[0].flags);
}

static int compact_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return zero_entry(ri, regs, zp[1].flags);
}

static int zero_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const struct zero_data *d = (const struct zero_data *)ri->data;
	u64 end = rdtsc_ordered();
	struct latmon_thread *t;
	struct latmon_event ev;

	if (!regs_return_value(regs) || !latmon_is_target(current))
		return 0;		/* no page, or the session stopped meanwhile */
	t = latmon_thread_get(current->pid, true);
	if (t && (d->flags & LATMON_ZERO_F_COMPACT) && READ_ONCE(t->thp_clears) != d->mark)
		return 0;	/* not captured: taken from the free lists, recorded there */
	if (t)
		WRITE_ONCE(t->thp_clears, t->thp_clears + 1);
	else
		atomic64_inc(&zero_status.misses);	/* fault not marked huge */
	latmon_event_init(&ev, LATMON_EV_ALLOC_ZERO, current);
	ev.tsc_begin = d->tsc;
	ev.tsc_end = end;
	ev.u.zero.size = (u64)PAGE_SIZE << d->order;
	ev.u.zero.order = d->order;
	ev.u.zero.flags = d->flags;
	ev.u.zero.gfp = d->gfp;
	latmon_ring_write(&ev);
	return 0;
}

static int zero_attach(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(zp); i++) {
		ret = zp[i].krp.registered ? latmon_krp_enable(&zp[i].krp) : 0;
		if (ret) {
			while (i-- > 0)
				if (zp[i].krp.registered)
					latmon_krp_disable(&zp[i].krp);
			return ret;
		}
	}
	return 0;
}

static void zero_detach(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(zp); i++)
		if (zp[i].krp.registered)
			latmon_krp_disable(&zp[i].krp);
}

/* Register the kretprobe of zp[i], disabled. 0 or -errno. */
static int zero_register(unsigned int i, kretprobe_handler_t entry)
{
	return latmon_krp_register(&zp[i].krp, zp[i].symbol, entry, zero_return,
				   sizeof(struct zero_data), 0);
}

/*
 * Unavailable without the free-list probe; without the compaction one
 * (inlined, or no CONFIG_COMPACTION) the pages compaction captures are not
 * seen, which the reason says.
 */
static int zero_resolve(struct latmon_source_status *st)
{
	int ret = zero_register(0, freelist_entry), ret2;

	st->symbol = zp[0].symbol;
	if (ret) {
		st->missing = 1;
		snprintf(st->reason, sizeof(st->reason),
			 "register_kretprobe(%s) failed: %d", zp[0].symbol, ret);
		return 0;
	}
	st->available = true;
	ret2 = zero_register(1, compact_entry);
	if (ret2) {
		st->missing = 1;
		snprintf(st->reason, sizeof(st->reason),
			 "register_kretprobe(%s) failed: %d; pages captured by compaction are not seen",
			 zp[1].symbol, ret2);
	}
	return 0;
}

static void zero_release(void)
{
	unsigned int i;

	for (i = ARRAY_SIZE(zp); i-- > 0;)
		latmon_krp_unregister(&zp[i].krp);
}

static u64 zero_misses(void)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(zp); i++)
		n += latmon_krp_misses(&zp[i].krp);
	return n;
}

const struct latmon_source_ops latmon_src_zero = {
	.name = "alloc-zero",
	.id = LATMON_SRC_ALLOC_ZERO,
	.status = &zero_status,
	.resolve = zero_resolve,
	.attach = zero_attach,
	.detach = zero_detach,
	.release = zero_release,
	.misses = zero_misses,
};
