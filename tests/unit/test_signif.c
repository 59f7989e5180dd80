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
#include <stdlib.h>
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

/* Ties: the exact conditional p (every split of the pooled values, ties as
 * they are), values from tests/unit/signif_ref.py's enumeration. */
static void exact_with_ties(void **state)
{
	double x[] = { 30, 30, 30, 31, 32 }, y[] = { 30, 31, 31, 32, 33 };
	double one[] = { 1, 1, 1 }, two[] = { 2, 2, 2 };
	double c[] = { 0, 0, 0, 0, 1 }, d[] = { 0, 1, 1, 2, 2 };
	double e[] = { 5, 5, 6, 6, 7, 7 }, f[] = { 6, 7, 7, 8, 8, 9 };
	double same[] = { 7, 7, 7, 7 };

	(void)state;
	assert_near(lat_mwu_p(x, N(x), y, N(y)), 0.3333333333);
	assert_near(lat_mwu_p(one, 3, two, 3), 0.1);	/* not below 2 / C(6,3) */
	assert_near(lat_mwu_p(c, N(c), d, N(d)), 0.1269841270);
	assert_near(lat_mwu_p(e, N(e), f, N(f)), 0.0519480519);
	assert_near(lat_mwu_p(same, 4, same, 4), 1.0);	/* no variance: no change */
}

/* U of x by its definition: pairs with x > y, ties one half. */
static double u_of(const double *x, size_t nx, const double *y, size_t ny)
{
	double u = 0;

	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	return u;
}

/* The two-sided p by enumerating every split of pool into nx and the rest
 * (a bit mask per split): independent of the counting in signif.c. */
static double brute_p(const double *pool, size_t nx, size_t n)
{
	double a[16], b[16], mu = (double)nx * (double)(n - nx) / 2, dev, hits = 0, all = 0;
	unsigned int mask, i;
	size_t ka, kb;

	dev = fabs(u_of(pool, nx, pool + nx, n - nx) - mu);
	for (mask = 0; mask < (1U << n); mask++) {
		if ((size_t)__builtin_popcount(mask) != nx)
			continue;
		for (i = 0, ka = kb = 0; i < n; i++)
			if (mask & (1U << i))
				a[ka++] = pool[i];
			else
				b[kb++] = pool[i];
		all++;
		hits += fabs(u_of(a, ka, b, kb) - mu) >= dev - 1e-12;
	}
	return hits / all;
}

/* Random samples of few distinct values (many ties), sizes 2..8 a side. */
static void exact_against_enumeration(void **state)
{
	double pool[16];
	unsigned int seed = 7;
	size_t nx, ny, i;
	int t;

	(void)state;
	for (t = 0; t < 200; t++) {
		nx = 2 + (size_t)(rand_r(&seed) % 7);
		ny = 2 + (size_t)(rand_r(&seed) % 7);
		for (i = 0; i < nx + ny; i++)
			pool[i] = (double)(rand_r(&seed) % 4) + (i >= nx && t % 3 == 0);
		assert_near(lat_mwu_p(pool, nx, pool + nx, ny), brute_p(pool, nx, nx + ny));
	}
}

/* Hodges-Lehmann and Moses: y = x + 10 with x = 1..5; the differences are
 * 6..14 with counts 1 2 3 4 5 4 3 2 1; at 95% k = 3 (P(U <= 2) = 4/252). */
static void shift_interval(void **state)
{
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 11, 12, 13, 14, 15 }, z[] = { 4, 5, 6 };
	struct lat_shift s;

	(void)state;
	assert_int_equal(lat_shift_interval(x, 5, y, 5, 0.95, &s), 0);
	assert_near(s.est, 10);
	assert_near(s.lo, 7);
	assert_near(s.hi, 13);
	assert_int_equal(lat_shift_interval(x, 5, y, 5, 0.90, &s), 0);	/* P(U <= 4) = 12/252 */
	assert_near(s.lo, 8);
	assert_near(s.hi, 12);
	assert_int_equal(lat_shift_interval(x, 3, z, 3, 0.95, &s), 0);	/* P(U <= 0) = 0.05 */
	assert_true(isinf(s.lo) && s.lo < 0 && isinf(s.hi) && s.hi > 0);
	assert_int_equal(lat_shift_interval(x, 0, y, 5, 0.95, &s), -EINVAL);
}

/* More runs never widen the interval of the same shift: its half-width at
 * n = 5..12 a side of evenly spread values only shrinks. */
static void shift_narrows(void **state)
{
	double x[12], y[12], prev = INFINITY;
	struct lat_shift s;
	size_t n, i;

	(void)state;
	for (n = 5; n <= 12; n++) {
		for (i = 0; i < n; i++) {
			x[i] = 100 + 10.0 * (double)i / (double)(n - 1);
			y[i] = x[i] + 3;
		}
		assert_int_equal(lat_shift_interval(x, n, y, n, 0.95, &s), 0);
		assert_near(s.est, 3);
		assert_true(s.hi - s.lo <= prev + 1e-9);
		prev = s.hi - s.lo;
	}
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
		cmocka_unit_test(exact_with_ties),
		cmocka_unit_test(exact_against_enumeration),
		cmocka_unit_test(shift_interval),
		cmocka_unit_test(shift_narrows),
		cmocka_unit_test(normal_large),
		cmocka_unit_test(min_runs),
		cmocka_unit_test(median_intervals),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
