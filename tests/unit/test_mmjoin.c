// SPDX-License-Identifier: MIT
/*
 * Unit tests of the join for the memory-management records: huge-page
 * zeroing in the page allocator and in the THP clear (one label, thp-zero,
 * split by where; zeroed twice), direct compaction and reclaim inside a
 * fault (innermost wins), and their JSON and text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "events/evtype.h"
#include "join/join.h"
#include "report/render.h"

#define JF_TID	777
#include "join_fixture.h"

#define TID	JF_TID

/* Records of the measured thread on CPU 0. */
static struct latmon_event *event(struct jf_run *t, int type, uint64_t b, uint64_t e)
{
	return jf_event(t, type, 0, TID, b, e);
}

static void zero(struct jf_run *t, uint64_t b, uint64_t e, uint32_t flags)
{
	struct latmon_event *ev = event(t, LATMON_EV_ALLOC_ZERO, b, e);

	ev->u.zero.size = 2 << 20;
	ev->u.zero.order = 9;
	ev->u.zero.flags = flags;
}

/* A fault zeroed twice, an interrupt inside the allocator's zeroing. */
static void build_twice(struct jf_run *t)
{
	struct latmon_event *ev;

	jf_sample(t, 0, 10000, 0, 0, 0);
	event(t, LATMON_EV_FAULT, 500, 9900)->u.fault.flags = LATMON_FAULT_F_HUGE;
	zero(t, 1000, 6000, LATMON_ZERO_F_INIT_ON_ALLOC);
	ev = event(t, LATMON_EV_IRQ, 2000, 2400);
	ev->u.irq.kind = LATMON_IRQ_TIMER;
	event(t, LATMON_EV_THP_CLEAR, 6100, 9800)->u.thp.size = 2 << 20;
}

/* One label; its parts add up to it exactly; the interrupt is not zeroing. */
static void test_zeroed_twice(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	build_twice(&t);
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->primary, JOIN_THP_ZERO);
	assert_int_equal(it->parts[JOIN_ZERO_ALLOC], 5000 - 400);
	assert_int_equal(it->parts[JOIN_THP_ZERO], 3700);
	assert_int_equal(it->ticks[JOIN_THP_ZERO], 4600 + 3700);
	assert_int_equal(it->ticks[JOIN_ZERO_ALLOC], 0);
	assert_int_equal(it->ticks[JOIN_INTERRUPT], 400);
	assert_int_equal(jf_sum_ticks(it), 10000);
	assert_true(it->thp);
	assert_int_equal(it->zeroed_bytes, 2 << 20);
	assert_int_equal(t.r.causes[JOIN_THP_ZERO].n_twice, 1);
	assert_int_equal(t.r.causes[JOIN_ZERO_ALLOC].part_ticks, 4600);
	assert_int_equal(t.r.causes[JOIN_THP_ZERO].part_ticks, 3700);
	assert_int_equal(t.r.causes[JOIN_THP_ZERO].n_own, 2);	/* both zeroings */
	assert_int_equal(t.r.causes[JOIN_ZERO_ALLOC].n_own, 0);
	join_result_free(&t.r);
}

/* Since 6.13 only the allocator zeroes: still thp-zero, not twice. */
static void test_allocator_only(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 0, 10000, 0, 0, 0);
	event(&t, LATMON_EV_FAULT, 100, 9900);
	zero(&t, 200, 9700, LATMON_ZERO_F_INIT_ON_ALLOC);
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->primary, JOIN_THP_ZERO);
	assert_int_equal(it->ticks[JOIN_THP_ZERO], 9500);
	assert_int_equal(it->parts[JOIN_ZERO_ALLOC], 9500);
	assert_int_equal(it->parts[JOIN_THP_ZERO], 0);
	assert_true(it->thp);
	assert_int_equal(t.r.causes[JOIN_THP_ZERO].n_twice, 0);
	join_result_free(&t.r);
}

/* One iteration, a fault in it, and a zeroing record that spans direct
 * compaction (200-9000). */
static void fault_compacting(struct jf_run *t)
{
	jf_sample(t, 0, 10000, 0, 0, 0);
	event(t, LATMON_EV_FAULT, 100, 9900);
	zero(t, 200, 9000, LATMON_ZERO_F_INIT_ON_ALLOC | LATMON_ZERO_F_COMPACT);
}

/* A page compaction captured: up to the last compaction record's end the
 * zeroing record is compaction, gaps between zones included. */
static void test_compaction_capture(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	fault_compacting(&t);
	event(&t, LATMON_EV_COMPACT, 300, 3300)->u.compact.order = 9;
	event(&t, LATMON_EV_COMPACT, 3400, 6400)->u.compact.order = 9;
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_COMPACTION], 6400 - 200);
	assert_int_equal(it->ticks[JOIN_THP_ZERO], 9000 - 6400);
	assert_int_equal(it->parts[JOIN_ZERO_ALLOC], 9000 - 6400);
	assert_int_equal(it->primary, JOIN_COMPACTION);
	assert_int_equal(it->n_type[LATMON_EV_COMPACT], 2);
	assert_int_equal(jf_sum_ticks(it), 10000);
	/* the zeroing's own duration is its part after the compaction */
	assert_int_equal(t.r.causes[JOIN_THP_ZERO].own_max, 9000 - 6400);
	assert_int_equal(t.r.causes[JOIN_COMPACTION].n_own, 2);
	join_result_free(&t.r);
}

/* An interrupt inside the compaction part stays an interrupt; a compaction
 * record of another thread does not move the split. */
static void test_compaction_split_outranked(void **state)
{
	struct jf_run t = { 0 };
	struct latmon_event *ev;
	const struct join_iter *it;

	(void)state;
	fault_compacting(&t);
	event(&t, LATMON_EV_COMPACT, 300, 3300)->u.compact.order = 9;
	jf_event(&t, LATMON_EV_COMPACT, 0, TID + 1, 3400, 8000)->u.compact.order = 9;
	ev = event(&t, LATMON_EV_IRQ, 3300, 3500);
	ev->u.irq.kind = LATMON_IRQ_TIMER;
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_COMPACTION], 3300 - 200);
	assert_int_equal(it->ticks[JOIN_INTERRUPT], 200);
	assert_int_equal(it->ticks[JOIN_THP_ZERO], 9000 - 3500);
	assert_int_equal(jf_sum_ticks(it), 10000);
	join_result_free(&t.r);
}

/* Direct compaction that compacted no zone (deferred): all zeroing. */
static void test_compaction_none_inside(void **state)
{
	struct jf_run t = { 0 };
	const struct join_iter *it;

	(void)state;
	fault_compacting(&t);
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_COMPACTION], 0);
	assert_int_equal(it->ticks[JOIN_THP_ZERO], 8800);
	assert_int_equal(it->primary, JOIN_THP_ZERO);
	join_result_free(&t.r);
}

/* Reclaim inside a fault, asleep for part of it: blocked is innermost. */
static void test_reclaim_blocked(void **state)
{
	struct jf_run t = { 0 };
	struct latmon_event *ev;
	const struct join_iter *it;

	(void)state;
	jf_sample(&t, 0, 10000, 0, 0, 0);
	event(&t, LATMON_EV_FAULT, 100, 9900);
	ev = event(&t, LATMON_EV_RECLAIM, 1000, 8000);
	ev->u.reclaim.kind = LATMON_RECLAIM_MEMCG;
	ev->u.reclaim.nr_reclaimed = 64;
	event(&t, LATMON_EV_SCHED, 2000, 3000);		/* blocked: flags 0 */
	jf_join(&t, true);
	it = &t.r.iters[0];
	assert_int_equal(it->ticks[JOIN_RECLAIM], 6000);
	assert_int_equal(it->ticks[JOIN_BLOCKED], 1000);
	assert_int_equal(it->ticks[JOIN_FAULT], 9800 - 7000);
	assert_int_equal(it->primary, JOIN_RECLAIM);
	assert_int_equal(it->reclaimed_pages, 64);
	assert_int_equal(it->memcg_reclaims, 1);
	join_result_free(&t.r);
}

/* Through the text of a saved document, as `latctl report` reads it. */
static cJSON *saved(cJSON *j)
{
	char *text = cJSON_PrintUnformatted(j);
	cJSON *back = cJSON_Parse(text);

	free(text);
	cJSON_Delete(j);
	return back;
}

/* Render the cause table and the iterations of t into buf. */
static void render(struct jf_run *t, char *buf, size_t len)
{
	cJSON *c = saved(cause_table_to_json(&t->r)), *its = saved(join_to_json(&t->r));
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(c);
	assert_non_null(its);
	join_print(c, its, f);
	fclose(f);
	cJSON_Delete(c);
	cJSON_Delete(its);
}

/* The JSON carries the split and the twice count; the text says both. */
static void test_json_and_text(void **state)
{
	struct jf_run t = { 0 };
	cJSON *its, *c, *row, *z;
	char text[4096];

	(void)state;
	build_twice(&t);
	jf_join(&t, true);
	its = join_to_json(&t.r);
	z = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(its, 0), "parts_ticks"), "thp-zero");
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(z, "allocator")->valuedouble, 4600);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(z, "clear")->valuedouble, 3700);
	c = cause_table_to_json(&t.r);
	row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(c, "causes"), 0);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(row, "label")->valuestring, "thp-zero");
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(row, "twice")->valuedouble, 1);
	assert_non_null(strstr(cJSON_GetObjectItemCaseSensitive(row, "twice_note")->valuestring,
			       "init_on_alloc=0"));
	render(&t, text, sizeof(text));
	assert_non_null(strstr(text, "thp-zero twice in 1 of 1 slow iterations (allocator 55%, clear 45% of it)"));
	assert_non_null(strstr(text, "zeroed twice: 2048 KiB in the page allocator (init_on_alloc) 46%, in the THP clear 37%"));
	cJSON_Delete(its);
	cJSON_Delete(c);
	join_result_free(&t.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zeroed_twice),
		cmocka_unit_test(test_allocator_only),
		cmocka_unit_test(test_compaction_capture),
		cmocka_unit_test(test_compaction_split_outranked),
		cmocka_unit_test(test_compaction_none_inside),
		cmocka_unit_test(test_reclaim_blocked),
		cmocka_unit_test(test_json_and_text),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("mmjoin", tests, NULL, NULL);
}
