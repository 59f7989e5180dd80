/* SPDX-License-Identifier: MIT */
/*
 * A small run for the join tests (test_join.c, test_mmjoin.c,
 * test_causes.c): samples and latmon records built one at a time, numbered
 * per CPU ring as the module numbers them, and the join of them all with
 * every sample slow. TSC at JF_HZ (1 GHz: one tick = one ns). The measured
 * thread is JF_TID unless the test defines it first.
 */
#ifndef LATCTL_TEST_JOIN_FIXTURE_H
#define LATCTL_TEST_JOIN_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "join/join.h"
#include "lm_event.h"

#ifndef JF_TID
#define JF_TID	4242
#endif
#define JF_HZ	1e9
#define JF_SAMPLES	64
#define JF_EVENTS	64

struct jf_run {
	struct lat_sample s[JF_SAMPLES];
	size_t ns;
	struct latmon_event ev[JF_EVENTS];
	size_t nev;
	uint64_t seq[4];	/* next seq per CPU ring */
	uint32_t pid;		/* the records' pid; 0: JF_TID */
	struct join_result r;
};

static inline void jf_sample(struct jf_run *t, uint64_t b, uint64_t e, int cb, int ce,
			     uint32_t flags)
{
	t->s[t->ns++] = (struct lat_sample){ b, e, (uint16_t)cb, (uint16_t)ce, flags };
}

static inline struct latmon_event *jf_event(struct jf_run *t, int type, int cpu, uint32_t tid,
					    uint64_t b, uint64_t e)
{
	return lm_event_fill(&t->ev[t->nev++], type, cpu, t->pid ? t->pid : JF_TID, tid,
			     t->seq[cpu]++, b, e);
}

/* Join with every sample slow (threshold 0). */
static inline void jf_join(struct jf_run *t, bool have_events)
{
	struct join_input in = {
		.samples = t->s, .n_samples = t->ns, .slow_ticks = 0, .tid = JF_TID,
		.events = t->ev, .n_events = t->nev, .have_events = have_events,
		.tsc_hz = JF_HZ,
	};

	assert_int_equal(join_run(&in, &t->r), 0);
	assert_int_equal(t->r.n_iters, t->ns);
}

/* The net ticks of an iteration, every label: its duration. */
static inline uint64_t jf_sum_ticks(const struct join_iter *it)
{
	uint64_t sum = 0;
	int l;

	for (l = 0; l < JOIN_NR_LABELS; l++)
		sum += it->ticks[l];
	return sum;
}

#endif /* LATCTL_TEST_JOIN_FIXTURE_H */
