// SPDX-License-Identifier: GPL-2.0
/*
 * The window of a per-CPU counter read at the ticks of a target thread
 * (steal.c, smi.c; ticks.c reads them). Two ticks in a row on the same
 * target with no switch of a target between them (the sched source ends
 * the readings) bound a window where the thread was current all along; a
 * counter that moved over such a window gives one record [previous tick,
 * this tick]. Windows longer than two ticks (the tick stopped, or an older
 * session) are dropped.
 */
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <asm/tsc.h>
#include "latmon.h"

/* The longest window kept: two kernel ticks, in TSC ticks. */
static u64 max_window(void)
{
	return div_u64(2ULL * tsc_khz * TICK_NSEC, NSEC_PER_MSEC);
}

u64 latmon_window_next(struct latmon_tick_window *w, u64 tsc, u64 value, u64 *begin)
{
	u64 moved = 0;

	if (w->tid == current->pid && value > w->value && tsc > w->tick_tsc &&
	    tsc - w->tick_tsc <= max_window())
		moved = value - w->value;
	*begin = w->tick_tsc;
	w->tick_tsc = tsc;
	w->value = value;
	w->tid = current->pid;
	return moved;
}
