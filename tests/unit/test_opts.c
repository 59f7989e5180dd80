// SPDX-License-Identifier: MIT
/* Number, duration and threshold parsers; `run` option parsing. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "opts.h"

static void parse_u64(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(lat_parse_u64("5", 1, 10, &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(lat_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(lat_parse_u64("18446744073709551616", 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(lat_parse_u64("99999999999999999999999", 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(lat_parse_u64("-1", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(lat_parse_u64("abc", 0, 10, &v), -EINVAL);
	assert_int_equal(lat_parse_u64("12x", 0, 100, &v), -EINVAL);
	assert_int_equal(lat_parse_u64("", 0, 10, &v), -EINVAL);
	assert_int_equal(lat_parse_u64(" 1", 0, 10, &v), -EINVAL);
	assert_int_equal(lat_parse_u64("+1", 0, 10, &v), -EINVAL);
	assert_int_equal(lat_parse_u64("0", 1, 10, &v), -ERANGE);
	assert_int_equal(lat_parse_u64("11", 1, 10, &v), -ERANGE);
}

static void parse_duration(void **state)
{
	double ns = 0;

	(void)state;
	assert_int_equal(lat_parse_duration_ns("5us", 0, &ns), 0);
	assert_true(ns == 5000);
	assert_int_equal(lat_parse_duration_ns("1.5ms", 0, &ns), 0);
	assert_true(ns == 1.5e6);
	assert_int_equal(lat_parse_duration_ns("250ns", 0, &ns), 0);
	assert_true(ns == 250);
	assert_int_equal(lat_parse_duration_ns("2s", 0, &ns), 0);
	assert_true(ns == 2e9);
	assert_int_equal(lat_parse_duration_ns("10", 1e9, &ns), 0);	/* bare = seconds */
	assert_true(ns == 1e10);
	assert_int_equal(lat_parse_duration_ns("10", 0, &ns), -EINVAL);	/* unit required */
	assert_int_equal(lat_parse_duration_ns("5xs", 0, &ns), -EINVAL);
	assert_int_equal(lat_parse_duration_ns("-5us", 0, &ns), -EINVAL);
	assert_int_equal(lat_parse_duration_ns("us", 0, &ns), -EINVAL);
	assert_int_equal(lat_parse_duration_ns("0us", 0, &ns), -ERANGE);
	assert_int_equal(lat_parse_duration_ns("1e400s", 0, &ns), -ERANGE);
}

static void parse_threshold(void **state)
{
	struct lat_threshold t;

	(void)state;
	assert_int_equal(lat_parse_threshold("p99.9", &t), 0);
	assert_true(t.is_percentile && t.value == 99.9);
	assert_int_equal(lat_parse_threshold("5us", &t), 0);
	assert_true(!t.is_percentile && t.value == 5000);
	assert_int_equal(lat_parse_threshold(LAT_DEFAULT_SLOW, &t), 0);
	assert_int_not_equal(lat_parse_threshold("p100", &t), 0);
	assert_int_not_equal(lat_parse_threshold("p0", &t), 0);
	assert_int_not_equal(lat_parse_threshold("p", &t), 0);
	assert_int_not_equal(lat_parse_threshold("pabc", &t), 0);
	assert_int_not_equal(lat_parse_threshold("5", &t), 0);
	assert_int_not_equal(lat_parse_threshold("fast", &t), 0);
}

/* lat_opts_parse with stderr silenced; returns its result. */
static int parse(struct lat_opts *o, int argc, char **argv)
{
	int saved = dup(2), devnull = open("/dev/null", O_WRONLY), ret;

	dup2(devnull, 2);
	lat_opts_init(o);
	ret = lat_opts_parse(argc, argv, o);
	dup2(saved, 2);
	close(saved);
	close(devnull);
	return ret;
}

#define ARGS(...) (sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), (char *[]){ __VA_ARGS__ }

static void run_options(void **state)
{
	struct lat_opts o;

	(void)state;
	assert_int_equal(parse(&o, ARGS("run", "grow", "--iters", "100", "--cpu", "1",
					"--thp", "always", "--slow", "p99", "-q", "--no-thp")), 0);
	assert_string_equal(o.workload, "grow");
	assert_int_equal(o.iters, 100);
	assert_int_equal(o.cpu, 1);
	assert_string_equal(o.thp, "always");
	assert_string_equal(o.slow, "p99");
	assert_true(o.quiet && o.no_thp);
	assert_int_equal(o.seed, LAT_DEFAULT_SEED);
	assert_int_equal(lat_opts_given(&o), 0);
	/* options may come before the workload */
	assert_int_equal(parse(&o, ARGS("run", "--rate", "1000", "request", "--hugepage")), 0);
	assert_string_equal(o.workload, "request");
	assert_int_equal(lat_opts_given(&o), LAT_ACCEPT_RATE | LAT_ACCEPT_HUGEPAGE);
	assert_int_equal(parse(&o, ARGS("run", "mmap", "--duration", "2s", "--procs", "3")), 0);
	assert_true(o.duration_s == 2 && o.procs == 3);
}

static void run_bad_options(void **state)
{
	struct lat_opts o;

	(void)state;
	assert_int_equal(parse(&o, ARGS("run", "grow", "--iters", "-1")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run", "grow", "--iters", "abc")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run", "grow", "--iters", "99999999999999999999")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run", "grow", "--cpu", "-1")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run", "grow", "--thp", "sometimes")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run", "grow", "--slow", "5")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run", "grow", "--threads", "0")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run", "grow", "--frob")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run", "grow", "--iters")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run")), -EINVAL);
	assert_int_equal(parse(&o, ARGS("run", "grow", "chase")), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_u64),
		cmocka_unit_test(parse_duration),
		cmocka_unit_test(parse_threshold),
		cmocka_unit_test(run_options),
		cmocka_unit_test(run_bad_options),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("opts", tests, NULL, NULL);
}
