// SPDX-License-Identifier: GPL-2.0
/*
 * Source "fault": a kretprobe on handle_mm_fault(vma, address, flags, regs)
 * records each page fault of a target thread, entry and exit TSC, address,
 * the FAULT_FLAG_* argument and the vm_fault_t result, and its kind from
 * the page table before and after (fault_kind.c) with the mapping it was
 * on. The record is written at exit, on the CPU where the fault ends (a
 * fault can sleep and migrate).
 *
 * The kretprobe is registered once, disabled, at load and only enabled while
 * a session runs: unregistering and registering it again while the target
 * faults crashed 6.1 and 6.12 (a return through a freed rethook), and a
 * disabled ftrace-based probe costs nothing on the fault path.
 */
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/cpumask.h>
#include <asm/msr.h>
#include "latmon.h"
#include "fault_kind.h"

#define FAULT_SYMBOL	"handle_mm_fault"

struct fault_data {
	u64 tsc;
	unsigned long address;
	unsigned int flags;
	u32 thp_mark;			/* thread's THP clear count at entry */
	struct latmon_thread *thread;	/* the faulting target's slot */
	struct latmon_fault_in in;	/* what the fault found */
	bool kinds;			/* fault_kinds at entry */
};

/* The mapping and the page table entry the fault begins with. */
static void fault_find(struct fault_data *d, struct vm_area_struct *vma)
{
	memset(&d->in, 0, sizeof(d->in));
	d->in.write = d->flags & FAULT_FLAG_WRITE;
	d->in.tried = d->flags & FAULT_FLAG_TRIED;
	if (!vma || vma->vm_mm != current->mm)
		return;
	d->in.map = latmon_map_of(vma, &d->in.ino);
	d->in.file = vma->vm_file;
	latmon_pte_read(vma->vm_mm, d->address, &d->in.before);
}

/*
 * Whether each fault's kind is read from the page table (fault_kind.c):
 * writable, so that one boot can time a fault with and without it
 * (tests/vm/x-30-kindcost.sh); off, records say no kind (0).
 */
static bool fault_kinds = true;
module_param(fault_kinds, bool, 0644);
MODULE_PARM_DESC(fault_kinds, "read each fault's kind from the page table (default on)");

static struct latmon_source_status fault_status;
static struct latmon_krp fault_krp;

static int fault_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fault_data *d = (struct fault_data *)ri->data;
	struct latmon_thread *t;

	if (!READ_ONCE(latmon_target_tgid))
		return 1;		/* no return probe: no session */
	t = latmon_thread_find(current->pid);
	if (!t)
		return 1;		/* nor for other tasks */
	d->address = regs_get_kernel_argument(regs, 1);
	d->flags = regs_get_kernel_argument(regs, 2);
	d->thread = t;
	d->thp_mark = READ_ONCE(t->thp_clears);
	d->kinds = READ_ONCE(fault_kinds);
	if (d->kinds)
		fault_find(d, (struct vm_area_struct *)regs_get_kernel_argument(regs, 0));
	d->tsc = rdtsc_ordered();
	return 0;
}

/* LATMON_FAULT_F_* from the FAULT_FLAG_* argument and the result. */
static u32 fault_decode(const struct fault_data *d, vm_fault_t ret)
{
	u32 f = 0;

	if (d->flags & FAULT_FLAG_WRITE)
		f |= LATMON_FAULT_F_WRITE;
	if (d->flags & FAULT_FLAG_USER)
		f |= LATMON_FAULT_F_USER;
	if (d->flags & FAULT_FLAG_INSTRUCTION)
		f |= LATMON_FAULT_F_INSTRUCTION;
	if (ret & VM_FAULT_RETRY)
		f |= LATMON_FAULT_F_RETRY;
	if (ret & VM_FAULT_ERROR)
		f |= LATMON_FAULT_F_ERROR;
	if ((ret & VM_FAULT_MAJOR) || (d->flags & FAULT_FLAG_TRIED))
		f |= LATMON_FAULT_F_MAJOR;
	if (READ_ONCE(d->thread->thp_clears) != d->thp_mark)
		f |= LATMON_FAULT_F_HUGE;
	return f;
}

/* The record's kind, mapping and inode: the entry after the fault. */
static void fault_kind_of(const struct fault_data *d, vm_fault_t ret, struct latmon_event *ev)
{
	struct latmon_pte after;

	memset(&after, 0, sizeof(after));
	/* the mapping was current's and the fault still holds its lock */
	if (d->in.map && !(ret & (VM_FAULT_RETRY | VM_FAULT_COMPLETED)))
		latmon_pte_read(current->mm, d->address, &after);
	ev->u.fault.kind = latmon_fault_kind(&d->in, &after, ret, &ev->u.fault.why);
	ev->u.fault.map = d->in.map;
	ev->u.fault.ino = d->in.ino;
}

static int fault_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const struct fault_data *d = (const struct fault_data *)ri->data;
	vm_fault_t ret = regs_return_value(regs);
	u64 end = rdtsc_ordered();
	struct latmon_event ev;

	if (!READ_ONCE(latmon_target_tgid) || READ_ONCE(d->thread->tid) != current->pid)
		return 0;		/* the session stopped meanwhile */
	latmon_event_init(&ev, LATMON_EV_FAULT, current);
	ev.tsc_begin = d->tsc;
	ev.tsc_end = end;
	ev.u.fault.address = d->address;
	ev.u.fault.fault_flags = d->flags;
	ev.u.fault.result = (__force u32)ret;
	ev.u.fault.flags = fault_decode(d, ret);
	if (d->kinds)
		fault_kind_of(d, ret, &ev);
	latmon_ring_write(&ev);
	return 0;
}

/*
 * Faults that may be in flight at once, system-wide; one more is a probe
 * miss (counted, reported as LATMON_SRC_A_MISSES). The VM suite sets 1 to
 * provoke misses (tests/vm/t-56-misses.sh).
 */
static unsigned int fault_maxactive;
module_param(fault_maxactive, uint, 0444);
MODULE_PARM_DESC(fault_maxactive, "kretprobe instances for handle_mm_fault (default 64 + 4 per CPU)");

static int fault_attach(void)
{
	return latmon_krp_enable(&fault_krp);
}

static void fault_detach(void)
{
	latmon_krp_disable(&fault_krp);
}

/* Register the kretprobe, disabled; unavailable (with the reason) if it fails. */
static int fault_resolve(struct latmon_source_status *st)
{
	int ret;

	st->symbol = FAULT_SYMBOL;
	ret = latmon_krp_register(&fault_krp, FAULT_SYMBOL, fault_entry, fault_return,
				  sizeof(struct fault_data), fault_maxactive);
	if (ret) {
		st->missing = 1;
		snprintf(st->reason, sizeof(st->reason),
			 "register_kretprobe(%s) failed: %d", FAULT_SYMBOL, ret);
		return 0;
	}
	st->available = true;
	return 0;
}

static void fault_release(void)
{
	latmon_krp_unregister(&fault_krp);
}

static u64 fault_misses(void)
{
	return latmon_krp_misses(&fault_krp);
}

const struct latmon_source_ops latmon_src_fault = {
	.id = LATMON_SRC_FAULT,
	.status = &fault_status,
	.resolve = fault_resolve,
	.attach = fault_attach,
	.detach = fault_detach,
	.release = fault_release,
	.misses = fault_misses,
};
