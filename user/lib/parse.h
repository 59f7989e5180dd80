/* SPDX-License-Identifier: MIT */
/* The strict parsers of numbers, durations and thresholds that every command
 * line and environment variable of latctl goes through. */
#ifndef LATCTL_PARSE_H
#define LATCTL_PARSE_H

#include <stdint.h>

/* --slow: a percentile (p99.9) or an absolute time in ns. */
struct lat_threshold {
	int is_percentile;
	double value;		/* percent (0 < p < 100) or ns */
};

/* Whole decimal number in [min, max]. Rejects "-1", "abc", "12x", "",
 * overflow. 0, -EINVAL (not a number) or -ERANGE (outside [min, max]). */
int lat_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Positive finite decimal ("1000", "2.5"). 0 or -EINVAL / -ERANGE. */
int lat_parse_double(const char *s, double *out);

/* "250ns", "5us", "1.5ms", "2s"; a bare number uses bare_unit_ns, or is
 * rejected when bare_unit_ns is 0. 0 or -EINVAL / -ERANGE. */
int lat_parse_duration_ns(const char *s, double bare_unit_ns, double *ns);

/* "p99.9" (0 < p < 100) or a duration with a unit ("5us"). 0 or -EINVAL. */
int lat_parse_threshold(const char *s, struct lat_threshold *t);

/* One line for a rejected value of opt ("--rate"), naming what to give
 * (want); -EINVAL. A count in [min, max] or that line. */
int lat_opt_bad_value(const char *opt, const char *arg, int err, const char *want);
int lat_opt_parse_count(const char *opt, const char *arg, uint64_t min,
			uint64_t max, uint64_t *out);

#endif /* LATCTL_PARSE_H */
