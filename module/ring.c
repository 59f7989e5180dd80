// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU record rings. Each CPU's ring has exactly one writer, the probes
 * running on that CPU, and one reader, read() under latmon_mutex. The probe
 * path takes no lock and wakes nobody: head is published with a release
 * store, tail with a release store by the reader.
 *
 * Probes nest on one CPU (an interrupt or NMI tracepoint firing while a fault
 * probe writes): a nested writer does not touch the ring, it parks its event
 * in one of DEFER_MAX per-CPU slots and the interrupted writer appends it
 * before it returns; beyond DEFER_MAX nested events are dropped and counted.
 * Dropped events (ring full or nesting too deep) are reported in the stream
 * by a LATMON_EV_LOST record written before the next event. One slot
 * is always kept free so that the lost record of a ring that stays full can
 * still be appended at STOP (latmon_rings_flush_lost).
 */
#include <linux/percpu.h>
#include <linux/vmalloc.h>
#include <linux/uaccess.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <asm/local.h>
#include <asm/msr.h>
#include "latmon.h"

/*
 * An interrupt taken during a write brings its entry and exit, its
 * softirqs' and their wakeups (a dozen events); under emulation a write can
 * see several interrupts.
 */
#define DEFER_MAX	32

struct latmon_ring {
	struct latmon_event *slots;	/* NULL before the first START */
	unsigned long mask;		/* slots - 1 */
	unsigned long head;		/* next slot to write; writer only */
	unsigned long tail;		/* next slot to read; reader only */
	u64 seq;			/* next record number; writer only */
	local_t nest;			/* writers active on this CPU */
	local_t pending;		/* dropped, not yet in a lost record */
	u64 drop_first, drop_last;	/* TSC window of the pending drops */
	local_t recorded, dropped, lost_records;
	u64 read;			/* reader only */
	local_t ndefer;			/* nested events parked in defer[] */
	struct latmon_event defer[DEFER_MAX];
};

static struct latmon_ring __percpu *rings;
static unsigned int read_start_cpu;

/* Records copied to user space have no padding hole. */
#include "../include/latmon_layout.h"

int latmon_rings_init(void)
{
	rings = alloc_percpu(struct latmon_ring);
	return rings ? 0 : -ENOMEM;
}

/* Free every CPU's slots; no writer or reader may be active. */
static void rings_free_slots(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct latmon_ring *r = per_cpu_ptr(rings, cpu);

		vfree(r->slots);
		memset(r, 0, sizeof(*r));
	}
}

void latmon_rings_exit(void)
{
	rings_free_slots();
	free_percpu(rings);
}

/* Replace the rings with empty ones of @slots records each (a power of 2). */
int latmon_rings_alloc(u32 slots)
{
	size_t bytes = (size_t)slots * sizeof(struct latmon_event);
	unsigned int cpu;

	rings_free_slots();
	for_each_possible_cpu(cpu) {
		struct latmon_ring *r = per_cpu_ptr(rings, cpu);

		r->slots = vzalloc_node(bytes, cpu_to_node(cpu));
		if (!r->slots) {
			rings_free_slots();
			return -ENOMEM;
		}
		r->mask = slots - 1;
	}
	return 0;
}

/* Copy @ev into the next slot, stamping size, CPU and sequence number. */
static void ring_put(struct latmon_ring *r, unsigned int cpu,
		     struct latmon_event *ev, unsigned long *head)
{
	ev->size = sizeof(*ev);
	ev->cpu = cpu;
	ev->seq = r->seq++;
	memcpy(&r->slots[*head & r->mask], ev, sizeof(*ev));
	(*head)++;
}

/* Build the lost record for the pending drops of @r. */
static void lost_init(struct latmon_event *lost, struct latmon_ring *r,
		      unsigned int cpu, long count)
{
	memset(lost, 0, sizeof(*lost));
	lost->type = LATMON_EV_LOST;
	lost->tsc_begin = r->drop_first;
	lost->tsc_end = r->drop_last;
	lost->u.lost.count = count;
	lost->u.lost.cpu = cpu;
}

/* Count one dropped event at time @tsc. */
static void ring_drop(struct latmon_ring *r, u64 tsc)
{
	local_inc(&r->dropped);
	if (local_inc_return(&r->pending) == 1)
		r->drop_first = tsc;
	r->drop_last = tsc;
}

/* Append a lost record (if drops are pending) and @ev, or drop @ev. */
static void ring_write_locked(struct latmon_ring *r, unsigned int cpu,
			      struct latmon_event *ev)
{
	unsigned long head = r->head;
	/* pairs with ring_read_one's release of tail: those slots are copied */
	unsigned long used = head - smp_load_acquire(&r->tail);
	long pending = local_read(&r->pending);
	struct latmon_event lost;

	/* keep one slot free after writing, for a lost record at STOP */
	if (!r->slots || used + (pending ? 3 : 2) > r->mask + 1) {
		ring_drop(r, ev->tsc_end);
		return;
	}
	if (pending) {
		lost_init(&lost, r, cpu, pending);
		ring_put(r, cpu, &lost, &head);
		local_sub(pending, &r->pending);
		local_inc(&r->lost_records);
	}
	ring_put(r, cpu, ev, &head);
	local_inc(&r->recorded);
	/* the slot is written before ring_read_one's acquire of head sees it */
	smp_store_release(&r->head, head);
}

/* A nested writer: park @ev for the interrupted writer, or drop it. */
static void ring_defer(struct latmon_ring *r, struct latmon_event *ev)
{
	long i = local_inc_return(&r->ndefer) - 1;

	if (i >= DEFER_MAX)
		ring_drop(r, ev->tsc_end);
	else
		memcpy(&r->defer[i], ev, sizeof(*ev));
}

/*
 * The outermost writer appends what nested writers parked meanwhile. Those
 * ran to completion before it resumed; more may arrive while it flushes,
 * hence the cmpxchg loop.
 */
static void ring_flush_deferred(struct latmon_ring *r, unsigned int cpu)
{
	long n, done = 0;

	for (;;) {
		n = local_read(&r->ndefer);
		for (; done < n; done++)
			if (done < DEFER_MAX)
				ring_write_locked(r, cpu, &r->defer[done]);
		if (local_cmpxchg(&r->ndefer, n, 0) == n)
			return;
	}
}

/*
 * Record @ev (zeroed, then filled by the caller) on this CPU's ring. Safe in
 * any context, including NMI; never sleeps, locks or wakes.
 */
void latmon_ring_write(struct latmon_event *ev)
{
	struct latmon_ring *r;
	unsigned int cpu;

	preempt_disable_notrace();
	r = this_cpu_ptr(rings);
	if (local_inc_return(&r->nest) == 1) {
		barrier();
		cpu = smp_processor_id();
		ring_write_locked(r, cpu, ev);
		ring_flush_deferred(r, cpu);
		barrier();
	} else {
		ring_defer(r, ev);
	}
	local_dec(&r->nest);
	preempt_enable_notrace();
}

/*
 * Append the lost record of every ring that still has pending drops. Called
 * at STOP once no probe can run; the slot kept free guarantees room.
 */
void latmon_rings_flush_lost(void)
{
	struct latmon_event lost;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct latmon_ring *r = per_cpu_ptr(rings, cpu);
		long pending = local_read(&r->pending);
		unsigned long head = r->head, used;

		if (!pending || !r->slots)
			continue;
		/* pairs with ring_read_one's release of tail */
		used = head - smp_load_acquire(&r->tail);
		if (used > r->mask)
			continue;
		lost_init(&lost, r, cpu, pending);
		ring_put(r, cpu, &lost, &head);
		local_set(&r->pending, 0);
		local_inc(&r->lost_records);
		/* the lost record is written before the reader sees head */
		smp_store_release(&r->head, head);
	}
}

/* Copy up to @n whole records of one ring to @buf; returns records or -errno. */
static long ring_read_one(struct latmon_ring *r, char __user *buf, size_t n)
{
	unsigned long head, tail, idx, chunk;
	size_t done = 0;

	while (done < n && r->slots) {
		/* pairs with the writer's release of head: slots are written */
		head = smp_load_acquire(&r->head);
		tail = r->tail;
		if (head == tail)
			break;
		idx = tail & r->mask;
		chunk = min3(head - tail, (unsigned long)(n - done),
			     r->mask + 1 - idx);
		if (copy_to_user(buf + done * sizeof(struct latmon_event),
				 &r->slots[idx],
				 chunk * sizeof(struct latmon_event)))
			return done ? (long)done : -EFAULT;
		/* the copy is done before the writer reuses the slots */
		smp_store_release(&r->tail, tail + chunk);
		r->read += chunk;
		done += chunk;
	}
	return done;
}

/*
 * Copy whole records from all rings, starting with a different CPU each call
 * so that no ring starves. Caller holds latmon_mutex. Returns bytes, 0 if all
 * rings are empty, or -EFAULT.
 */
ssize_t latmon_rings_read(char __user *buf, size_t count)
{
	size_t n = count / sizeof(struct latmon_event), done = 0;
	unsigned int i, cpu = 0;
	long got;

	for (i = 0; i < nr_cpu_ids && done < n; i++) {
		cpu = (read_start_cpu + i) % nr_cpu_ids;
		if (!cpu_possible(cpu))
			continue;
		got = ring_read_one(per_cpu_ptr(rings, cpu),
				    buf + done * sizeof(struct latmon_event),
				    n - done);
		if (got < 0) {
			if (!done)
				return got;
			break;
		}
		done += got;
	}
	read_start_cpu = (cpu + 1) % nr_cpu_ids;
	return done * sizeof(struct latmon_event);
}

/* True if no ring holds an unread record (lockless; used to wait/poll). */
bool latmon_rings_empty(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct latmon_ring *r = per_cpu_ptr(rings, cpu);

		/* pairs with the writer's release of head */
		if (smp_load_acquire(&r->head) != READ_ONCE(r->tail))
			return false;
	}
	return true;
}

void latmon_ring_stats(unsigned int cpu, struct latmon_ring_stats *st)
{
	struct latmon_ring *r = per_cpu_ptr(rings, cpu);

	st->recorded = local_read(&r->recorded);
	st->dropped = local_read(&r->dropped);
	st->read = READ_ONCE(r->read);
	st->lost_records = local_read(&r->lost_records);
}
