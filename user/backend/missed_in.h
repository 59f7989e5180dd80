/* SPDX-License-Identifier: MIT */
/*
 * Switch-ins the kernel did not report. A sched record marked
 * LATMON_SCHED_F_IN_MISSED ends at the thread's next switch-out; the thread
 * ran before that, and its first sign of running (an interrupt, system call
 * or fault in its context, a TSC read of its own) bounds the end.
 */
#ifndef LATCTL_MISSED_IN_H
#define LATCTL_MISSED_IN_H

#include <stdint.h>

struct lat_evbuf;
struct lat_run;

struct lat_missed_in {
	uint64_t count;	  /* records marked */
	uint64_t bounded; /* ... whose end moved to an earlier sign */
};

/* Bound the marked records of m (on the TSC) and count them into st. */
void lat_missed_in_bound(struct lat_evbuf *m, const struct lat_run *run, struct lat_missed_in *st);

#endif
