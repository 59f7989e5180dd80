// SPDX-License-Identifier: GPL-2.0
/*
 * Readings of per-CPU counters at the ticks of a target thread, for the irq
 * source: the steal clock (steal.c) and the SMI count (smi.c), each over
 * the window of window.c. One target lookup per tick for both.
 */
#include <linux/sched.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include "latmon.h"

/* A tick (local_timer_exit) on this CPU: one target lookup for both. */
void latmon_ticks(void)
{
	u64 tsc;

	if (!latmon_is_target(current)) {
		latmon_ticks_end();
		return;
	}
	tsc = rdtsc_ordered();
	latmon_steal_tick(tsc);
	latmon_smi_tick(tsc);
}

void latmon_ticks_end(void)
{
	latmon_steal_end();
	latmon_smi_end();
}
