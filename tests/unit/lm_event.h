/* SPDX-License-Identifier: MIT */
/*
 * One latmon record as the module writes it (zeroed, then the header), for
 * the tests and the benchmark that feed records to the join.
 */
#ifndef LATCTL_TEST_LM_EVENT_H
#define LATCTL_TEST_LM_EVENT_H

#include <stdint.h>
#include <string.h>

#include "latmon.h"

static inline struct latmon_event *lm_event_fill(struct latmon_event *ev, int type, int cpu,
						 uint32_t pid, uint32_t tid, uint64_t seq,
						 uint64_t begin, uint64_t end)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = (uint16_t)type;
	ev->size = sizeof(*ev);
	ev->cpu = (uint16_t)cpu;
	ev->pid = pid;
	ev->tid = tid;
	ev->seq = seq;
	ev->tsc_begin = begin;
	ev->tsc_end = end;
	return ev;
}

#endif /* LATCTL_TEST_LM_EVENT_H */
