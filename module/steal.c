// SPDX-License-Identifier: GPL-2.0
/*
 * Steal time for the irq source: at each tick that interrupts a target
 * thread (ticks.c), this CPU's steal as the tick accounted it (kcpustat's
 * CPUTIME_STEAL, ns, exported; the tick reads the hypervisor's steal clock
 * into it just before); one LATMON_EV_STEAL record with the amount for
 * each window where it moved.
 *
 * The per-CPU kvm_steal_time would be exact at any moment, but
 * paravirt_steal_clock() is an inline over a static call that a module
 * cannot link; kcpustat is as exact, at tick granularity. Untested on a
 * hypervisor with a steal clock (the test bed's TCG has none):
 * steal_fake_ns below drives the path with synthetic steal.
 */
#include <linux/kernel_stat.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include "latmon.h"

struct steal_cpu {
	struct latmon_tick_window win;	/* value: the steal, ns (with the fake part) */
	u64 fake;			/* synthetic steal added so far */
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

void latmon_steal_tick(u64 tsc)
{
	struct steal_cpu *s = this_cpu_ptr(&steal_state);
	struct latmon_event ev;
	u64 clock, begin, moved;

	s->fake += READ_ONCE(steal_fake_ns);
	clock = kcpustat_this_cpu->cpustat[CPUTIME_STEAL] + s->fake;
	moved = latmon_window_next(&s->win, tsc, clock, &begin);
	if (!moved)
		return;
	latmon_event_init(&ev, LATMON_EV_STEAL, current);
	ev.tsc_begin = begin;
	ev.tsc_end = tsc;
	ev.u.steal.steal_ns = moved;
	ev.u.steal.clock_ns = clock;
	latmon_ring_write(&ev);
}

void latmon_steal_end(void)
{
	this_cpu_write(steal_state.win.tid, 0);
}
