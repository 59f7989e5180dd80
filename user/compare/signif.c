// SPDX-License-Identifier: MIT
/* Median intervals and the Mann-Whitney U test for `compare` and `check`. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/signif.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

/* P(B <= k) for B ~ Binomial(n, 1/2). */
static double binom_half_cdf(size_t n, size_t k)
{
	double term = pow(0.5, (double)n), sum = 0;
	size_t i;

	for (i = 0; i <= k && i <= n; i++) {
		sum += term;
		term = term * (double)(n - i) / (double)(i + 1);
	}
	return sum;
}

int lat_median_interval(const double *x, size_t n, struct lat_interval *out)
{
	double *s, cover;
	size_t k;

	if (n == 0)
		return -EINVAL;
	s = sorted_copy(x, n);
	if (!s)
		return -ENOMEM;
	out->n = n;
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	/* [x(k), x(n+1-k)] covers the median with 1 - 2 P(B <= k-1) */
	out->lo = s[0];
	out->hi = s[n - 1];
	out->confidence = 1 - 2 * binom_half_cdf(n, 0);
	for (k = 2; 2 * k <= n + 1; k++) {
		cover = 1 - 2 * binom_half_cdf(n, k - 1);
		if (cover < LAT_SIGNIF_CONFIDENCE)
			break;
		out->lo = s[k - 1];
		out->hi = s[n - k];
		out->confidence = cover;
	}
	free(s);
	return 0;
}

/* U of x: the pairs with x > y, a tie counting one half. */
static double u_statistic(const double *x, size_t nx, const double *y, size_t ny)
{
	double u = 0;
	size_t i, j;

	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++)
			u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	return u;
}

/* Sum of t^3 - t over the groups of equal values of x and y together. */
static double tie_term(const double *x, size_t nx, const double *y, size_t ny)
{
	size_t n = nx + ny, i, j;
	double *all = malloc(n * sizeof(*all)), sum = 0, t;

	if (!all)
		return 0;
	memcpy(all, x, nx * sizeof(*all));
	memcpy(all + nx, y, ny * sizeof(*all));
	qsort(all, n, sizeof(*all), cmp_double);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && all[j] == all[i]; j++)
			;
		t = (double)(j - i);
		sum += t * t * t - t;
	}
	free(all);
	return sum;
}

/* P(U >= u) under H0 with no ties: count the arrangements, f(m, n, u) =
 * f(m - 1, n, u - n) + f(m, n - 1, u), over C(m + n, m). */
static double exact_sf(size_t m, size_t n, double u)
{
	size_t umax = m * n, i, j, v, w = umax + 1;
	double *f = calloc((m + 1) * (n + 1) * w, sizeof(*f)), tail = 0, all = 0;

	if (!f)
		return 1;
#define F(a, b, c) f[((a) * (n + 1) + (b)) * w + (c)]
	for (i = 0; i <= m; i++)
		for (j = 0; j <= n; j++)
			for (v = 0; v <= i * j; v++)
				F(i, j, v) = !i || !j ? (v == 0) :
					     (v >= j ? F(i - 1, j, v - j) : 0) + F(i, j - 1, v);
	for (v = 0; v <= umax; v++) {
		all += F(m, n, v);
		tail += (double)v >= u ? F(m, n, v) : 0;
	}
#undef F
	free(f);
	return tail / all;
}

double lat_mwu_p(const double *x, size_t nx, const double *y, size_t ny)
{
	double u, mu, n = (double)(nx + ny), var, z, p, ties;

	if (!nx || !ny)
		return 1;
	u = u_statistic(x, nx, y, ny);
	ties = tie_term(x, nx, y, ny);
	mu = (double)nx * (double)ny / 2;
	u = u > mu ? u : (double)nx * (double)ny - u;	/* the larger U */
	if (!ties && nx * ny <= LAT_MWU_EXACT_MAX)
		p = 2 * exact_sf(nx, ny, u);
	else {
		var = (double)nx * (double)ny / 12 * ((n + 1) - ties / (n * (n - 1)));
		if (var <= 0)
			return 1;
		z = (u - mu - 0.5) / sqrt(var);
		p = erfc(z / sqrt(2));
	}
	return p > 1 ? 1 : p;
}

double lat_mwu_min_p(size_t nx, size_t ny)
{
	double c = 1;
	size_t i;

	for (i = 1; i <= nx; i++)	/* C(nx + ny, nx) */
		c = c * (double)(ny + i) / (double)i;
	return 2 / c;
}

size_t lat_signif_min_runs(double alpha)
{
	size_t n = 1;

	while (lat_mwu_min_p(n, n) >= alpha)
		n++;
	return n;
}
