// SPDX-License-Identifier: MIT
/* Percentiles and summary over known arrays. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "stats/stats.h"

static void one_to_thousand(void **state)
{
	double v[1000];
	struct lat_summary s;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)	/* reversed: compute must sort */
		v[i] = 1000 - i;
	assert_int_equal(lat_summary_compute(v, 1000, &s), 0);
	assert_int_equal(s.count, 1000);
	assert_true(s.min == 1 && s.max == 1000);
	assert_true(s.p50 == 500);
	assert_true(s.p90 == 900);
	assert_true(s.p99 == 990);
	assert_true(s.p999 == 999);	/* ceil(99.9 * 1000 / 100) = 999, not 1000 */
	assert_true(s.p9999 == 1000);
	assert_true(s.mean == 500.5);
	assert_true(s.total == 500500);
	assert_true(s.slowest_0_1_share == 1000.0 / 500500);
}

/* The shape of seed 000: a body and a rare tail the mean hides. */
static void tail_hidden_by_mean(void **state)
{
	static double v[100000];
	struct lat_summary s;
	int i;

	(void)state;
	for (i = 0; i < 100000; i++)
		v[i] = i % 1000 == 7 ? 100000 : 20;	/* 100 slow of 100000 */
	assert_int_equal(lat_summary_compute(v, 100000, &s), 0);
	assert_true(s.p50 == 20 && s.p99 == 20);
	assert_true(s.p999 == 20);	/* rank 99900: the 100 slow are above */
	assert_true(s.p9999 == 100000);
	assert_true(s.slowest_0_1_share > 0.8);	/* 100 * 1e5 of 1.2e7 */
	assert_true(s.mean < 140);
}

static void single_and_empty(void **state)
{
	double one = 42, none = 0;
	struct lat_summary s;

	(void)state;
	assert_int_equal(lat_summary_compute(&one, 1, &s), 0);
	assert_true(s.min == 42 && s.p50 == 42 && s.p9999 == 42 && s.max == 42);
	assert_true(s.slowest_0_1_share == 1);
	assert_int_equal(lat_summary_compute(&none, 0, &s), -EINVAL);
}

static void nearest_rank(void **state)
{
	const double v[] = { 10, 20, 30, 40 };

	(void)state;
	assert_true(lat_percentile_sorted(v, 4, 25) == 10);
	assert_true(lat_percentile_sorted(v, 4, 25.1) == 20);
	assert_true(lat_percentile_sorted(v, 4, 50) == 20);
	assert_true(lat_percentile_sorted(v, 4, 75) == 30);
	assert_true(lat_percentile_sorted(v, 4, 99.99) == 40);
	assert_true(lat_percentile_sorted(v, 4, 100) == 40);
	assert_true(lat_percentile_sorted(v, 4, 0) == 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_to_thousand),
		cmocka_unit_test(tail_hidden_by_mean),
		cmocka_unit_test(single_and_empty),
		cmocka_unit_test(nearest_rank),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
