// SPDX-License-Identifier: MIT
/*
 * Unit tests of the join's parts on their own: the net-time sweep and the
 * primary label (join_sweep.c), the lost windows (join_windows.c) and the
 * cause tally (join_tally.c). The sweep and the tally are pure functions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "join/join_int.h"
#include "lm_event.h"

static struct join_prec prec, all;

static int setup(void **state)
{
	(void)state;
	join_precedence(&prec, true);
	join_precedence(&all, false);
	return 0;
}

/* Nested events: each tick to the innermost (highest) label. */
static void test_sweep_nested(void **state)
{
	struct join_point p[] = {
		{ 100, JOIN_FAULT, 1 }, { 900, JOIN_FAULT, -1 },
		{ 200, JOIN_THP_ZERO, 1 }, { 800, JOIN_THP_ZERO, -1 },
		{ 300, JOIN_INTERRUPT, 1 }, { 350, JOIN_INTERRUPT, -1 },
	};
	uint64_t ticks[JOIN_NR_LABELS] = { 0 };

	(void)state;
	join_sweep(p, 6, 0, 1000, JOIN_UNEXPLAINED, &prec, ticks);
	assert_int_equal(ticks[JOIN_FAULT], 200);
	assert_int_equal(ticks[JOIN_THP_ZERO], 550);
	assert_int_equal(ticks[JOIN_INTERRUPT], 50);
	assert_int_equal(ticks[JOIN_UNEXPLAINED], 200);
	assert_int_equal(join_primary(ticks, false, JOIN_UNEXPLAINED, &all), JOIN_THP_ZERO);
	assert_int_equal(join_primary(ticks, true, JOIN_UNEXPLAINED, &all), JOIN_INCOMPLETE);
}

/* Overlapping events of one label count once; no event: all to rest. */
static void test_sweep_overlap_and_empty(void **state)
{
	struct join_point p[] = {
		{ 0, JOIN_PREEMPTION, 1 }, { 600, JOIN_PREEMPTION, -1 },
		{ 400, JOIN_PREEMPTION, 1 }, { 700, JOIN_PREEMPTION, -1 },
		{ 500, JOIN_BLOCKED, 1 }, { 650, JOIN_BLOCKED, -1 },
	};
	uint64_t ticks[JOIN_NR_LABELS] = { 0 }, none[JOIN_NR_LABELS] = { 0 };

	(void)state;
	join_sweep(p, 6, 0, 1000, JOIN_MIGRATION, &prec, ticks);
	assert_int_equal(ticks[JOIN_PREEMPTION], 550);
	assert_int_equal(ticks[JOIN_BLOCKED], 150);
	assert_int_equal(ticks[JOIN_MIGRATION], 300);
	join_sweep(NULL, 0, 5, 5005, JOIN_UNATTRIBUTED, &prec, none);
	assert_int_equal(none[JOIN_UNATTRIBUTED], 5000);
	assert_int_equal(join_primary(none, false, JOIN_UNATTRIBUTED, &all), JOIN_UNATTRIBUTED);
}

/* A tie for the largest share goes to the higher-ranked label. */
static void test_primary_tie(void **state)
{
	uint64_t ticks[JOIN_NR_LABELS] = { 0 };

	(void)state;
	ticks[JOIN_FAULT] = 100;
	ticks[JOIN_REALLOC] = 100;
	assert_int_equal(join_primary(ticks, false, JOIN_UNEXPLAINED, &all), JOIN_FAULT);
	ticks[JOIN_REALLOC] = 101;
	assert_int_equal(join_primary(ticks, false, JOIN_UNEXPLAINED, &all), JOIN_REALLOC);
}

/* A lost record's window runs from its ring's previous record; a seq gap
 * is a window too; the window hits only iterations on its CPU. */
static void test_windows(void **state)
{
	struct latmon_event ev[4];
	struct join_windows w = { 0 };
	struct join_stats st = { 0 };
	struct lat_sample on0 = { 1500, 1600, 0, 0, 0 }, on1 = { 1500, 1600, 1, 1, 0 };
	struct lat_sample late = { 9000, 9100, 0, 0, 0 };
	uint64_t lost;

	(void)state;
	lm_event_fill(&ev[0], LATMON_EV_FAULT, 0, 1, 1, 0, 500, 1000);
	lm_event_fill(&ev[1], LATMON_EV_LOST, 0, 0, 0, 1, 1800, 2000)->u.lost.count = 7;
	lm_event_fill(&ev[2], LATMON_EV_FAULT, 1, 1, 1, 0, 100, 200);
	lm_event_fill(&ev[3], LATMON_EV_FAULT, 1, 1, 1, 3, 5000, 6000);	/* seq 1, 2 missing */
	assert_int_equal(join_windows_build(ev, 4, &w, &st), 0);
	assert_int_equal(w.n, 2);
	assert_int_equal(st.lost_records, 1);
	assert_int_equal(st.seq_gaps, 1);
	assert_int_equal(st.lost_events, 9);
	assert_true(join_windows_check(&w, &on0, 1500, 1600, &lost));	/* [1000, 1800] */
	assert_int_equal(lost, 7);
	join_windows_rewind(&w);
	assert_false(join_windows_check(&w, &on1, 50, 150, &lost));	/* [200, 6000] on 1 */
	join_windows_rewind(&w);
	assert_true(join_windows_check(&w, &on1, 1500, 1600, &lost));
	assert_int_equal(lost, 2);
	assert_false(join_windows_check(&w, &late, 9000, 9100, &lost));
	join_windows_free(&w);
}

/* The tally: counts, net ticks, own durations; incomplete counted whole. */
static void test_tally(void **state)
{
	struct join_iter it[3];
	struct join_u64vec own[JOIN_NR_LABELS];
	struct join_result r;
	int l;

	(void)state;
	memset(it, 0, sizeof(it));
	memset(own, 0, sizeof(own));
	memset(&r, 0, sizeof(r));
	it[0] = (struct join_iter){ .duration = 100, .primary = JOIN_FAULT, .migrated = true };
	it[0].ticks[JOIN_FAULT] = 70;
	it[0].ticks[JOIN_MIGRATION] = 30;
	it[1] = (struct join_iter){ .duration = 50, .primary = JOIN_UNEXPLAINED };
	it[1].ticks[JOIN_UNEXPLAINED] = 50;
	it[2] = (struct join_iter){ .duration = 400, .primary = JOIN_INCOMPLETE,
				    .incomplete = true };
	it[2].ticks[JOIN_FAULT] = 400;	/* not trusted: not counted */
	assert_int_equal(join_vec_push(&own[JOIN_FAULT], 70), 0);
	assert_int_equal(join_tally(it, 3, own, &r), 0);
	assert_int_equal(r.slow_total, 550);
	assert_int_equal(r.causes[JOIN_FAULT].n_primary, 1);
	assert_int_equal(r.causes[JOIN_FAULT].ticks, 70);
	assert_int_equal(r.causes[JOIN_FAULT].n_own, 1);
	assert_int_equal(r.causes[JOIN_MIGRATION].n_any, 1);
	assert_int_equal(r.causes[JOIN_MIGRATION].own_max, 30);
	assert_int_equal(r.causes[JOIN_UNEXPLAINED].own_median, 50);
	assert_int_equal(r.causes[JOIN_INCOMPLETE].n_primary, 1);
	assert_int_equal(r.causes[JOIN_INCOMPLETE].ticks, 400);
	assert_int_equal(r.causes[JOIN_INCOMPLETE].own_max, 400);
	for (l = 0; l < JOIN_NR_LABELS; l++)
		free(own[l].v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_nested),
		cmocka_unit_test(test_sweep_overlap_and_empty),
		cmocka_unit_test(test_primary_tie),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_tally),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	return cmocka_run_group_tests_name("join_parts", tests, setup, NULL);
}
