// SPDX-License-Identifier: MIT
/* Median intervals and the Mann-Whitney U test for `compare` and `check`. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/signif.h"
#include "stats/stats.h"

/* The inverse of erfc for 0 < p < 2, by bisection (a few calls per table). */
static double erfcinv_approx(double p)
{
	double lo = -6, hi = 6, mid;
	int i;

	for (i = 0; i < 100; i++) {
		mid = (lo + hi) / 2;
		if (erfc(mid) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), lat_cmp_double);
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

struct ranked {
	double v;
	int from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	return lat_cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/* x and y pooled and sorted; twice the mid-rank of each (an integer) into
 * r2, in the pooled order; the sum of t^3 - t over the groups of ties into
 * *ties. NULL without memory. */
static struct ranked *pool_ranks(const double *x, size_t nx, const double *y, size_t ny,
				 long *r2, double *ties)
{
	size_t n = nx + ny, i, j, k;
	struct ranked *p = malloc(n * sizeof(*p));

	if (!p)
		return NULL;
	for (i = 0; i < n; i++)
		p[i] = (struct ranked){ i < nx ? x[i] : y[i - nx], i < nx };
	qsort(p, n, sizeof(*p), cmp_ranked);
	*ties = 0;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && p[j].v == p[i].v; j++)
			;
		for (k = i; k < j; k++)
			r2[k] = (long)(i + j + 1);	/* 2 * (i + 1 + j) / 2 */
		*ties += (double)(j - i) * (double)(j - i) * (double)(j - i) - (double)(j - i);
	}
	return p;
}

/*
 * The exact conditional p: every way of choosing nx of the pooled values,
 * ties kept as they are, counted by the sum of their doubled ranks
 * (ways[k][s]: k chosen with sum s); p is the share of choices whose sum is
 * at least as far from its mean as x's. -1 without memory.
 */
static double exact_p(const long *r2, const struct ranked *p, size_t n, size_t nx)
{
	long total = 0, w = 0, mean2, dev, s;
	size_t i, k;
	double *ways, hits = 0, all = 0;

	for (i = 0; i < n; i++) {
		total += r2[i];
		w += p[i].from_x ? r2[i] : 0;
	}
	ways = calloc((nx + 1) * (size_t)(total + 1), sizeof(*ways));
	if (!ways)
		return -1;
#define WAYS(a, b) ways[(size_t)(a) * (size_t)(total + 1) + (size_t)(b)]
	WAYS(0, 0) = 1;
	for (i = 0; i < n; i++)
		for (k = i + 1 < nx ? i + 1 : nx; k > 0; k--)
			for (s = total; s >= r2[i]; s--)
				WAYS(k, s) += WAYS(k - 1, s - r2[i]);
	mean2 = (long)nx * (long)(n + 1);	/* the mean rank sum nx (n + 1) / 2, doubled */
	dev = labs(w - mean2);
	for (s = 0; s <= total; s++) {
		all += WAYS(nx, s);
		hits += labs(s - mean2) >= dev ? WAYS(nx, s) : 0;
	}
#undef WAYS
	free(ways);
	return all > 0 ? hits / all : 1;
}

/* The normal approximation with tie and continuity correction (scipy's). */
static double normal_p(double u, size_t nx, size_t ny, double ties)
{
	double mu = (double)nx * (double)ny / 2, n = (double)(nx + ny), var, z;

	var = (double)nx * (double)ny / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (var <= 0)
		return 1;
	u = u > mu ? u : (double)nx * (double)ny - u;	/* the larger U */
	z = (u - mu - 0.5) / sqrt(var);
	return erfc(z / sqrt(2));
}

double lat_mwu_p(const double *x, size_t nx, const double *y, size_t ny)
{
	size_t n = nx + ny;
	long *r2;
	struct ranked *p;
	double ties, pv = -1;

	if (!nx || !ny)
		return 1;
	r2 = malloc(n * sizeof(*r2));
	p = r2 ? pool_ranks(x, nx, y, ny, r2, &ties) : NULL;
	if (p && ties == (double)n * (double)n * (double)n - (double)n)
		pv = 1;				/* every value equal */
	else if (p && n <= LAT_MWU_EXACT_N)
		pv = exact_p(r2, p, n, nx);
	if (pv < 0)
		pv = normal_p(u_statistic(x, nx, y, ny), nx, ny, p ? ties : 0);
	free(p);
	free(r2);
	return pv > 1 ? 1 : pv;
}

/* P(U <= c) for sizes m, n without ties: the arrangements counted by
 * f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u), over C(m + n, m), for
 * every c at once into cdf[0 .. m n]. -ENOMEM. */
static int u_cdf(size_t m, size_t n, double *cdf)
{
	size_t w = m * n + 1, i, j, v;
	double *f = calloc((m + 1) * (n + 1) * w, sizeof(*f)), all = 0;

	if (!f)
		return -ENOMEM;
#define F(a, b, c) f[((a) * (n + 1) + (b)) * w + (c)]
	for (i = 0; i <= m; i++)
		for (j = 0; j <= n; j++)
			for (v = 0; v <= i * j; v++)
				F(i, j, v) = !i || !j ? (v == 0) :
					     (v >= j ? F(i - 1, j, v - j) : 0) + F(i, j - 1, v);
	for (v = 0; v < w; v++) {
		all += F(m, n, v);
		cdf[v] = all;
	}
	for (v = 0; v < w; v++)
		cdf[v] /= all;
#undef F
	free(f);
	return 0;
}

/* How many of the smallest differences the interval leaves out on each
 * side: the largest c with P(U <= c - 1) <= (1 - conf) / 2; 0 when even the
 * extreme arrangement is likelier (too few runs for conf). */
static size_t moses_k(size_t m, size_t n, double conf)
{
	double half = (1 - conf) / 2, *cdf, z;
	size_t c = 0;

	if (m * n > LAT_SHIFT_EXACT_MAX) {
		z = sqrt(2) * erfcinv_approx(2 * half);
		z = (double)m * (double)n / 2 - z * sqrt((double)m * (double)n * (double)(m + n + 1) / 12);
		return z > 0 ? (size_t)floor(z) : 0;
	}
	cdf = malloc((m * n + 1) * sizeof(*cdf));
	if (!cdf || u_cdf(m, n, cdf)) {
		free(cdf);
		return 0;
	}
	while (c <= m * n && cdf[c] <= half + 1e-12)
		c++;
	free(cdf);
	return c;
}

int lat_shift_interval(const double *x, size_t nx, const double *y, size_t ny, double conf,
		       struct lat_shift *out)
{
	size_t n = nx * ny, i, j, k;
	double *d;

	if (!nx || !ny)
		return -EINVAL;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++)
			d[i * ny + j] = y[j] - x[i];
	qsort(d, n, sizeof(*d), lat_cmp_double);
	out->est = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	k = moses_k(nx, ny, conf);
	out->lo = k ? d[k - 1] : -INFINITY;
	out->hi = k ? d[n - k] : INFINITY;
	out->confidence = conf;
	free(d);
	return 0;
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
