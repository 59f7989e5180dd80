// SPDX-License-Identifier: GPL-2.0
/*
 * Source "wait": what a blocked target thread waited for.
 * - sched_waking: who woke a target thread, from which CPU (one record at
 *   the wake-up, on the waker's CPU); user space pairs it with the blocked
 *   switch-out of the sched source that it ends.
 * - mmap_lock_start_locking / mmap_lock_acquire_returned: an mmap_lock
 *   acquisition during which the thread slept (its voluntary switch count
 *   rose), one record from start to return. Acquisitions without a sleep
 *   leave nothing, so an uncontended lock costs no record.
 * - tlb_flush: TLB shoot-downs a target thread sent (TLB_REMOTE_SEND_IPI) or
 *   that hit a CPU while a target thread was current (TLB_REMOTE_SHOOTDOWN).
 * Each tracepoint that this kernel lacks is only named in the reason.
 */
#include <linux/sched.h>
#include <linux/mm_types.h>
#include <linux/string.h>
#include <asm/msr.h>
#include "latmon.h"

static struct latmon_source_status wait_status;

static void waking_probe(void *data, struct task_struct *p)
{
	struct latmon_event ev;

	if (!latmon_is_target(p))
		return;
	latmon_event_init(&ev, LATMON_EV_WAKE, p);
	ev.tsc_begin = rdtsc_ordered();
	ev.tsc_end = ev.tsc_begin;
	ev.u.wake.waker_cpu = smp_processor_id();
	ev.u.wake.target_cpu = task_cpu(p);
	ev.u.wake.flags = (in_task() ? 0 : LATMON_WAKE_F_IRQ) |
			  (latmon_is_target(current) ? LATMON_WAKE_F_TARGET : 0);
	ev.u.wake.waker_pid = latmon_vpid(current);
	memcpy(ev.u.wake.waker_comm, current->comm, sizeof(ev.u.wake.waker_comm));
	ev.u.wake.waker_comm[sizeof(ev.u.wake.waker_comm) - 1] = '\0';
	latmon_ring_write(&ev);
}

static void lock_start_probe(void *data, struct mm_struct *mm,
			     const char *memcg_path, bool write)
{
	struct latmon_thread *t;

	if (!READ_ONCE(latmon_target_tgid) || !in_task())
		return;
	t = latmon_thread_find(current->pid);
	if (!t)
		return;
	t->lock_nvcsw = current->nvcsw;
	t->lock_flags = write ? LATMON_LOCK_F_WRITE : 0;
	WRITE_ONCE(t->lock_tsc, rdtsc_ordered());
}

static void lock_done_probe(void *data, struct mm_struct *mm,
			    const char *memcg_path, bool write, bool success)
{
	struct latmon_thread *t;
	struct latmon_event ev;
	u64 begin;

	if (!READ_ONCE(latmon_target_tgid) || !in_task())
		return;
	t = latmon_thread_find(current->pid);
	begin = t ? READ_ONCE(t->lock_tsc) : 0;
	if (!begin)
		return;		/* a trylock, or started before START */
	WRITE_ONCE(t->lock_tsc, 0);
	if (current->nvcsw == t->lock_nvcsw)
		return;		/* did not sleep: no contention to report */
	latmon_event_init(&ev, LATMON_EV_LOCK, current);
	ev.tsc_begin = begin;
	ev.tsc_end = rdtsc_ordered();
	ev.u.lock.kind = LATMON_LOCK_MMAP;
	ev.u.lock.flags = t->lock_flags | (success ? 0 : LATMON_LOCK_F_FAILED);
	ev.u.lock.sleeps = current->nvcsw - t->lock_nvcsw;
	latmon_ring_write(&ev);
}

static void tlb_probe(void *data, int reason, unsigned long pages)
{
	struct latmon_event ev;
	u32 kind;

	if (reason == TLB_REMOTE_SEND_IPI)
		kind = LATMON_TLB_SENT;
	else if (reason == TLB_REMOTE_SHOOTDOWN)
		kind = LATMON_TLB_RECEIVED;
	else
		return;
	if (!latmon_is_target(current))
		return;
	latmon_event_init(&ev, LATMON_EV_TLB, current);
	ev.tsc_begin = rdtsc_ordered();
	ev.tsc_end = ev.tsc_begin;
	ev.u.tlb.kind = kind;
	ev.u.tlb.pages = pages;
	latmon_ring_write(&ev);
}

static struct latmon_tp wait_tps[] = {
	{ .name = "sched_waking", .probe = waking_probe },
	{ .name = "mmap_lock_start_locking", .probe = lock_start_probe },
	{ .name = "mmap_lock_acquire_returned", .probe = lock_done_probe },
	{ .name = "tlb_flush", .probe = tlb_probe },
};

/* Available if any tracepoint exists; the two mmap_lock ones go together. */
static bool wait_available(struct latmon_tp *tps)
{
	bool any = tps[0].tp || tps[1].tp || tps[2].tp || tps[3].tp;

	if (!tps[1].tp || !tps[2].tp) {
		tps[1].tp = NULL;
		tps[2].tp = NULL;
	}
	return any;
}

static const struct latmon_tp_source wait_source = {
	.tps = wait_tps,
	.n = ARRAY_SIZE(wait_tps),
	.available = wait_available,
};

const struct latmon_source_ops latmon_src_wait = {
	.id = LATMON_SRC_WAIT,
	.status = &wait_status,
	.tp = &wait_source,
};
