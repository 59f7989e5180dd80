// SPDX-License-Identifier: MIT
/* Option tables (lib/opt.c): parsing, the usage's lines, --list-opts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/opt.h"

enum { OPT_FLAG = LAT_OPT_LONG, OPT_MODE };

static void usage(FILE *out)
{
	fputs("usage: t\n", out);
}

static void list_modes(FILE *out)
{
	fputs(" fast slow", out);
}

static const struct lat_opt opts[] = {
	{ "flag", OPT_FLAG, NULL, "a flag", NULL, NULL },
	{ "help", 'h', NULL, "this text", NULL, NULL },
	{ "json", 'j', "FILE", "the JSON\nin FILE", "<file>", NULL },
	{ "mode", OPT_MODE, "M", "a mode", NULL, list_modes },
	{ "secret", 'x', NULL, NULL, NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL },
};

static const struct lat_cmd_opts cmd = {
	.cmd = "latctl t", .opt = opts, .width = 16, .args = "<json>", .usage = usage,
};

/* argc and argv of the words given, argv[argc] NULL. */
#define ARGS(...) (argv = (char *[]){ __VA_ARGS__, NULL }, \
		   (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))

/* What f wrote into a memory stream. */
static char *captured(void (*f)(FILE *, const struct lat_cmd_opts *))
{
	static char buf[1024];
	FILE *m = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(m);
	f(m, &cmd);
	fclose(m);
	return buf;
}

/* Keys in order, then the end; flags and values, short and long, the
 * arguments left where getopt permutes them. */
static void parses_in_order(void **state)
{
	struct lat_optp p;
	int argc;
	char **argv;

	(void)state;
	argc = ARGS("t", "--flag", "a.json", "-j", "f", "--mode=fast", "-x");
	lat_opt_begin(&p, &cmd);
	assert_int_equal(lat_opt_next(&p, argc, argv), OPT_FLAG);
	assert_int_equal(lat_opt_next(&p, argc, argv), 'j');
	assert_string_equal(optarg, "f");
	assert_int_equal(lat_opt_next(&p, argc, argv), OPT_MODE);
	assert_string_equal(optarg, "fast");
	assert_int_equal(lat_opt_next(&p, argc, argv), 'x');
	assert_int_equal(lat_opt_next(&p, argc, argv), LAT_OPT_END);
	assert_string_equal(argv[optind], "a.json");
}

/* Posix: the options end at the first argument. */
static void posix_stops(void **state)
{
	struct lat_cmd_opts c = cmd;
	struct lat_optp p;
	int argc;
	char **argv;

	(void)state;
	c.posix = 1;
	argc = ARGS("t", "--flag", "prog", "--flag");
	lat_opt_begin(&p, &c);
	assert_int_equal(lat_opt_next(&p, argc, argv), OPT_FLAG);
	assert_int_equal(lat_opt_next(&p, argc, argv), LAT_OPT_END);
	assert_int_equal(optind, 2);
}

/* An unknown option, a missing value, an unknown letter: one line each. */
static void bad_lines(void **state)
{
	struct lat_optp p;
	int argc;
	char **argv;

	(void)state;
	argc = ARGS("t", "--frob");
	lat_opt_begin(&p, &cmd);
	assert_int_equal(lat_opt_next(&p, argc, argv), LAT_OPT_BAD);
	assert_string_equal(p.why, "unknown option '--frob'; see 'latctl t --help'");
	argc = ARGS("t", "--mode");
	lat_opt_begin(&p, &cmd);
	assert_int_equal(lat_opt_next(&p, argc, argv), LAT_OPT_BAD);
	assert_string_equal(p.why, "option '--mode' needs a value; see 'latctl t --help'");
	argc = ARGS("t", "-Z");
	lat_opt_begin(&p, &cmd);
	assert_int_equal(lat_opt_next(&p, argc, argv), LAT_OPT_BAD);
	assert_string_equal(p.why, "unknown option '-Z'; see 'latctl t --help'");
}

/* The usage: names padded to the column, further lines under it, options
 * without help left out. */
static void usage_lines(void **state)
{
	(void)state;
	assert_string_equal(captured(lat_opt_usage),
			    "      --flag    a flag\n"
			    "  -h, --help    this text\n"
			    "  -j, --json FILE  the JSON\n"
			    "                in FILE\n"
			    "      --mode M  a mode\n");
}

/* --list-opts: every option, its values, then the arguments. */
static void list_lines(void **state)
{
	(void)state;
	assert_string_equal(captured(lat_opt_list),
			    "--flag\n--help\n--json= <file>\n--mode= fast slow\n--secret\n- <json>\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_in_order),
		cmocka_unit_test(posix_stops),
		cmocka_unit_test(bad_lines),
		cmocka_unit_test(usage_lines),
		cmocka_unit_test(list_lines),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("opt", tests, NULL, NULL);
}
