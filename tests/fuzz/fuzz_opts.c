// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the number parsers of the command line (counts,
 * durations, --slow thresholds) and lat_opts_parse() on an argument vector
 * split from the input at NUL bytes, then lat_wl_opts_apply() for a known
 * workload (its options into its config, another's refused).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "run/opts.h"

#define MAX_ARGS 16

/* The parsers on one string; a success must give a value in range
 * (opts.h: counts in [min, max], durations in (0, 1e15] ns, p in (0, 100)). */
static void parse_one(const char *s)
{
	struct lat_threshold t;
	uint64_t u;
	double d;

	if (lat_parse_u64(s, 1, LAT_MAX_ITERS, &u) == 0 && (u < 1 || u > LAT_MAX_ITERS))
		abort();
	if (lat_parse_double(s, &d) == 0 && !(d > 0 && d <= __DBL_MAX__))
		abort();
	if (lat_parse_duration_ns(s, 0, &d) == 0 && !(d > 0 && d <= 1e15))
		abort();
	if (lat_parse_duration_ns(s, 1000, &d) == 0 && !(d > 0 && d <= 1e15))
		abort();
	if (lat_parse_threshold(s, &t) == 0 && t.is_percentile &&
	    !(t.value > 0 && t.value < 100))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2], *p;
	struct lat_opts o;
	int argc = 1;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	parse_one(buf);
	argv[0] = "run";
	for (p = buf; argc <= MAX_ARGS && p <= buf + size; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	lat_opts_init(&o);
	if (lat_opts_parse(argc, argv, &o) == 0 && lat_workload_find(o.workload))
		lat_wl_opts_apply(lat_workload_find(o.workload), o.wl_arg);
	free(buf);
	return 0;
}
