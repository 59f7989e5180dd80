// SPDX-License-Identifier: GPL-2.0
/*
 * Steal time for the irq source: at each tick that interrupts a target
 * thread, this CPU's steal as the tick accounted it (kcpustat's
 * CPUTIME_STEAL, ns, exported; the tick reads the hypervisor's steal clock
 * into it just before). Two ticks in a row on the same target with no
 * switch of a target between them bound a window where the thread was
 * current all along: when its steal moved, one LATMON_EV_STEAL record
 * [previous tick, this tick] with the amount. A switch of a target on the
 * CPU (sched source) ends the readings; windows longer than two ticks
 * (the tick stopped, or an older session) are dropped.
 *
 * The per-CPU kvm_steal_time would be exact at any moment, but
 * paravirt_steal_clock() is an inline over a static call that a module
 * cannot link; kcpustat is as exact, at tick granularity. Untested on a
 * hypervisor with a steal clock (the test bed's TCG has none):
 * steal_fake_ns below drives the path with synthetic steal.
 */
#include <linux/kernel_stat.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include "latmon.h"

struct steal_cpu {
	u64 tick_tsc;		/* the last tick that read it */
	u64 clock;		/* the steal then, ns (with the fake part) */
	u64 fake;		/* synthetic steal added so far */
	pid_t tid;		/* the target that tick interrupted; 0: none */
};

static DEFINE_PER_CPU(struct steal_cpu, steal_state);

/*
 * Test hook of the VM suite (tests/vm/t-52-steal.sh): every tick reading
 * of a target counts this much more steal, as if the hypervisor had taken
 * it since the tick before. 0 (default): off.
 */
static unsigned int steal_fake_ns;
module_param(steal_fake_ns, uint, 0644);
MODULE_PARM_DESC(steal_fake_ns, "test only: synthetic steal (ns) added at each tick reading of a target");

u64 latmon_steal_max_window(void)
{
	return div_u64(2ULL * tsc_khz * TICK_NSEC, NSEC_PER_MSEC);
}

void latmon_steal_tick(void)
{
	struct steal_cpu *s = this_cpu_ptr(&steal_state);
	u64 tsc = rdtsc_ordered(), clock;
	struct latmon_event ev;

	if (!latmon_is_target(current)) {
		s->tid = 0;
		return;
	}
	s->fake += READ_ONCE(steal_fake_ns);
	clock = kcpustat_this_cpu->cpustat[CPUTIME_STEAL] + s->fake;
	if (s->tid == current->pid && clock > s->clock && tsc > s->tick_tsc &&
	    tsc - s->tick_tsc <= latmon_steal_max_window()) {
		latmon_event_init(&ev, LATMON_EV_STEAL, current);
		ev.tsc_begin = s->tick_tsc;
		ev.tsc_end = tsc;
		ev.u.steal.steal_ns = clock - s->clock;
		ev.u.steal.clock_ns = clock;
		latmon_ring_write(&ev);
	}
	s->tick_tsc = tsc;
	s->clock = clock;
	s->tid = current->pid;
}

void latmon_steal_switch(void)
{
	this_cpu_write(steal_state.tid, 0);
}
