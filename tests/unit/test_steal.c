// SPDX-License-Identifier: MIT
/*
 * Unit tests of the guest's labels in the join on synthetic records: steal
 * (user/join/join_steal.c: a steal record says how much the hypervisor took
 * somewhere in its interval; the join gives it whole to the first slow
 * iteration inside that interval whose uncovered ticks hold it, never to
 * ticks an event covers, and counts what it could not place) and
 * hypervisor (with the probe's evidence, the uncovered ticks after a
 * fault; with its idle gaps, uncovered stretches), smi (the uncovered
 * ticks of a window where the SMI count moved).
 * TSC at 1 GHz: one tick is one ns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "events/evtype.h"
#include "join/join.h"
#include "join_fixture.h"

#define TID JF_TID

static void steal(struct jf_run *t, uint64_t b, uint64_t e, uint64_t ns)
{
	struct latmon_event *ev = jf_event(t, LATMON_EV_STEAL, 0, TID, b, e);

	ev->u.steal.steal_ns = ns;
	ev->u.steal.clock_ns = 1000000 + ns;
}

static void fault(struct jf_run *t, uint64_t b, uint64_t e)
{
	jf_event(t, LATMON_EV_FAULT, 0, TID, b, e)->u.fault.address = 0x1000;
}

/* A window inside one iteration: its steal comes out of the uncovered
 * ticks, never out of the fault that covers others. */
static void test_inside_one(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 1000, 31000, 0, 0, 0); /* 30000 ticks */
	fault(&t, 2000, 4000);		     /* 2000 fault, 28000 uncovered */
	steal(&t, 1500, 30000, 25000);
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_STEAL], 25000);
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 3000);
	assert_int_equal(it->ticks[JOIN_FAULT], 2000);
	assert_int_equal(it->primary, JOIN_STEAL);
	assert_int_equal(it->steal_ns, 25000);
	assert_int_equal(jf_sum_ticks(it), 30000);
	assert_int_equal(t.r.stats.steal, 25000);
	assert_int_equal(t.r.stats.steal_placed, 25000);
	assert_int_equal(t.r.causes[JOIN_STEAL].n_primary, 1);
	join_result_free(&t.r);
}

/* A window over two slow iterations: the steal goes whole to the one whose
 * uncovered time holds it (the second), not in part to the first. */
static void test_whole_to_one(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 1000, 6000, 0, 0, 0);  /* 5000 uncovered */
	jf_sample(&t, 6000, 56000, 0, 0, 0); /* 50000 uncovered */
	steal(&t, 500, 60000, 40000);
	jf_join(&t, true);
	assert_int_equal(t.r.iters[0].ticks[JOIN_STEAL], 0);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNEXPLAINED], 5000);
	assert_int_equal(t.r.iters[1].ticks[JOIN_STEAL], 40000);
	assert_int_equal(t.r.iters[1].ticks[JOIN_UNEXPLAINED], 10000);
	/* both lie in its interval: both note it */
	assert_int_equal(t.r.iters[0].steal_ns, 40000);
	assert_int_equal(t.r.stats.steal_placed, 40000);
	join_result_free(&t.r);
}

/* More steal than any uncovered time (it fell in fast iterations or in a
 * covered span): nothing placed, all of it counted. */
static void test_not_placed(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 1000, 11000, 0, 0, 0);
	fault(&t, 1000, 9000); /* 2000 uncovered */
	steal(&t, 0, 20000, 5000);
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_STEAL], 0);
	assert_int_equal(it->ticks[JOIN_FAULT], 8000);
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 2000);
	assert_int_equal(t.r.stats.steal, 5000);
	assert_int_equal(t.r.stats.steal_placed, 0);
	join_result_free(&t.r);
}

/* Two records in one iteration each place their own amount; one of another
 * thread is not this thread's. */
static void test_two_and_other_thread(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 0, 100000, 0, 0, 0);
	steal(&t, 0, 40000, 30000);
	steal(&t, 40000, 90000, 20000);
	jf_event(&t, LATMON_EV_STEAL, 1, TID + 1, 0, 90000)->u.steal.steal_ns = 9000;
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_STEAL], 50000);
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 50000);
	assert_int_equal(t.r.stats.steal, 50000);
	assert_int_equal(t.r.stats.other_thread, 1);
	assert_int_equal(t.r.causes[JOIN_STEAL].n_own, 2);
	assert_int_equal(t.r.causes[JOIN_STEAL].own_max, 30000);
	join_result_free(&t.r);
}

/* The amount is in ns: at 2.5 GHz 1000 ns of steal are 2500 ticks. */
static void test_ticks_of_ns(void **state)
{
	struct jf_run t = { 0 };
	struct join_input in;

	(void)state;
	jf_sample(&t, 0, 10000, 0, 0, 0);
	steal(&t, 0, 10000, 1000);
	in = (struct join_input){ .samples = t.s,
				  .n_samples = t.ns,
				  .tid = TID,
				  .events = t.ev,
				  .n_events = t.nev,
				  .have_events = true,
				  .tsc_hz = 2.5e9 };
	assert_int_equal(join_run(&in, &t.r), 0);
	assert_int_equal(t.r.iters[0].ticks[JOIN_STEAL], 2500);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNEXPLAINED], 7500);
	join_result_free(&t.r);
}

/* Join t with the hypervisor probe's evidence, an ordinary iteration
 * typical ticks long. */
static void join_hv_typical(struct jf_run *t, uint64_t typical)
{
	struct join_input in = { .samples = t->s,
				 .n_samples = t->ns,
				 .tid = TID,
				 .events = t->ev,
				 .n_events = t->nev,
				 .have_events = true,
				 .tsc_hz = JF_HZ,
				 .hypervisor = true,
				 .hv_typical = typical };

	assert_int_equal(join_run(&in, &t->r), 0);
}

static void join_hv(struct jf_run *t)
{
	join_hv_typical(t, 0);
}

/* With evidence, the uncovered ticks before and after a fault are
 * hypervisor (the access exits to the hypervisor before the guest's fault
 * and after it); under an interrupt they are not. */
static void test_hypervisor_after_fault(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;
	struct latmon_event *irq;

	(void)state;
	jf_sample(&t, 1000, 31000, 0, 0, 0);
	fault(&t, 2000, 4000);
	irq = jf_event(&t, LATMON_EV_IRQ, 0, TID, 10000, 10500);
	irq->u.irq.kind = LATMON_IRQ_TIMER;
	join_hv(&t);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 0);
	assert_int_equal(it->ticks[JOIN_FAULT], 2000);
	assert_int_equal(it->ticks[JOIN_INTERRUPT], 500);
	assert_int_equal(it->ticks[JOIN_HYPERVISOR], 27500);
	assert_int_equal(it->primary, JOIN_HYPERVISOR);
	join_result_free(&t.r);
	/* the same without evidence: unexplained */
	jf_join(&t, true);
	assert_int_equal(t.r.iters[0].ticks[JOIN_HYPERVISOR], 0);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNEXPLAINED], 27500);
	join_result_free(&t.r);
}

/* An ordinary iteration's work (3000 ticks) stays unexplained, taken back
 * from the hypervisor's ticks, wherever the fault lies in the iteration. */
static void test_hypervisor_keeps_own_work(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 1000, 31000, 0, 0, 0);
	fault(&t, 2000, 4000);
	jf_sample(&t, 31000, 61000, 0, 0, 0);
	fault(&t, 36000, 38000); /* 5000 before it */
	join_hv_typical(&t, 3000);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 3000);
	assert_int_equal(it->ticks[JOIN_FAULT], 2000);
	assert_int_equal(it->ticks[JOIN_HYPERVISOR], 25000);
	it = &t.r.iters[1];
	assert_int_equal(it->ticks[JOIN_UNEXPLAINED], 3000);
	assert_int_equal(it->ticks[JOIN_HYPERVISOR], 25000);
	join_result_free(&t.r);
	/* an iteration shorter than an ordinary one: all of it unexplained */
	join_hv_typical(&t, 40000);
	assert_int_equal(t.r.iters[0].ticks[JOIN_HYPERVISOR], 0);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNEXPLAINED], 28000);
	join_result_free(&t.r);
}

/* No fault in the iteration: no hypervisor label even with evidence; and
 * steal, a measure, takes uncovered ticks before the inference does. */
static void test_hypervisor_needs_fault_steal_first(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 0, 10000, 0, 0, 0); /* nothing recorded in it */
	jf_sample(&t, 10000, 40000, 0, 0, 0);
	fault(&t, 11000, 12000); /* 1000 before, 28000 after */
	steal(&t, 10000, 40000, 5000);
	join_hv(&t);
	assert_int_equal(t.r.iters[0].ticks[JOIN_HYPERVISOR], 0);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNEXPLAINED], 10000);
	assert_int_equal(t.r.iters[1].ticks[JOIN_STEAL], 5000);
	assert_int_equal(t.r.iters[1].ticks[JOIN_UNEXPLAINED], 0);
	assert_int_equal(t.r.iters[1].ticks[JOIN_HYPERVISOR], 24000);
	assert_int_equal(jf_sum_ticks(&t.r.iters[1]), 30000);
	join_result_free(&t.r);
}

/* The probe's idle gaps (hv_stretch 10000, an ordinary iteration 500):
 * uncovered ticks beyond 500, 10000 at least, are hypervisor, after steal
 * took its part; a shorter stretch and a migrated iteration's are not. */
static void test_stretch(void **state)
{
	struct jf_run t = { 0 };
	struct join_input in;

	(void)state;
	jf_sample(&t, 0, 30000, 0, 0, 0); /* fault 2000, 28000 uncovered */
	fault(&t, 1000, 3000);
	jf_sample(&t, 30000, 40000, 0, 0, 0); /* 10000 uncovered: short */
	jf_sample(&t, 40000, 60000, 0, 0, 0); /* steal 5000 of 20000 */
	steal(&t, 40000, 60000, 5000);
	jf_sample(&t, 60000, 90000, 0, 1, 0); /* migrated */
	in = (struct join_input){ .samples = t.s,
				  .n_samples = t.ns,
				  .slow_ticks = 5000,
				  .tid = TID,
				  .events = t.ev,
				  .n_events = t.nev,
				  .have_events = true,
				  .tsc_hz = JF_HZ,
				  .hv_stretch = 10000,
				  .hv_typical = 500 };
	assert_int_equal(join_run(&in, &t.r), 0);
	assert_int_equal(t.r.iters[0].ticks[JOIN_HYPERVISOR], 27500);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNEXPLAINED], 500);
	assert_int_equal(t.r.iters[0].primary, JOIN_HYPERVISOR);
	assert_int_equal(t.r.iters[1].ticks[JOIN_HYPERVISOR], 0);
	assert_int_equal(t.r.iters[1].ticks[JOIN_UNEXPLAINED], 10000);
	assert_int_equal(t.r.iters[2].ticks[JOIN_STEAL], 5000);
	assert_int_equal(t.r.iters[2].ticks[JOIN_HYPERVISOR], 14500);
	assert_int_equal(jf_sum_ticks(&t.r.iters[2]), 20000);
	assert_int_equal(t.r.iters[3].ticks[JOIN_HYPERVISOR], 0);
	assert_int_equal(t.r.iters[3].ticks[JOIN_MIGRATION], 30000);
	assert_int_equal(t.r.stats.hv_stretches, 2);
	assert_int_equal(t.r.causes[JOIN_HYPERVISOR].n_own, 2);
	assert_int_equal(t.r.causes[JOIN_HYPERVISOR].own_max, 27500);
	join_result_free(&t.r);
}

/* SMIs counted in a window: its uncovered ticks in the iterations it
 * overlaps are smi; a fault inside stays fault; outside it, unexplained. */
static void test_smi_window(void **state)
{
	struct jf_run t = { 0 };
	struct latmon_event *ev;

	(void)state;
	jf_sample(&t, 0, 10000, 0, 0, 0);
	jf_sample(&t, 10000, 30000, 0, 0, 0);
	fault(&t, 12000, 15000);
	ev = jf_event(&t, LATMON_EV_SMI, 0, TID, 5000, 25000);
	ev->u.smi.smis = 2;
	jf_join(&t, true);
	assert_int_equal(t.r.iters[0].ticks[JOIN_SMI], 5000);
	assert_int_equal(t.r.iters[0].ticks[JOIN_UNEXPLAINED], 5000);
	assert_int_equal(t.r.iters[1].ticks[JOIN_FAULT], 3000);
	assert_int_equal(t.r.iters[1].ticks[JOIN_SMI], 12000);
	assert_int_equal(t.r.iters[1].ticks[JOIN_UNEXPLAINED], 5000);
	assert_int_equal(t.r.iters[0].smis, 2);
	assert_int_equal(t.r.iters[1].smis, 2);
	join_result_free(&t.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inside_one),
		cmocka_unit_test(test_whole_to_one),
		cmocka_unit_test(test_not_placed),
		cmocka_unit_test(test_two_and_other_thread),
		cmocka_unit_test(test_ticks_of_ns),
		cmocka_unit_test(test_hypervisor_after_fault),
		cmocka_unit_test(test_hypervisor_keeps_own_work),
		cmocka_unit_test(test_hypervisor_needs_fault_steal_first),
		cmocka_unit_test(test_smi_window),
		cmocka_unit_test(test_stretch),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("steal", tests, NULL, NULL);
}
