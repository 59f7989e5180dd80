/* SPDX-License-Identifier: MIT */
/* One metric of two result documents: each side's median with its
 * interval, the change and its significance (compare and check). */
#ifndef LATCTL_PAIR_H
#define LATCTL_PAIR_H

#include <cjson/cJSON.h>

#include "doc/runs.h"
#include "compare/signif.h"

/* Confidence of the change's interval in the table, and of the one-sided
 * bounds a verdict of check rests on (the two-sided 90% interval: 95% on
 * each side). */
#define LAT_PAIR_CONFIDENCE	0.95
#define LAT_PAIR_BOUND_CONF	0.90

struct lat_pair {
	struct lat_interval base, new;
	/* The change of new against base in % of base: the Hodges-Lehmann
	 * estimate of the ratio (all values > 0) or of the difference over the
	 * base's median; NAN when base is 0 and new is not ("new"). lo, hi:
	 * its LAT_PAIR_CONFIDENCE interval; bound_lo, bound_hi: the one-sided
	 * 95% bounds. Infinite bounds: too few runs for that confidence. */
	double change_pct, change_lo, change_hi, bound_lo, bound_hi;
	double p;		/* Mann-Whitney U, two-sided, exact for small samples */
	int verdict;		/* 0: too few runs on a side to tell anything */
	int significant;	/* p < alpha and the interval of the change lies
				 * outside +-LAT_SIGNIF_NOISE_PCT (only with verdict) */
	int present;		/* some run of either side has a value */
	int missing;		/* a side has no value at all */
	int ratio;		/* the change is a ratio (every value > 0) */
	int primary;		/* the row a comparison judges (compare.h) */
	double alpha;		/* the level it was judged at (Holm for the others) */
};

/* Compute m over the runs of base and new; significant at LAT_SIGNIF_ALPHA
 * (compare corrects the rows other than the primary one). 0 or -ENOMEM. */
int lat_pair_compute(const cJSON *base, const cJSON *new, const struct lat_metric *m,
		     struct lat_pair *out);

/* The same from each side's values (b, w are changed: logs of them when
 * every value is positive); verdict: both sides have enough runs. The
 * statistics of compare and check in one place, for the tests and the
 * benchmark of the verdicts. 0 or -ENOMEM. */
int lat_pair_values(double *b, size_t nb, double *w, size_t nw, int verdict,
		    struct lat_pair *out);
/* The same with bound_lo, bound_hi of the two-sided bound_conf interval
 * (check --looks; the benchmark of the sequential rule). */
int lat_pair_values_conf(double *b, size_t nb, double *w, size_t nw, int verdict,
			 double bound_conf, struct lat_pair *out);

/* The pair of two sides of one or more documents each: one document's runs
 * are its units, several documents' medians are (each an invocation); a
 * verdict needs lat_pair_min_runs() units a side. 0 or -ENOMEM. */
int lat_pair_sides(const cJSON *const *base, size_t nb, const cJSON *const *new, size_t nn,
		   const struct lat_metric *m, struct lat_pair *out);
/* The same with the bounds bound_lo, bound_hi of the two-sided bound_conf
 * interval (check's correction across several metrics). */
int lat_pair_sides_conf(const cJSON *const *base, size_t nb, const cJSON *const *new, size_t nn,
			const struct lat_metric *m, double bound_conf, struct lat_pair *out);
size_t lat_side_units(const cJSON *const *docs, size_t n);
/* The values of m that are a side's units: each run's of one document,
 * else each document's median over its runs. NULL without memory. */
double *lat_side_values(const cJSON *const *docs, size_t n, const struct lat_metric *m, size_t *k);

/* One side of a comparison: one result (its runs the units), or several
 * invocations of one configuration (each a unit). */
struct lat_side {
	const cJSON *const *doc;
	size_t n;
};
/* The intra-class correlation of m's runs within the documents (one-way
 * ICC(1) on logs): how much runs of one invocation agree beyond chance;
 * NAN when it cannot be told (fewer than 2 documents of 2 runs, a value
 * not positive). */
double lat_side_icc(const cJSON *const *docs, size_t n, const struct lat_metric *m);

/* "base 0.31" of an ICC, or "base -" where there is none. */
void lat_icc_fmt(char *buf, size_t len, const char *side, double icc);

/* Significance at alpha: p < alpha and the interval clear of the noise. */
int lat_pair_significant(const struct lat_pair *p, double alpha);

/* Runs a side needs for a verdict (lat_signif_min_runs at alpha). */
size_t lat_pair_min_runs(void);

/* The widest text of lat_pair_fmt for a finite value. */
#define LAT_PAIR_WIDTH 8

/* "2.315us", "29.85ns", "12.5%", "0.0271" for a value of unit, fewer digits
 * where that is wider than LAT_PAIR_WIDTH ("2e+299s"). */
void lat_pair_fmt(char *buf, size_t len, double v, const char *unit);

/* The pair as JSON {base: {median, lo, hi, confidence, n}, new: ...,
 * change_pct, change_lo_pct, change_hi_pct, p, significant, verdict}. */
cJSON *lat_pair_json(const struct lat_pair *p);

/* What a row says, in three words: "changed" (significant), "no change"
 * (the change's 95% interval inside +-LAT_SIGNIF_NOISE_PCT), "cannot tell"
 * (neither, or too few runs). */
const char *lat_pair_word(const struct lat_pair *p);
/* Runs a side with which this row could tell at its level (its alpha): 0
 * when the runs it has could already; else the smallest n whose least
 * possible p is below alpha. */
size_t lat_pair_runs_to_tell(const struct lat_pair *p);

#endif /* LATCTL_PAIR_H */
