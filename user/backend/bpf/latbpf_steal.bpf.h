/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Steal time, included by latbpf.bpf.c after its helpers: the CPU's steal
 * clock (what the hypervisor reports in the per-CPU kvm_steal_time) as the
 * scheduler last read it into its run queue, rq->prev_steal_time_rq. That
 * copy is fresh where update_rq_clock() just ran: in __schedule() before
 * sched_switch, and in the tick before local_timer_exit. The per-CPU
 * steal_time itself is out of reach where /proc/kallsyms lists no data
 * symbols (the verifier resolves a typed __ksym through kallsyms).
 *
 * A reading taken while a target thread is current, compared with the
 * previous one of the same thread on this CPU, gives one LATMON_EV_STEAL
 * record when the clock moved: the steal lies somewhere between the two.
 * The thread's switch-in starts the readings, its switch-out ends them
 * (steal while it is off the CPU is in its sched record).
 */
#ifndef LATBPF_STEAL_BPF_H
#define LATBPF_STEAL_BPF_H

/* The run queue's copy of this CPU's steal clock, reached from task t
 * (its scheduling entity's queue); 0 where the kernel keeps none
 * (CONFIG_PARAVIRT_TIME_ACCOUNTING) or the path is not there
 * (CONFIG_FAIR_GROUP_SCHED): the checks are relocated at load, so such a
 * kernel loads the programs without this code. */
static __always_inline __u64 steal_clock_of(struct task_struct *t)
{
	struct rq *rq;

	if (!bpf_core_field_exists(struct rq, prev_steal_time_rq) ||
	    !bpf_core_field_exists(struct sched_entity, cfs_rq) ||
	    !bpf_core_field_exists(struct cfs_rq, rq))
		return 0;
	rq = BPF_CORE_READ(t, se.cfs_rq, rq);
	return rq ? BPF_CORE_READ(rq, prev_steal_time_rq) : 0;
}

/* A fresh reading for target task t (current here) at now; end: it leaves
 * the CPU. A record when the clock moved since the last reading. */
static __always_inline void steal_read(struct task_struct *t, __u64 ids, __u64 now, bool end,
				       bool batched)
{
	struct latmon_event e = { .type = LATMON_EV_STEAL };
	struct latbpf_cpu *c = this_cpu();
	__u64 clock = steal_clock_of(t);

	if (!c || !clock)
		return;
	c->steal_reads++;
	if (c->steal_at && c->steal_tid == (__u32)ids && clock > c->steal_clock) {
		e.tsc_begin = c->steal_at;
		e.tsc_end = now;
		e.u.steal.steal_ns = clock - c->steal_clock;
		e.u.steal.clock_ns = clock;
		submit_how(&e, ids, now, batched);
	}
	c->steal_at = end ? 0 : now;
	c->steal_clock = clock;
	c->steal_tid = (__u32)ids;
}

/* The tick updated the run queue's clock, steal included: a reading for
 * the target it interrupted. */
SEC("tp_btf/local_timer_exit")
int BPF_PROG(on_tick_steal, int vector)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 ids = ((__u64)(__u32)t->tgid << 32) | (__u32)t->pid;

	if (tgid_is_target(ids >> 32))
		steal_read(t, ids, bpf_ktime_get_ns(), false, false);
	return 0;
}

#endif /* LATBPF_STEAL_BPF_H */
