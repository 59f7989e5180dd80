/* SPDX-License-Identifier: MIT */
/* Command-line options of `latctl run` and the number parsers behind them. */
#ifndef LATCTL_OPTS_H
#define LATCTL_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "workload/workload.h"

#define LAT_DEFAULT_SLOW	"p99.9"
#define LAT_DEFAULT_SEED	42ULL
#define LAT_MAX_ITERS		1000000000ULL
#define LAT_MAX_REPEAT		1000ULL

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

void lat_opts_init(struct lat_opts *o);

/* Parse `run` options into o. 0 = run, 1 = --help printed, -EINVAL = one
 * line already printed on stderr (exit 2). */
int lat_opts_parse(int argc, char **argv, struct lat_opts *o);

/* One line for a rejected value of opt ("--rate"), naming what to give
 * (want); -EINVAL. A count in [min, max] or that line. */
int lat_opt_bad_value(const char *opt, const char *arg, int err, const char *want);
int lat_opt_parse_count(const char *opt, const char *arg, uint64_t min,
			uint64_t max, uint64_t *out);

void lat_opts_usage(FILE *out);

/* The getopt_long table of `run` (the core's options, then every
 * workload's) and its short options (--vm rebuilds the guest's command
 * line from them). */
struct option;
const struct option *lat_opts_table(const char **shortopts);

#endif /* LATCTL_OPTS_H */
