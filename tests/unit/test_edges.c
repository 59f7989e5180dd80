// SPDX-License-Identifier: MIT
/*
 * Unit tests of user/join/edges.c: in the slow iterations whose only
 * events are faults, the uncovered ticks beyond an ordinary iteration,
 * per fault; iterations with other events, migrated ones and ones without
 * a fault are left out. CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "join/edges.h"
#include "join_fixture.h"

static void fault(struct jf_run *t, uint64_t b, uint64_t e)
{
	jf_event(t, LATMON_EV_FAULT, 0, JF_TID, b, e)->u.fault.address = 0x1000;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

/* Two fault-only iterations (1000 uncovered beyond 500: 500 a fault;
 * 2500 beyond: 1250 a fault), one with an interrupt, one migrated, one
 * with nothing recorded: the median of 500 and 1250, over two iterations
 * and four faults. */
static void test_only_faults(void **state)
{
	struct jf_run t = { 0 };
	struct latmon_event *irq;
	cJSON *o;

	(void)state;
	jf_sample(&t, 0, 10000, 0, 0, 0); /* faults 8500, uncovered 1500 */
	fault(&t, 100, 5000);
	fault(&t, 5000, 8600);
	jf_sample(&t, 10000, 20000, 0, 0, 0); /* faults 7000, uncovered 3000 */
	fault(&t, 10000, 13500);
	fault(&t, 14000, 17500);
	jf_sample(&t, 20000, 30000, 0, 0, 0); /* a fault and an interrupt */
	fault(&t, 20000, 21000);
	irq = jf_event(&t, LATMON_EV_IRQ, 0, JF_TID, 22000, 23000);
	irq->u.irq.kind = LATMON_IRQ_TIMER;
	jf_sample(&t, 30000, 40000, 0, 1, 0); /* migrated */
	fault(&t, 30000, 31000);
	jf_sample(&t, 40000, 50000, 0, 0, 0); /* nothing recorded */
	jf_join(&t, true);
	o = lat_fault_edges_json(&t.r, 500);
	assert_non_null(o);
	assert_int_equal(num(o, "iterations"), 2);
	assert_int_equal(num(o, "faults"), 4);
	assert_true(num(o, "ns_per_fault_median") == 875);
	assert_true(num(o, "unexplained_ns") == 3500);
	assert_true(num(o, "share") == 3500.0 / 50000);
	assert_true(num(o, "typical_ns") == 500);
	cJSON_Delete(o);
	/* an ordinary iteration longer than what is uncovered: nothing left */
	o = lat_fault_edges_json(&t.r, 5000);
	assert_true(num(o, "ns_per_fault_median") == 0 && num(o, "unexplained_ns") == 0);
	cJSON_Delete(o);
	join_result_free(&t.r);
}

/* No iteration with only faults: no object. */
static void test_none(void **state)
{
	struct jf_run t = { 0 };

	(void)state;
	jf_sample(&t, 0, 10000, 0, 0, 0);
	jf_join(&t, true);
	assert_null(lat_fault_edges_json(&t.r, 500));
	join_result_free(&t.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_only_faults),
		cmocka_unit_test(test_none),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("edges", tests, NULL, NULL);
}
