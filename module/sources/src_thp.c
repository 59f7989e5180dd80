// SPDX-License-Identifier: GPL-2.0
/*
 * Source "thp-clear": a kretprobe on the function that zeroes a new huge page
 * (folio_zero_user or clear_huge_page, see compat.h; thp_clear_symbol=
 * overrides), recording the clear's duration, address and size, and marking
 * the enclosing fault of the same thread as huge (threads.c). Registered
 * disabled at load and enabled per session, like the fault probe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <asm/msr.h>
#include "latmon.h"

static char *thp_clear_symbol;
module_param(thp_clear_symbol, charp, 0444);
MODULE_PARM_DESC(thp_clear_symbol,
		 "huge page clear function to probe: folio_zero_user or clear_huge_page (default: the one this kernel has); loading fails if it cannot be probed");

enum thp_kind { THP_FOLIO, THP_PAGES };

struct thp_data {
	u64 tsc;
	unsigned long address;
	u64 size;
};

static struct latmon_source_status thp_status;
static struct latmon_krp thp_krp;
static const char *thp_symbol;
static enum thp_kind thp_kind;

/* Size and address of the huge page from the probed function's arguments. */
static void thp_args(struct pt_regs *regs, struct thp_data *d)
{
	unsigned long hint;

	if (thp_kind == THP_FOLIO) {
		/* folio_zero_user(struct folio *folio, unsigned long addr_hint) */
		d->size = folio_size((struct folio *)regs_get_kernel_argument(regs, 0));
		hint = regs_get_kernel_argument(regs, 1);
	} else {
		/* clear_huge_page(page, addr_hint, pages_per_huge_page) */
		hint = regs_get_kernel_argument(regs, 1);
		d->size = (u64)regs_get_kernel_argument(regs, 2) << PAGE_SHIFT;
	}
	d->address = d->size ? hint & ~(unsigned long)(d->size - 1) : hint;
}

static int thp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct thp_data *d = (struct thp_data *)ri->data;

	if (!latmon_is_target(current))
		return 1;
	thp_args(regs, d);
	d->tsc = rdtsc_ordered();
	return 0;
}

static int thp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const struct thp_data *d = (const struct thp_data *)ri->data;
	u64 end = rdtsc_ordered();
	struct latmon_thread *t;
	struct latmon_event ev;

	if (!latmon_is_target(current))
		return 0;
	t = latmon_thread_find(current->pid);
	if (t)
		WRITE_ONCE(t->thp_clears, t->thp_clears + 1);
	else
		atomic64_inc(&thp_status.misses);	/* fault not marked huge */
	latmon_event_init(&ev, LATMON_EV_THP_CLEAR, current);
	ev.tsc_begin = d->tsc;
	ev.tsc_end = end;
	ev.u.thp.address = d->address;
	ev.u.thp.size = d->size;
	latmon_ring_write(&ev);
	return 0;
}

static int thp_attach(void)
{
	return latmon_krp_enable(&thp_krp);
}

static void thp_detach(void)
{
	latmon_krp_disable(&thp_krp);
}

static void thp_release(void)
{
	latmon_krp_unregister(&thp_krp);
}

/* Register a disabled kretprobe on @sym; on success it is the source's. */
static int thp_try(const char *sym)
{
	thp_symbol = sym;
	thp_kind = strcmp(sym, "folio_zero_user") ? THP_PAGES : THP_FOLIO;
	return latmon_krp_register(&thp_krp, sym, thp_entry, thp_return,
				   sizeof(struct thp_data), 0);
}

/* Explicit thp_clear_symbol=: must be a known name that can be probed. */
static int thp_resolve_param(struct latmon_source_status *st)
{
	const char *sym = thp_clear_symbol;
	int ret;

	if (strcmp(sym, "folio_zero_user") && strcmp(sym, "clear_huge_page")) {
		pr_err("thp_clear_symbol=%s: use folio_zero_user or clear_huge_page\n", sym);
		return -EINVAL;
	}
	ret = thp_try(sym);
	if (ret) {
		pr_err("thp_clear_symbol=%s cannot be probed (%d): omit the parameter to auto-detect\n",
		       sym, ret);
		return ret;
	}
	st->symbol = sym;
	st->available = true;
	return 0;
}

static int thp_resolve(struct latmon_source_status *st)
{
	int first, second;

	if (thp_clear_symbol && thp_clear_symbol[0])
		return thp_resolve_param(st);
	first = thp_try(LATMON_THP_CLEAR_FIRST);
	second = first ? thp_try(LATMON_THP_CLEAR_SECOND) : 0;
	if (first && second) {
		st->missing = 2;
		snprintf(st->reason, sizeof(st->reason),
			 "cannot probe %s (%d) nor %s (%d)",
			 LATMON_THP_CLEAR_FIRST, first,
			 LATMON_THP_CLEAR_SECOND, second);
		return 0;
	}
	st->symbol = thp_symbol;
	st->available = true;
	return 0;
}

static u64 thp_misses(void)
{
	return latmon_krp_misses(&thp_krp);
}

const struct latmon_source_ops latmon_src_thp = {
	.id = LATMON_SRC_THP_CLEAR,
	.status = &thp_status,
	.resolve = thp_resolve,
	.attach = thp_attach,
	.detach = thp_detach,
	.release = thp_release,
	.misses = thp_misses,
};
