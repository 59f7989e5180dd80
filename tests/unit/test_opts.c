// SPDX-License-Identifier: MIT
/* Number, duration and threshold parsers; `run` option parsing. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/parse.h"
#include "run/opts.h"

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
	ret = lat_opts_parse(argc, argv, o) == LAT_PARSED_BAD ? -EINVAL : 0;
	dup2(saved, 2);
	close(saved);
	close(devnull);
	return ret;
}

#define ARGS(...) (sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), (char *[]){ __VA_ARGS__ }

/* The value of a workload's option as the workload reads it: parsed into
 * its config struct by lat_wl_opts_apply(); 0 if it has no such option. */
static double wl_value(const char *workload, const char *name)
{
	const struct workload_ops *ops = lat_workload_find(workload);
	const struct lat_wl_opt *opt;
	const char *p;

	for (opt = ops->opts; opt && opt->name; opt++) {
		if (strcmp(opt->name, name))
			continue;
		p = (const char *)ops->config + opt->offset;
		return opt->type == LAT_WL_OPT_FLAG || opt->type == LAT_WL_OPT_COUNT ?
			*(const int *)p : *(const double *)p;
	}
	return 0;
}

/* parse() and lat_wl_opts_apply() for o.workload, stderr silenced. */
static int parse_apply(struct lat_opts *o, int argc, char **argv)
{
	int saved, devnull, ret = parse(o, argc, argv);

	if (ret)
		return ret;
	saved = dup(2), devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, 2);
	ret = lat_wl_opts_apply(lat_workload_find(o->workload), o->wl_arg);
	dup2(saved, 2);
	close(saved);
	close(devnull);
	return ret;
}

static void run_options(void **state)
{
	struct lat_opts o;

	(void)state;
	assert_int_equal(parse_apply(&o, ARGS("run", "grow", "--iters", "100", "--cpu", "1",
					      "--thp", "always", "--slow", "p99", "-q")), 0);
	assert_string_equal(o.workload, "grow");
	assert_int_equal(o.iters, 100);
	assert_int_equal(o.cpu, 1);
	assert_string_equal(o.thp, "always");
	assert_string_equal(o.slow, "p99");
	assert_true(o.quiet && !o.no_thp);
	assert_int_equal(o.seed, LAT_DEFAULT_SEED);
	assert_int_equal(parse_apply(&o, ARGS("run", "grow", "--no-thp")), 0);
	assert_true(o.no_thp);
	/* --thp for the system and --no-thp for this run both apply */
	assert_int_equal(parse_apply(&o, ARGS("run", "grow", "--thp", "always", "--no-thp")), 0);
	assert_true(o.no_thp && !strcmp(o.thp, "always"));
	/* repeated: refused */
	assert_int_not_equal(parse_apply(&o, ARGS("run", "grow", "--thp", "always", "--thp", "never")), 0);
	assert_int_not_equal(parse_apply(&o, ARGS("run", "grow", "--json", "a", "--json", "b")), 0);
	for (size_t i = 0; lat_wl_opt_at(i); i++)
		assert_null(o.wl_arg[i]);	/* no workload option given */
	/* options may come before the workload */
	assert_int_equal(parse_apply(&o, ARGS("run", "--rate", "1000", "request")), 0);
	assert_string_equal(o.workload, "request");
	assert_true(wl_value("request", "rate") == 1000);
	assert_int_equal(parse_apply(&o, ARGS("run", "--hugepage", "chase")), 0);
	assert_true(wl_value("chase", "hugepage") == 1);
	assert_int_equal(parse_apply(&o, ARGS("run", "mmap", "--duration", "2s", "--procs", "3")), 0);
	assert_true(wl_value("mmap", "duration") == 2 && wl_value("mmap", "procs") == 3);
	/* a later run starts from zero: nothing left from the one before */
	assert_int_equal(parse_apply(&o, ARGS("run", "mmap", "--procs", "2")), 0);
	assert_true(wl_value("mmap", "duration") == 0 && wl_value("mmap", "procs") == 2);
	assert_int_equal(parse_apply(&o, ARGS("run", "alloc", "--threads", "4")), 0);
	assert_true(wl_value("alloc", "threads") == 4);
	/* no cap at 1024 on the threads exec keeps */
	assert_int_equal(parse_apply(&o, ARGS("run", "exec", "--threads", "5000", "true")), 0);
	assert_true(wl_value("exec", "threads") == 5000);
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
	/* another workload's option, or a bad value of one */
	assert_int_equal(parse_apply(&o, ARGS("run", "request", "--hugepage")), -EINVAL);
	assert_int_equal(parse_apply(&o, ARGS("run", "grow", "--rate", "1000")), -EINVAL);
	assert_int_equal(parse_apply(&o, ARGS("run", "mmap", "--procs", "1048577")), -EINVAL);
	assert_int_equal(parse_apply(&o, ARGS("run", "request", "--rate", "2e9")), -EINVAL);
	assert_int_equal(parse_apply(&o, ARGS("run", "mmap", "--duration", "5parsecs")), -EINVAL);
	assert_int_equal(parse_apply(&o, ARGS("run", "mmap", "--duration")), -EINVAL);
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
