// SPDX-License-Identifier: MIT
/*
 * Unit tests of the join (user/join/) on synthetic sample and event streams.
 * TSC at 1 GHz, so one tick is one nanosecond. Run with
 * CMOCKA_MESSAGE_OUTPUT=TAP for prove.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/describe.h"
#include "join/join.h"
#include "join_fixture.h"
#include "report/render.h"

#define TID	JF_TID
#define HZ	JF_HZ

static void fault(struct jf_run *t, uint64_t b, uint64_t e, uint64_t addr)
{
	jf_event(t, LATMON_EV_FAULT, 0, TID, b, e)->u.fault.address = addr;
}

static void irq(struct jf_run *t, int cpu, uint32_t tid, uint64_t b, uint64_t e,
		uint32_t kind, const char *name)
{
	struct latmon_event *ev = jf_event(t, LATMON_EV_IRQ, cpu, tid, b, e);

	ev->u.irq.kind = kind;
	ev->u.irq.number = 236;
	strncpy(ev->u.irq.name, name, sizeof(ev->u.irq.name) - 1);
}

static void sched(struct jf_run *t, int out_cpu, int in_cpu, uint64_t b, uint64_t e,
		  bool preempted, uint32_t pid, const char *comm)
{
	struct latmon_event *ev = jf_event(t, LATMON_EV_SCHED, in_cpu, TID, b, e);

	ev->u.sched.flags = preempted ? LATMON_SCHED_F_PREEMPTED : 0;
	ev->u.sched.other_pid = pid;
	ev->u.sched.out_cpu = (uint32_t)out_cpu;
	strncpy(ev->u.sched.other_comm, comm, sizeof(ev->u.sched.other_comm) - 1);
}

static void lost(struct jf_run *t, int cpu, uint64_t tsc, uint64_t count)
{
	struct latmon_event *ev = jf_event(t, LATMON_EV_LOST, cpu, 0, tsc, tsc);

	ev->u.lost.cpu = (uint32_t)cpu;
	ev->u.lost.count = count;
}

/* THP clear inside a fault inside the iteration, a timer inside the clear. */
static void test_nesting(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 1000, 11000, 0, 0, 0);
	fault(&t, 2000, 10000, 0x7f0000200000ULL);
	jf_event(&t, LATMON_EV_THP_CLEAR, 0, TID, 3000, 9000)->u.thp.size = 2 << 20;
	irq(&t, 0, TID, 4000, 4500, LATMON_IRQ_TIMER, "LOC");
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_THP_ZERO], 5500);
	assert_int_equal(it->ticks[JOIN_INTERRUPT], 500);
	assert_int_equal(it->ticks[JOIN_FAULT], 2000);
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 2000);
	assert_int_equal(jf_sum_ticks(it), 10000);
	assert_int_equal(it->primary, JOIN_THP_ZERO);
	assert_true(it->thp);
	assert_int_equal(it->n_type[LATMON_EV_FAULT], 1);
	assert_int_equal(it->fault[0].address, 0x7f0000200000ULL);
	assert_int_equal(it->n_irq_kinds, 1);
	assert_string_equal(it->irq[0].name, "LOC");
	assert_int_equal(it->n_events, 3);
	join_result_free(&t.r);
}

/* A timer interrupt inside a fault is counted once, as interrupt. */
static void test_irq_inside_fault(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 1000, 9000, 0, 0, 0);
	fault(&t, 2000, 8000, 0x1000);
	irq(&t, 0, TID, 3000, 3100, LATMON_IRQ_TIMER, "LOC");
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_INTERRUPT], 100);
	assert_int_equal(it->ticks[JOIN_FAULT], 5900);
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 2000);
	assert_int_equal(it->primary, JOIN_FAULT);
	assert_false(it->thp);
	join_result_free(&t.r);
}

/* Events straddling the iteration's edges are clipped; outside ones unused. */
static void test_edges(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 1000, 2000, 0, 0, 0);
	fault(&t, 100, 999, 0x1);		/* ends before */
	fault(&t, 500, 1500, 0x2);		/* starts before */
	sched(&t, 0, 0, 1800, 2600, true, 77, "hog");	/* ends after */
	fault(&t, 2000, 2500, 0x3);		/* starts at the end */
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_FAULT], 500);
	assert_int_equal(it->ticks[JOIN_PREEMPTION], 200);
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 300);
	assert_int_equal(it->n_type[LATMON_EV_FAULT], 1);
	assert_int_equal(it->fault[0].address, 0x2);
	assert_int_equal(it->other_pid, 77);
	assert_string_equal(it->other_comm, "hog");
	assert_false(it->migrated);
	assert_int_equal(it->primary, JOIN_FAULT);
	join_result_free(&t.r);
}

/* Switched out while sleeping: blocked, with the task that ran instead. */
static void test_blocked(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 0, 10000, 1, 1, 0);
	fault(&t, 1000, 9000, 0x5000);
	sched(&t, 1, 1, 2000, 8000, false, 0, "swapper/1");
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_BLOCKED], 6000);
	assert_int_equal(it->ticks[JOIN_FAULT], 2000);
	assert_int_equal(it->primary, JOIN_BLOCKED);
	assert_string_equal(it->other_comm, "swapper/1");
	join_result_free(&t.r);
}

static char *render(const cJSON *causes, const cJSON *iters);

/*
 * munmap [1000, 11000): a fault inside it, then a blocked switch-out waiting
 * for mmap_lock, ended by a wake-up from pid 812; the call's own time is
 * "syscall", the fault and the switch-out keep theirs (innermost wins).
 */
static void test_syscall_wait(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;
	struct latmon_event *ev;
	cJSON *iters, *j;
	char *text, *cause;

	(void)state;
	jf_sample(&t, 0, 12000, 1, 1, 0);
	ev = jf_event(&t, LATMON_EV_SYSCALL, 1, TID, 1000, 11000);
	ev->u.syscall.nr = 11;	/* munmap */
	jf_event(&t, LATMON_EV_SYSCALL, 1, TID, 11200, 11300)->u.syscall.nr = 110;
	fault(&t, 2000, 3000, 0x9000);
	sched(&t, 1, 1, 4000, 9000, false, 0, "swapper/1");
	jf_event(&t, LATMON_EV_LOCK, 1, TID, 3500, 9100)->u.lock.kind = LATMON_LOCK_MMAP;
	ev = jf_event(&t, LATMON_EV_WAKE, 0, TID, 8900, 8900);
	ev->u.wake.waker_pid = 812;
	ev->u.wake.waker_cpu = 0;
	strcpy(ev->u.wake.waker_comm, "mprotector");
	jf_event(&t, LATMON_EV_WAKE, 0, TID, 500, 500)->u.wake.waker_pid = 1;	/* not in it */
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_BLOCKED], 5000);
	assert_int_equal(it->ticks[JOIN_FAULT], 1000);
	assert_int_equal(it->ticks[JOIN_SYSCALL], 4100);
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 1900);
	assert_int_equal(jf_sum_ticks(it), 12000);
	assert_int_equal(it->primary, JOIN_BLOCKED);
	assert_int_equal(it->sys_nr, 11);
	assert_int_equal(it->n_type[LATMON_EV_SYSCALL], 2);
	assert_int_equal(it->lock_ticks, 5600);
	iters = join_to_json(&t.r);
	j = cJSON_GetArrayItem(iters, 0);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "syscall"), "name")
			    ->valuestring, "munmap");
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "woken_by"), "pid")
			 ->valuedouble, 812);
	cause = lat_iter_cause(j);
	assert_string_equal(cause, "munmap 12.0 us: blocked 42% (waiting for mmap_lock, "
			    "woken by pid 812 (mprotector) on CPU 0), syscall 34%, "
			    "unexplained 16%, fault 8%");
	text = render(NULL, iters);
	assert_non_null(strstr(text, "inside munmap (system calls: munmap x1, getppid x1)"));
	free(cause);
	free(text);
	cJSON_Delete(iters);
	join_result_free(&t.r);
}

/* A lost record on the iteration's CPU makes it incomplete, not guessed. */
static void test_lost_window(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 1000, 2000, 0, 0, 0);	/* inside [200, 5000] */
	jf_sample(&t, 6000, 8000, 0, 0, 0);	/* after the window */
	jf_sample(&t, 9000, 9500, 1, 1, 0);	/* other CPU, its window */
	fault(&t, 100, 200, 0xa);
	lost(&t, 0, 5000, 7);
	fault(&t, 6500, 7000, 0xb);
	lost(&t, 1, 9200, 3);			/* first record of ring 1 */
	jf_join(&t, true);
	assert_true(t.r.iters[0].incomplete);
	assert_int_equal(t.r.iters[0].primary, JOIN_INCOMPLETE);
	assert_int_equal(t.r.iters[0].lost, 7);
	assert_int_equal(jf_sum_ticks(&t.r.iters[0]), 1000);	/* still shown */
	assert_false(t.r.iters[1].incomplete);
	assert_int_equal(t.r.iters[1].primary, JOIN_UNEXPLAINED);
	assert_int_equal(t.r.iters[1].ticks[JOIN_FAULT], 500);
	assert_true(t.r.iters[2].incomplete);
	assert_int_equal(t.r.stats.lost_records, 2);
	assert_int_equal(t.r.stats.lost_events, 10);
	assert_int_equal(t.r.stats.incomplete, 2);
	/* the cause table counts incomplete time only as incomplete */
	assert_int_equal(t.r.causes[JOIN_INCOMPLETE].n_primary, 2);
	assert_int_equal(t.r.causes[JOIN_INCOMPLETE].ticks, 1500);
	assert_int_equal(t.r.causes[JOIN_UNEXPLAINED].ticks, 1500);
	assert_int_equal(t.r.causes[JOIN_FAULT].ticks, 500);
	assert_int_equal(t.r.slow_total, 3500);
	join_result_free(&t.r);
}

/* A lost window on another CPU does not touch the iteration. */
static void test_lost_other_cpu(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 1000, 2000, 0, 0, 0);
	irq(&t, 1, TID, 100, 200, LATMON_IRQ_HARD, "eth0");
	lost(&t, 1, 5000, 2);
	jf_join(&t, true);
	assert_false(t.r.iters[0].incomplete);
	assert_int_equal(t.r.iters[0].primary, JOIN_UNEXPLAINED);
	join_result_free(&t.r);
}

/* A hole in a ring's seq is treated as lost events (and counted). */
static void test_seq_gap(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 1000, 2000, 0, 0, 0);
	fault(&t, 100, 500, 0xa);
	t.seq[0] += 3;				/* three records never read */
	fault(&t, 2500, 3000, 0xb);
	jf_join(&t, true);
	assert_true(t.r.iters[0].incomplete);
	assert_int_equal(t.r.stats.seq_gaps, 1);
	assert_int_equal(t.r.stats.lost_events, 3);
	join_result_free(&t.r);
}

/* cpu_end != cpu_begin, or a switch-out on one CPU and in on another. */
static void test_migration(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 1000, 2000, 0, 1, 0);	/* rdtscp aux differs */
	jf_sample(&t, 3000, 5000, 1, 1, 0);	/* moved and back: event */
	jf_sample(&t, 6000, 8000, 0, 0, 0);	/* out on 1, in on 0 */
	sched(&t, 0, 1, 1200, 1800, true, 9, "kworker/1:1");
	jf_event(&t, LATMON_EV_MIGRATE, 1, TID, 3500, 3500)->u.migrate.to_cpu = 0;
	sched(&t, 1, 0, 6500, 7500, true, 9, "stress");
	jf_join(&t, true);
	assert_true(t.r.iters[0].migrated);
	assert_int_equal(t.r.iters[0].ticks[JOIN_PREEMPTION], 600);
	assert_int_equal(t.r.iters[0].ticks[JOIN_MIGRATION], 400);
	assert_int_equal(t.r.iters[0].primary, JOIN_PREEMPTION);
	assert_true(t.r.iters[1].migrated);
	assert_int_equal(t.r.iters[1].ticks[JOIN_MIGRATION], 2000);
	assert_int_equal(t.r.iters[1].primary, JOIN_MIGRATION);
	assert_true(t.r.iters[2].migrated);
	assert_int_equal(t.r.causes[JOIN_MIGRATION].n_any, 3);
	join_result_free(&t.r);
}

/* A reallocating push: what no event covers is realloc. */
static void test_realloc_remainder(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 0, 10000, 0, 0, LAT_SAMPLE_F_REALLOC);
	fault(&t, 1000, 3000, 0x1000);
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_FAULT], 2000);
	assert_int_equal(it->ticks[JOIN_REALLOC], 8000);
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 0);
	assert_int_equal(it->primary, JOIN_REALLOC);
	join_result_free(&t.r);
}

/* Without the module: only migration and realloc, the rest unattributed. */
static void test_no_events(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 0, 1000, 0, 0, 0);
	jf_sample(&t, 2000, 3000, 0, 1, 0);
	jf_sample(&t, 4000, 5000, 1, 1, LAT_SAMPLE_F_REALLOC);
	jf_join(&t, false);
	assert_int_equal(t.r.iters[0].primary, JOIN_UNATTRIBUTED);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNATTRIBUTED], 1000);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNEXPLAINED], 0);
	assert_int_equal(t.r.iters[1].primary, JOIN_MIGRATION);
	assert_int_equal(t.r.iters[2].primary, JOIN_REALLOC);
	assert_false(t.r.have_events);
	assert_int_equal(t.r.causes[JOIN_UNATTRIBUTED].n_primary, 1);
	join_result_free(&t.r);
}

/* Events of another thread and interrupts on another CPU are ignored. */
static void test_ignored(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 1000, 2000, 0, 0, 0);
	jf_event(&t, LATMON_EV_FAULT, 0, TID + 1, 1100, 1900);
	jf_event(&t, LATMON_EV_SCHED, 0, TID + 1, 1100, 1900);
	irq(&t, 1, TID, 1200, 1800, LATMON_IRQ_HARD, "nvme0q1");
	irq(&t, 0, TID + 1, 1200, 1800, LATMON_IRQ_TIMER, "LOC");
	irq(&t, 0, 0, 1300, 1400, LATMON_IRQ_SOFT, "RCU");	/* tid 0: ours */
	jf_join(&t, true);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNEXPLAINED], 900);
	assert_int_equal(t.r.iters[0].ticks[JOIN_INTERRUPT], 100);
	assert_int_equal(t.r.iters[0].n_events, 1);
	assert_int_equal(t.r.stats.other_thread, 3);
	join_result_free(&t.r);
}

/* Samples out of time order (a caller's mistake) still join correctly. */
static void test_out_of_order(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 5000, 6000, 0, 0, 0);
	jf_sample(&t, 1000, 2000, 0, 0, 0);
	fault(&t, 1200, 1500, 0x1);
	fault(&t, 5100, 5900, 0x2);
	jf_join(&t, true);
	assert_int_equal(t.r.iters[0].ticks[JOIN_FAULT], 800);
	assert_int_equal(t.r.iters[1].ticks[JOIN_FAULT], 300);
	assert_int_equal(t.r.iters[1].fault[0].address, 0x1);
	assert_int_equal(t.r.stats.rewinds, 1);
	join_result_free(&t.r);
}

/* The primary label is the largest share, even when it is not innermost. */
static void test_primary_largest(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 0, 1000, 0, 0, 0);
	fault(&t, 0, 700, 0x1);
	irq(&t, 0, TID, 100, 400, LATMON_IRQ_TIMER, "LOC");	/* 300 */
	jf_sample(&t, 2000, 3000, 0, 0, 0);
	fault(&t, 2000, 2300, 0x2);
	irq(&t, 0, TID, 2100, 2200, LATMON_IRQ_TIMER, "LOC");	/* 100 */
	jf_join(&t, true);
	assert_int_equal(t.r.iters[0].ticks[JOIN_FAULT], 400);
	assert_int_equal(t.r.iters[0].primary, JOIN_FAULT);
	assert_int_equal(t.r.iters[1].ticks[JOIN_UNEXPLAINED], 700);
	assert_int_equal(t.r.iters[1].primary, JOIN_UNEXPLAINED);
	join_result_free(&t.r);
}

/* "thp-zero: 3 iterations, ..., clear 280 us median, 320 us max". */
static void test_cause_table(void **state)
{
	static const uint64_t clear[3] = { 250000, 320000, 280000 };
	struct jf_run t = { 0 };
	const struct join_cause *k;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		uint64_t b = 1000000ULL * (uint64_t)(i + 1);

		jf_sample(&t, b, b + clear[i] + 10000, 0, 0, 0);
		fault(&t, b + 1000, b + clear[i] + 9000, 0x200000ULL * (uint64_t)(i + 1));
		jf_event(&t, LATMON_EV_THP_CLEAR, 0, TID, b + 2000, b + 2000 + clear[i]);
	}
	jf_sample(&t, 9000000, 9001000, 0, 0, 0);	/* nothing: unexplained */
	jf_join(&t, true);
	k = &t.r.causes[JOIN_THP_ZERO];
	assert_int_equal(k->n_primary, 3);
	assert_int_equal(k->n_any, 3);
	assert_int_equal(k->n_own, 3);
	assert_int_equal(k->own_median, 280000);
	assert_int_equal(k->own_max, 320000);
	assert_int_equal(k->ticks, 850000);
	assert_int_equal(t.r.causes[JOIN_FAULT].n_primary, 0);
	assert_int_equal(t.r.causes[JOIN_FAULT].n_any, 3);
	assert_int_equal(t.r.causes[JOIN_FAULT].own_median, 288000);
	assert_int_equal(t.r.causes[JOIN_UNEXPLAINED].n_primary, 1);
	assert_int_equal(t.r.causes[JOIN_UNEXPLAINED].n_any, 4);
	assert_int_equal(t.r.slow_total, 850000 + 30000 + 1000);
	join_result_free(&t.r);
}

/* Slow by threshold = slow by index list; bad input is refused. */
static void test_selection_and_bad_input(void **state)
{
	struct jf_run t = { 0 };
	struct join_input in = { .tid = TID, .tsc_hz = HZ };
	struct join_result r;
	size_t idx[2] = { 1, 3 }, bad[2] = { 3, 1 }, far[1] = { 9 };

	(void)state;
	jf_sample(&t, 0, 10, 0, 0, 0);
	jf_sample(&t, 20, 520, 0, 0, 0);
	jf_sample(&t, 600, 610, 0, 0, 0);
	jf_sample(&t, 700, 1700, 0, 0, 0);
	in.samples = t.s;
	in.n_samples = t.ns;
	in.slow_ticks = 100;
	assert_int_equal(join_run(&in, &r), 0);
	assert_int_equal(r.n_iters, 2);
	assert_int_equal(r.iters[0].index, 1);
	assert_int_equal(r.iters[1].index, 3);
	assert_int_equal(r.slow_total, 1500);
	join_result_free(&r);
	in.slow = idx;
	in.n_slow = 2;
	in.index_base = 100;
	assert_int_equal(join_run(&in, &r), 0);
	assert_int_equal(r.iters[1].index, 103);
	assert_int_equal(r.slow_total, 1500);
	join_result_free(&r);
	in.slow = bad;
	assert_int_equal(join_run(&in, &r), -EINVAL);
	in.slow = far;
	in.n_slow = 1;
	assert_int_equal(join_run(&in, &r), -EINVAL);
	in.slow = idx;
	in.tsc_hz = 0;
	assert_int_equal(join_run(&in, &r), -EINVAL);
}

/* ---- property test: the merge against a per-tick brute-force oracle ---- */

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(uint64_t n)
{
	return lat_rand64(&rnd_state) % n;
}

/* Label of one tick, by looking at every event (the nested loop). */
static enum join_label oracle_tick(const struct lat_sample *s, const struct latmon_event *ev,
				   size_t nev, uint64_t t)
{
	static const int prec[] = { JOIN_INTERRUPT, JOIN_BLOCKED, JOIN_PREEMPTION,
				    JOIN_THP_ZERO, JOIN_FAULT };
	bool on[JOIN_NR_LABELS] = { 0 };
	size_t i;

	for (i = 0; i < nev; i++) {
		const struct latmon_event *e = &ev[i];

		if (t < e->tsc_begin || t >= e->tsc_end || (e->tid != TID && e->tid))
			continue;
		if (e->type == LATMON_EV_IRQ && e->cpu != s->cpu_begin && e->cpu != s->cpu_end)
			continue;
		if (e->type == LATMON_EV_FAULT)
			on[JOIN_FAULT] = true;
		if (e->type == LATMON_EV_THP_CLEAR)
			on[JOIN_THP_ZERO] = true;
		if (e->type == LATMON_EV_IRQ)
			on[JOIN_INTERRUPT] = true;
		if (e->type == LATMON_EV_SCHED)
			on[e->u.sched.flags ? JOIN_PREEMPTION : JOIN_BLOCKED] = true;
	}
	for (i = 0; i < 5; i++)
		if (on[prec[i]])
			return prec[i];
	if (s->flags & LAT_SAMPLE_F_REALLOC)
		return JOIN_REALLOC;
	return s->cpu_begin != s->cpu_end ? JOIN_MIGRATION : JOIN_UNEXPLAINED;
}

static void random_stream(struct lat_sample *s, size_t ns, struct latmon_event *ev, size_t nev)
{
	uint64_t t = 0, seq[2] = { 0 };
	size_t i;

	for (i = 0; i < ns; i++) {
		t += rnd(50);
		s[i] = (struct lat_sample){ t, t + 1 + rnd(rnd(8) ? 40 : 300), 0, 0, 0 };
		s[i].cpu_begin = (uint16_t)rnd(2);
		s[i].cpu_end = rnd(10) ? s[i].cpu_begin : (uint16_t)rnd(2);
		s[i].flags = rnd(10) ? 0 : LAT_SAMPLE_F_REALLOC;
		t = s[i].tsc_end;
	}
	for (i = 0; i < nev; i++) {
		uint64_t b = rnd(t + 100);

		memset(&ev[i], 0, sizeof(ev[i]));
		ev[i].type = (uint16_t)(LATMON_EV_FAULT + rnd(4));
		ev[i].cpu = (uint16_t)rnd(2);
		ev[i].seq = seq[ev[i].cpu]++;
		ev[i].tid = rnd(5) ? TID : (rnd(2) ? TID + 1 : 0);
		if (ev[i].type != LATMON_EV_IRQ && !ev[i].tid)
			ev[i].tid = TID;
		ev[i].tsc_begin = b;
		ev[i].tsc_end = b + rnd(rnd(4) ? 30 : 400);
		ev[i].u.sched.flags = (uint32_t)rnd(2);
		ev[i].u.sched.out_cpu = ev[i].cpu;
	}
	for (i = nev; i > 1; i--) {		/* any order: shuffle */
		size_t j = rnd(i);
		struct latmon_event x = ev[i - 1];

		ev[i - 1] = ev[j];
		ev[j] = x;
	}
}

static void check_against_oracle(const struct lat_sample *s, const struct latmon_event *ev,
				 size_t nev, const struct join_iter *it)
{
	const struct lat_sample *x = &s[it->index];
	uint64_t want[JOIN_NR_LABELS] = { 0 }, t, max = 0;
	int l;

	for (t = x->tsc_begin; t < x->tsc_end; t++)
		want[oracle_tick(x, ev, nev, t)]++;
	for (l = 0; l < JOIN_NR_LABELS; l++) {
		assert_int_equal(it->ticks[l], want[l]);
		if (want[l] > max)
			max = want[l];
	}
	assert_int_equal(jf_sum_ticks(it), x->tsc_end - x->tsc_begin);
	assert_int_equal(it->duration, x->tsc_end - x->tsc_begin);
	assert_int_equal(it->ticks[it->primary], max);
}

/* Random streams: every breakdown sums to the duration and matches the
 * per-tick oracle; the primary label holds the largest share. */
static void test_property_random(void **state)
{
	enum { NS = 400, NEV = 300, ROUNDS = 20 };
	struct lat_sample *s = calloc(NS, sizeof(*s));
	struct latmon_event *ev = calloc(NEV, sizeof(*ev));
	int round;

	(void)state;
	assert_non_null(s);
	assert_non_null(ev);
	for (round = 0; round < ROUNDS; round++) {
		struct join_input in = {
			.samples = s, .n_samples = NS, .slow_ticks = 20, .tid = TID,
			.events = ev, .n_events = NEV, .have_events = true, .tsc_hz = HZ,
		};
		struct join_result r;
		size_t i;

		random_stream(s, NS, ev, NEV);
		assert_int_equal(join_run(&in, &r), 0);
		assert_true(r.n_iters > 0);
		for (i = 0; i < r.n_iters; i++)
			check_against_oracle(s, ev, NEV, &r.iters[i]);
		join_result_free(&r);
	}
	free(s);
	free(ev);
}

/* ---- JSON and text ---- */

static char *render(const cJSON *causes, const cJSON *iters)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	join_print(causes, iters, f);
	fclose(f);
	return buf;
}

/* The JSON carries the breakdown; the text from a saved copy is the same. */
static void test_json_and_text(void **state)
{
	struct jf_run t = { 0 };
	cJSON *iters, *causes, *it, *bd, *x, *back_i, *back_c;
	char *text, *text2, *si, *sc;
	double sum = 0;

	(void)state;
	jf_sample(&t, 1000, 301000, 0, 0, 0);
	fault(&t, 2000, 299000, 0x7f1234600000ULL);
	jf_event(&t, LATMON_EV_THP_CLEAR, 0, TID, 3000, 283000);
	irq(&t, 0, TID, 4000, 5000, LATMON_IRQ_TIMER, "LOC");
	sched(&t, 0, 0, 290000, 295000, true, 321, "stress-ng");
	jf_join(&t, true);
	iters = join_to_json(&t.r);
	causes = cause_table_to_json(&t.r);
	assert_non_null(iters);
	assert_non_null(causes);
	it = cJSON_GetArrayItem(iters, 0);
	assert_string_equal(cJSON_GetObjectItem(it, "primary")->valuestring, "thp-zero");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(it, "thp")));
	bd = cJSON_GetObjectItem(it, "breakdown_ticks");
	cJSON_ArrayForEach(x, bd)
		sum += x->valuedouble;
	assert_true(sum == cJSON_GetObjectItem(it, "duration_ticks")->valuedouble);
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(it, "fault_addresses"), 0)
			    ->valuestring, "0x7f1234600000");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(it, "preempted_by"), "comm")
			    ->valuestring, "stress-ng");
	x = cJSON_GetArrayItem(cJSON_GetObjectItem(causes, "causes"), 0);
	assert_string_equal(cJSON_GetObjectItem(x, "label")->valuestring, "thp-zero");
	text = render(causes, iters);
	assert_non_null(strstr(text, "Causes of the 1 slow iteration"));
	assert_null(strstr(text, "1 slow iterations"));
	assert_non_null(strstr(text, "The slow iteration (index"));
	assert_non_null(strstr(text, "thp-zero"));
	assert_non_null(strstr(text, "zeroing 280.0 us / 280.0 us"));
	assert_non_null(strstr(text, "at 0x7f1234600000"));
	assert_non_null(strstr(text, "pid 321 (stress-ng)"));
	assert_non_null(strstr(text, "interrupts: timer LOC x1"));
	si = cJSON_PrintUnformatted(iters);
	sc = cJSON_PrintUnformatted(causes);
	back_i = cJSON_Parse(si);
	back_c = cJSON_Parse(sc);
	text2 = render(back_c, back_i);
	assert_string_equal(text, text2);
	free(text);
	free(text2);
	free(si);
	free(sc);
	cJSON_Delete(back_i);
	cJSON_Delete(back_c);
	cJSON_Delete(iters);
	cJSON_Delete(causes);
	join_result_free(&t.r);
}

/* A capped list keeps the slowest iterations, in run order. */
static void test_json_max(void **state)
{
	static const uint64_t d[6] = { 50, 400, 300, 400, 100, 200 };
	struct jf_run t = { 0 };
	cJSON *a;
	int i;

	(void)state;
	for (i = 0; i < 6; i++)
		jf_sample(&t, 1000 * (uint64_t)i, 1000 * (uint64_t)i + d[i], 0, 0, 0);
	jf_join(&t, false);
	a = join_to_json_max(&t.r, 3);
	assert_int_equal(cJSON_GetArraySize(a), 3);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(a, 0), "index")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(a, 1), "index")->valueint, 2);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(a, 2), "index")->valueint, 3);
	cJSON_Delete(a);
	a = join_to_json_max(&t.r, 1);		/* a tie at the cut: the first */
	assert_int_equal(cJSON_GetArraySize(a), 1);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(a, 0), "index")->valueint, 1);
	cJSON_Delete(a);
	a = join_to_json_max(&t.r, 0);
	assert_int_equal(cJSON_GetArraySize(a), 6);
	cJSON_Delete(a);
	join_result_free(&t.r);
}

/* The report says when there was no module and when events were lost. */
static void test_text_lost_and_no_module(void **state)
{
	struct jf_run t = { 0 }, u = { 0 };
	cJSON *c1, *c2;
	char *s1, *s2;

	(void)state;
	jf_sample(&t, 1000, 2000, 0, 0, 0);
	lost(&t, 0, 5000, 12);
	jf_join(&t, true);
	jf_sample(&u, 1000, 2000, 0, 0, 0);
	jf_join(&u, false);
	c1 = cause_table_to_json(&t.r);
	c2 = cause_table_to_json(&u.r);
	s1 = render(c1, NULL);
	s2 = render(c2, NULL);
	assert_non_null(strstr(s1, "LOST: 12 events dropped"));
	assert_non_null(strstr(s1, "incomplete"));
	assert_non_null(strstr(s2, "unattributed"));
	assert_non_null(strstr(s2, "no backend recorded"));
	free(s1);
	free(s2);
	cJSON_Delete(c1);
	cJSON_Delete(c2);
	join_result_free(&t.r);
	join_result_free(&u.r);
}

/* PREEMPT_RT: a preemption by an interrupt thread is interrupt work and
 * names the thread; other preempters and a sleep stay what they were. */
static void test_irq_thread(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;
	cJSON *iters, *causes;
	char *text;

	(void)state;
	jf_sample(&t, 0, 10000, 0, 0, 0);
	sched(&t, 0, 0, 2000, 8000, true, 77, "irq/24-virtio0");
	jf_sample(&t, 20000, 30000, 0, 0, 0);
	sched(&t, 0, 0, 22000, 28000, true, 78, "irqbalance");
	jf_sample(&t, 40000, 50000, 0, 0, 0);
	sched(&t, 0, 0, 42000, 48000, false, 77, "irq/24-virtio0");
	jf_join(&t, true);
	it = t.r.iters;
	assert_int_equal(it[0].ticks[JOIN_INTERRUPT], 6000);
	assert_int_equal(it[0].ticks[JOIN_PREEMPTION], 0);
	assert_int_equal(it[0].primary, JOIN_INTERRUPT);
	assert_string_equal(it[0].other_comm, "irq/24-virtio0");
	assert_int_equal(it[1].primary, JOIN_PREEMPTION);
	assert_int_equal(it[1].ticks[JOIN_INTERRUPT], 0);
	assert_int_equal(it[2].primary, JOIN_BLOCKED);
	iters = join_to_json(&t.r);
	causes = cause_table_to_json(&t.r);
	text = render(causes, iters);
	assert_non_null(strstr(text, "interrupt thread irq/24-virtio0 (pid 77)"));
	assert_non_null(strstr(text, "switched out for pid 78 (irqbalance)"));
	free(text);
	cJSON_Delete(iters);
	cJSON_Delete(causes);
	join_result_free(&t.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_irq_inside_fault),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_blocked),
		cmocka_unit_test(test_syscall_wait),
		cmocka_unit_test(test_lost_window),
		cmocka_unit_test(test_lost_other_cpu),
		cmocka_unit_test(test_seq_gap),
		cmocka_unit_test(test_migration),
		cmocka_unit_test(test_realloc_remainder),
		cmocka_unit_test(test_no_events),
		cmocka_unit_test(test_ignored),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_primary_largest),
		cmocka_unit_test(test_cause_table),
		cmocka_unit_test(test_selection_and_bad_input),
		cmocka_unit_test(test_property_random),
		cmocka_unit_test(test_json_and_text),
		cmocka_unit_test(test_irq_thread),
		cmocka_unit_test(test_json_max),
		cmocka_unit_test(test_text_lost_and_no_module),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	return cmocka_run_group_tests_name("join", tests, NULL, NULL);
}
