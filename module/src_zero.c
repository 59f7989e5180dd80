// SPDX-License-Identifier: GPL-2.0
/*
 * Source "alloc-zero": the zeroing the page allocator does itself, a
 * kretprobe on the allocation from the free lists that ends with it
 * (get_page_from_freelist, see compat.h), recorded when a page came back.
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
};

static struct latmon_source_status zero_status;
static struct kretprobe zero_rp;
static bool zero_registered;

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

static int zero_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct zero_data *d = (struct zero_data *)ri->data;
	unsigned int order = regs_get_kernel_argument(regs, LATMON_ALLOC_ZERO_ORDER_ARG);
	gfp_t gfp = (__force gfp_t)regs_get_kernel_argument(regs, LATMON_ALLOC_ZERO_GFP_ARG);

	if (!order || !in_task() || !latmon_is_target(current))
		return 1;		/* no return probe */
	d->flags = zero_flags(order, gfp);
	if (!d->flags)
		return 1;
	d->order = order;
	d->gfp = (__force u32)gfp;
	d->tsc = rdtsc_ordered();
	return 0;
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
	zero_rp.nmissed = 0;
	zero_rp.kp.nmissed = 0;
	return enable_kretprobe(&zero_rp);
}

static void zero_detach(void)
{
	disable_kretprobe(&zero_rp);
}

/* Register the kretprobe, disabled; unavailable (with the reason) if it fails. */
static int zero_resolve(struct latmon_source_status *st)
{
	int ret;

	zero_rp.kp.symbol_name = LATMON_ALLOC_ZERO_SYMBOL;
	zero_rp.kp.flags = KPROBE_FLAG_DISABLED;
	zero_rp.entry_handler = zero_entry;
	zero_rp.handler = zero_return;
	zero_rp.data_size = sizeof(struct zero_data);
	zero_rp.maxactive = 64 + 4 * num_possible_cpus();
	st->symbol = LATMON_ALLOC_ZERO_SYMBOL;
	ret = register_kretprobe(&zero_rp);
	if (ret) {
		st->missing = 1;
		snprintf(st->reason, sizeof(st->reason),
			 "register_kretprobe(%s) failed: %d",
			 LATMON_ALLOC_ZERO_SYMBOL, ret);
		return 0;
	}
	zero_registered = true;
	st->available = true;
	return 0;
}

static void zero_release(void)
{
	if (zero_registered)
		unregister_kretprobe(&zero_rp);
	zero_registered = false;
}

static u64 zero_misses(void)
{
	return (u64)zero_rp.nmissed + zero_rp.kp.nmissed;
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
