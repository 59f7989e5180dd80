// SPDX-License-Identifier: MIT
/* One metric of two documents: medians, intervals, change, significance. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fmt.h"
#include "compare/pair.h"

size_t lat_pair_min_runs(void)
{
	return lat_signif_min_runs(LAT_SIGNIF_ALPHA);
}

static void side(const double *v, size_t n, struct lat_interval *iv)
{
	if (!n || lat_median_interval(v, n, iv))
		*iv = (struct lat_interval){ .n = n };
}

static int all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	return 1;
}

/* A shift (a log-ratio or a difference) in % of the base. */
static double to_pct(double d, int ratio, double base_median)
{
	if (ratio)
		return (exp(d) - 1) * 100;
	if (base_median != 0)
		return d / fabs(base_median) * 100;
	return d == 0 ? 0 : d > 0 ? INFINITY : -INFINITY;
}

/* The change with its intervals, on logs when every value is positive. */
static int change_of(double *b, size_t nb, double *w, size_t nw, double bound_conf,
		     struct lat_pair *out)
{
	struct lat_shift s95, s90;
	size_t i;

	out->ratio = all_positive(b, nb) && all_positive(w, nw);
	for (i = 0; out->ratio && i < nb; i++)
		b[i] = log(b[i]);
	for (i = 0; out->ratio && i < nw; i++)
		w[i] = log(w[i]);
	if (lat_shift_interval(b, nb, w, nw, LAT_PAIR_CONFIDENCE, &s95) ||
	    lat_shift_interval(b, nb, w, nw, bound_conf, &s90))
		return -ENOMEM;
	out->change_pct = to_pct(s95.est, out->ratio, out->base.median);
	if (!out->ratio && out->base.median == 0 && s95.est != 0)
		out->change_pct = NAN;
	out->change_lo = to_pct(s95.lo, out->ratio, out->base.median);
	out->change_hi = to_pct(s95.hi, out->ratio, out->base.median);
	out->bound_lo = to_pct(s90.lo, out->ratio, out->base.median);
	out->bound_hi = to_pct(s90.hi, out->ratio, out->base.median);
	return 0;
}

int lat_pair_significant(const struct lat_pair *p, double alpha)
{
	return p->verdict && !p->missing && p->p < alpha &&
	       (p->change_lo > LAT_SIGNIF_NOISE_PCT || p->change_hi < -LAT_SIGNIF_NOISE_PCT);
}

static int pair_values(double *b, size_t nb, double *w, size_t nw, int verdict,
		       double bound_conf, struct lat_pair *out)
{
	int ret = 0;

	memset(out, 0, sizeof(*out));
	side(b, nb, &out->base);
	side(w, nw, &out->new);
	out->present = nb || nw;
	out->missing = !nb || !nw;
	out->p = lat_mwu_p(b, nb, w, nw);
	out->verdict = verdict;
	out->change_lo = out->bound_lo = -INFINITY;
	out->change_hi = out->bound_hi = INFINITY;
	out->change_pct = NAN;
	if (!out->missing)
		ret = change_of(b, nb, w, nw, bound_conf, out);
	out->alpha = LAT_SIGNIF_ALPHA;
	out->significant = lat_pair_significant(out, out->alpha);
	return ret;
}

int lat_pair_values(double *b, size_t nb, double *w, size_t nw, int verdict,
		    struct lat_pair *out)
{
	return pair_values(b, nb, w, nw, verdict, LAT_PAIR_BOUND_CONF, out);
}

int lat_pair_values_conf(double *b, size_t nb, double *w, size_t nw, int verdict,
			 double bound_conf, struct lat_pair *out)
{
	return pair_values(b, nb, w, nw, verdict, bound_conf, out);
}

int lat_pair_compute(const cJSON *base, const cJSON *new, const struct lat_metric *m,
		     struct lat_pair *out)
{
	return lat_pair_sides(&base, 1, &new, 1, m, out);
}

void lat_pair_fmt(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "%"))
		lat_fmt_fixed(buf, len, v * 100, "%", LAT_PAIR_WIDTH);
	else if (!strcmp(unit, "ns"))
		lat_fmt_ns(buf, len, v, LAT_PAIR_WIDTH);
	else
		lat_fmt_num(buf, len, v, "", LAT_PAIR_WIDTH);
}

static cJSON *interval_json(const struct lat_interval *iv)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "median", iv->median);
	cJSON_AddNumberToObject(o, "lo", iv->lo);
	cJSON_AddNumberToObject(o, "hi", iv->hi);
	cJSON_AddNumberToObject(o, "confidence", iv->confidence);
	cJSON_AddNumberToObject(o, "n", (double)iv->n);
	return o;
}

/* A bound as JSON: null when it is infinite (too few runs) or unknown. */
static cJSON *finite_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

const char *lat_pair_word(const struct lat_pair *p)
{
	if (p->verdict && p->significant)
		return "changed";
	if (p->verdict && isfinite(p->change_lo) && isfinite(p->change_hi) &&
	    p->change_lo >= -LAT_SIGNIF_NOISE_PCT && p->change_hi <= LAT_SIGNIF_NOISE_PCT)
		return "no change";
	return "cannot tell";
}

size_t lat_pair_runs_to_tell(const struct lat_pair *p)
{
	double alpha = p->alpha > 0 ? p->alpha : LAT_SIGNIF_ALPHA;

	if (p->base.n && p->new.n && lat_mwu_min_p(p->base.n, p->new.n) < alpha)
		return 0;
	return lat_signif_min_runs(alpha);
}

cJSON *lat_pair_json(const struct lat_pair *p)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "base", interval_json(&p->base));
	cJSON_AddItemToObject(o, "new", interval_json(&p->new));
	cJSON_AddItemToObject(o, "change_pct", isnan(p->change_pct) ? cJSON_CreateNull() :
			      cJSON_CreateNumber(p->change_pct));
	/* a ratio's unbounded lower end is -100% (a ratio of 0): no bound */
	cJSON_AddItemToObject(o, "change_lo_pct", p->ratio && p->change_lo <= -100 ?
			      cJSON_CreateNull() : finite_or_null(p->change_lo));
	cJSON_AddItemToObject(o, "change_hi_pct", finite_or_null(p->change_hi));
	cJSON_AddNumberToObject(o, "p", p->p);
	cJSON_AddBoolToObject(o, "verdict", p->verdict);
	cJSON_AddBoolToObject(o, "significant", p->significant);
	cJSON_AddStringToObject(o, "says", lat_pair_word(p));
	cJSON_AddNumberToObject(o, "runs_to_tell", (double)lat_pair_runs_to_tell(p));
	cJSON_AddBoolToObject(o, "primary", p->primary);
	cJSON_AddNumberToObject(o, "alpha", p->alpha);
	return o;
}

/* The values of m on one side: each run's when it is one document, else
 * each document's median over its runs (its invocation is the unit: runs
 * of one invocation share its machine state). NULL without memory. */
double *lat_side_values(const cJSON *const *docs, size_t n, const struct lat_metric *m, size_t *k)
{
	struct lat_interval iv;
	double *v, *one;
	size_t i, c;

	if (n == 1) {
		*k = lat_metric_values(docs[0], m, &v);
		return v;
	}
	v = malloc(n * sizeof(*v));
	for (i = 0, *k = 0; v && i < n; i++) {
		c = lat_metric_values(docs[i], m, &one);
		if (c && !lat_median_interval(one, c, &iv))
			v[(*k)++] = iv.median;
		free(one);
	}
	return v;
}

size_t lat_side_units(const cJSON *const *docs, size_t n)
{
	return n == 1 ? lat_runs_count(docs[0]) : n;
}

int lat_pair_sides(const cJSON *const *base, size_t nb, const cJSON *const *new, size_t nn,
		   const struct lat_metric *m, struct lat_pair *out)
{
	return lat_pair_sides_conf(base, nb, new, nn, m, LAT_PAIR_BOUND_CONF, out);
}

int lat_pair_sides_conf(const cJSON *const *base, size_t nb, const cJSON *const *new, size_t nn,
			const struct lat_metric *m, double bound_conf, struct lat_pair *out)
{
	size_t kb = 0, kn = 0, need = lat_pair_min_runs();
	double *b = lat_side_values(base, nb, m, &kb), *w = lat_side_values(new, nn, m, &kn);
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (b && w)
		ret = pair_values(b, kb, w, kn, lat_side_units(base, nb) >= need &&
				  lat_side_units(new, nn) >= need, bound_conf, out);
	free(b);
	free(w);
	return ret;
}

void lat_icc_fmt(char *buf, size_t len, const char *side, double icc)
{
	if (isnan(icc))
		snprintf(buf, len, "%s -", side);
	else
		snprintf(buf, len, "%s %.2f", side, icc);
}

/* One document's runs of m on logs: their count, mean and sum of squared
 * deviations. -1 when a value is not positive. */
static int group_of(const cJSON *doc, const struct lat_metric *m, size_t *k, double *mean,
		    double *ss)
{
	double *v, s = 0;
	size_t j;
	int ret = 0;

	*k = lat_metric_values(doc, m, &v);
	*ss = 0;
	for (j = 0; j < *k; j++) {
		ret |= !(v[j] > 0);
		v[j] = v[j] > 0 ? log(v[j]) : 0;
		s += v[j];
	}
	*mean = *k ? s / (double)*k : 0;
	for (j = 0; j < *k; j++)
		*ss += (v[j] - *mean) * (v[j] - *mean);
	free(v);
	return ret ? -1 : 0;
}

/* One-way random-effects ICC(1) of m's runs grouped by document, on logs:
 * the share of the runs' variance the invocation explains. NAN with fewer
 * than 2 documents of 2 runs, or a value not positive. */
double lat_side_icc(const cJSON *const *docs, size_t n, const struct lat_metric *m)
{
	double gm[64], ssw = 0, ssb = 0, sum = 0, nsq = 0, mean, ss, msb, msw, n0;
	size_t k[64], g = 0, total = 0, i, c;

	for (i = 0; i < n && g < 64; i++) {
		if (group_of(docs[i], m, &c, &mean, &ss))
			return NAN;
		if (c < 2)
			continue;
		k[g] = c;
		gm[g++] = mean;
		ssw += ss;
		sum += mean * (double)c;
		total += c;
		nsq += (double)c * (double)c;
	}
	if (g < 2)
		return NAN;
	for (i = 0; i < g; i++)
		ssb += (double)k[i] * (gm[i] - sum / (double)total) * (gm[i] - sum / (double)total);
	msb = ssb / (double)(g - 1);
	msw = ssw / (double)(total - g);
	n0 = ((double)total - nsq / (double)total) / (double)(g - 1);
	return msb + (n0 - 1) * msw > 0 ? (msb - msw) / (msb + (n0 - 1) * msw) : NAN;
}
