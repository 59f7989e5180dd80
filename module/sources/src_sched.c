// SPDX-License-Identifier: GPL-2.0
/*
 * Source "sched": sched_switch gives, for each time a target thread leaves a
 * CPU and comes back, one record from switch-out to switch-in with preempted
 * or blocked and the task that ran instead; sched_migrate_task gives
 * migrations. The switch-out half is kept in the thread table (threads.c).
 */
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/msr.h>
#include "latmon.h"

static struct latmon_source_status sched_status;

/* One record for the time @t was out, from out (its switch-out) to @tsc. */
static void sched_record(struct latmon_thread *t, struct task_struct *task,
			 u64 out, u64 tsc, u32 flags)
{
	struct latmon_event ev;

	latmon_event_init(&ev, LATMON_EV_SCHED, task);
	ev.tsc_begin = out;
	ev.tsc_end = tsc;
	ev.u.sched.flags = t->out_flags | flags;
	ev.u.sched.other_pid = t->other_pid;
	memcpy(ev.u.sched.other_comm, t->other_comm, sizeof(ev.u.sched.other_comm));
	ev.u.sched.out_cpu = t->out_cpu;
	ev.u.sched.prev_state = t->out_state;
	WRITE_ONCE(t->out_tsc, 0);
	latmon_ring_write(&ev);
}

/*
 * Target thread @t (current) leaves the CPU: remember when, why and who
 * runs next. A switch-out still open had its switch-in unreported: its
 * record ends here, marked.
 */
static void switched_out(struct latmon_thread *t, struct task_struct *prev,
			 struct task_struct *next, bool preempt,
			 unsigned int prev_state, u64 tsc)
{
	/* pairs with the smp_store_release below, on another CPU before */
	u64 open = smp_load_acquire(&t->out_tsc);

	if (open)
		sched_record(t, prev, open, tsc, LATMON_SCHED_F_IN_MISSED);
	t->out_cpu = smp_processor_id();
	t->out_state = prev_state;
	t->out_flags = (preempt || prev_state == TASK_RUNNING) ?
		       LATMON_SCHED_F_PREEMPTED : 0;
	t->other_pid = latmon_vpid(next);
	memcpy(t->other_comm, next->comm, TASK_COMM_LEN);
	t->other_comm[TASK_COMM_LEN - 1] = '\0';
	/*
	 * the fields above are written before out_tsc says a switch-out
	 * happened: pairs with switched_in's smp_load_acquire
	 */
	smp_store_release(&t->out_tsc, tsc);
}

/* A target thread comes back: one record for the whole time it was out. */
static void switched_in(struct latmon_thread *t, struct task_struct *next,
			u64 tsc)
{
	/* pairs with switched_out's smp_store_release of out_tsc */
	u64 out = smp_load_acquire(&t->out_tsc);

	if (out)		/* 0: switched out before START */
		sched_record(t, next, out, tsc, 0);
}

static void sched_switch_probe(void *data, LATMON_SCHED_SWITCH_ARGS)
{
	struct latmon_thread *out, *in;
	u64 tsc;

	if (!READ_ONCE(latmon_target_tgid))
		return;
	out = latmon_thread_find(prev->pid);
	in = latmon_thread_find(next->pid);
	if (!out && !in)
		return;
	tsc = rdtsc_ordered();
	latmon_ticks_end();
	if (out)
		switched_out(out, prev, next, preempt, prev_state, tsc);
	if (in)
		switched_in(in, next, tsc);
}

static void sched_migrate_probe(void *data, struct task_struct *p, int dest_cpu)
{
	struct latmon_event ev;

	if (!latmon_is_target(p))
		return;
	latmon_event_init(&ev, LATMON_EV_MIGRATE, p);
	ev.tsc_begin = rdtsc_ordered();
	ev.tsc_end = ev.tsc_begin;
	ev.u.migrate.from_cpu = task_cpu(p);
	ev.u.migrate.to_cpu = dest_cpu;
	latmon_ring_write(&ev);
}

static struct latmon_tp sched_tps[] = {
	{ .name = "sched_switch", .probe = sched_switch_probe },
	{ .name = "sched_migrate_task", .probe = sched_migrate_probe },
};

/* sched_switch is the source; sched_migrate_task adds migrations. */
static bool sched_available(struct latmon_tp *tps)
{
	return tps[0].tp;
}

static const struct latmon_tp_source sched_source = {
	.tps = sched_tps,
	.n = ARRAY_SIZE(sched_tps),
	.available = sched_available,
};

const struct latmon_source_ops latmon_src_sched = {
	.id = LATMON_SRC_SCHED,
	.status = &sched_status,
	.tp = &sched_source,
};
