// SPDX-License-Identifier: MIT
/*
 * Mann-Whitney U p-values and median intervals against reference values
 * computed independently by tests/unit/signif_ref.py (exact p by
 * enumerating every split of the pooled values; the normal approximation
 * from average rank sums; interval coverage from binomial coefficients).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "compare/signif.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define assert_near(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void exact_separated(void **state)
{
	double x3[] = { 1, 2, 3 }, y3[] = { 4, 5, 6 };
	double x5[] = { 5, 4, 3, 2, 1 }, y5[] = { 6, 7, 8, 9, 10 };

	(void)state;
	assert_near(lat_mwu_p(x3, 3, y3, 3), 0.1);		/* 2 / C(6,3) */
	assert_near(lat_mwu_p(x5, 5, y5, 5), 0.0079365079);	/* 2 / C(10,5) */
	assert_near(lat_mwu_p(y5, 5, x5, 5), 0.0079365079);	/* symmetric */
	assert_near(lat_mwu_min_p(5, 5), 2.0 / 252);
}

static void exact_mixed(void **state)
{
	double x[] = { 1.1, 2.5, 3.0, 4.2, 6.1 }, y[] = { 2.0, 3.5, 5.0, 5.5, 7.0 };
	double a[] = { 10, 12, 15, 20 }, b[] = { 11, 13, 14, 16, 17, 30 };

	(void)state;
	assert_near(lat_mwu_p(x, N(x), y, N(y)), 0.4206349206);
	assert_near(lat_mwu_p(a, N(a), b, N(b)), 0.6095238095);
}

static void normal_with_ties(void **state)
{
	double x[] = { 30, 30, 30, 31, 32 }, y[] = { 30, 31, 31, 32, 33 };
	double same[] = { 7, 7, 7, 7 };

	(void)state;
	assert_near(lat_mwu_p(x, N(x), y, N(y)), 0.2733216783);
	assert_near(lat_mwu_p(same, 4, same, 4), 1.0);	/* no variance: no change */
}

static void normal_large(void **state)
{
	double x[30], y[30];
	int i;

	(void)state;
	for (i = 0; i < 30; i++) {
		x[i] = 2.0 * i;
		y[i] = 10.5 + 2.0 * i;
	}
	assert_near(lat_mwu_p(x, 30, y, 30), 0.0270863184);
}

static void min_runs(void **state)
{
	(void)state;
	assert_int_equal(lat_signif_min_runs(0.05), 4);	/* 2/C(6,3) = 0.1, 2/C(8,4) = 0.029 */
}

static void median_intervals(void **state)
{
	double five[] = { 9, 1, 5, 3, 7 }, ten[10], twenty[20];
	struct lat_interval iv;
	int i;

	(void)state;
	assert_int_equal(lat_median_interval(five, 0, &iv), -EINVAL);
	assert_int_equal(lat_median_interval(five, 5, &iv), 0);
	assert_true(iv.median == 5 && iv.lo == 1 && iv.hi == 9);
	assert_near(iv.confidence, 0.9375);		/* below 95%: [min, max] */
	for (i = 0; i < 10; i++)
		ten[i] = 10 - i;			/* 10..1 */
	assert_int_equal(lat_median_interval(ten, 10, &iv), 0);
	assert_true(iv.median == 5.5 && iv.lo == 2 && iv.hi == 9);	/* k = 2 */
	assert_near(iv.confidence, 0.978515625);
	for (i = 0; i < 20; i++)
		twenty[i] = i + 1;
	assert_int_equal(lat_median_interval(twenty, 20, &iv), 0);
	assert_true(iv.lo == 6 && iv.hi == 15);		/* k = 6 */
	assert_near(iv.confidence, 0.9586105347);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_separated),
		cmocka_unit_test(exact_mixed),
		cmocka_unit_test(normal_with_ties),
		cmocka_unit_test(normal_large),
		cmocka_unit_test(min_runs),
		cmocka_unit_test(median_intervals),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
