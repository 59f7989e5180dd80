// SPDX-License-Identifier: MIT
/* compare's table and its cause explanation fit 80 columns whatever the
 * values: 1 ns beside 10 s, nine-digit counters, a side a million times
 * the other, runs spread over orders of magnitude. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare/compare.h"
#include "compare/pair.h"
#include "lib/fmt.h"

static const char *const labels[] = {
	"fault~", "unexplained", "thp-zero~", "unattributed", "interrupt", "compaction",
};

static void add_cause(cJSON *list, const char *label, double scale, size_t k)
{
	cJSON *c = cJSON_CreateObject();

	cJSON_AddStringToObject(c, "label", label);
	cJSON_AddNumberToObject(c, "primary", 123456789.0 / (k + 1));
	cJSON_AddNumberToObject(c, "present", 987654321.0);
	cJSON_AddNumberToObject(c, "share", k ? 0.0001 * k : 0.9999);
	cJSON_AddNumberToObject(c, "total_ns", 9.87e9 * scale / (k + 1));
	cJSON_AddStringToObject(c, "own", "net");
	cJSON_AddNumberToObject(c, "own_count", 123456789);
	cJSON_AddNumberToObject(c, "own_median_ns", k % 2 ? 1.0 : 1e10 * scale);
	cJSON_AddNumberToObject(c, "own_max_ns", 1e10 * scale);
	cJSON_AddBoolToObject(c, "estimated", k % 2);
	cJSON_AddItemToArray(list, c);
}

/* One run: percentiles from 1 ns to 10 s times scale, spread by i. */
static cJSON *make_run(double scale, size_t i)
{
	static const char *const keys[] = { "min_ns", "p50_ns", "p90_ns", "p99_ns",
		"p99_9_ns", "p99_99_ns", "max_ns", "mean_ns" };
	cJSON *r = cJSON_CreateObject(), *s = cJSON_AddObjectToObject(r, "summary");
	cJSON *c = cJSON_AddObjectToObject(r, "counters"), *ca, *list, *ev;
	double f = scale * pow(37.0, (double)i);
	size_t k;

	cJSON_AddNumberToObject(s, "count", 999999999);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		cJSON_AddNumberToObject(s, keys[k], (k == 6 ? 1e10 : pow(10, (double)k)) * f);
	cJSON_AddNumberToObject(s, "total_ns", 1e10 * f);
	cJSON_AddNumberToObject(c, "minor_faults", 123456789.0 * (i + 1));
	cJSON_AddNumberToObject(c, "thp_fault_alloc", 987654321.0 * scale);
	ca = cJSON_AddObjectToObject(r, "causes");
	cJSON_AddNumberToObject(ca, "slow_iterations", 123456789);
	cJSON_AddNumberToObject(ca, "slow_threshold_ns", 1e10 * f);
	cJSON_AddNumberToObject(ca, "slow_total_ns", 9.87e9 * f);
	list = cJSON_AddArrayToObject(ca, "causes");
	for (k = 0; k < sizeof(labels) / sizeof(labels[0]); k++)
		add_cause(list, labels[k], f, k);
	ev = cJSON_AddObjectToObject(ca, "events");
	cJSON_AddNumberToObject(ev, "lost_events", 0);
	cJSON_AddNumberToObject(ev, "incomplete_iterations", 0);
	return r;
}

static cJSON *make_doc(double scale, size_t runs)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON *per = cJSON_AddArrayToObject(cJSON_AddObjectToObject(doc, "repeat"), "per_run");
	size_t i;

	cJSON_AddStringToObject(doc, "schema", "latctl.result");
	for (i = 0; i < runs; i++)
		cJSON_AddItemToArray(per, make_run(scale, i));
	return doc;
}

/* Every line of text no wider than 80 columns; "±" counts one. */
static void assert_fits(const char *text)
{
	const char *p = text, *nl;

	for (; *p; p = nl + 1) {
		size_t cols = 0;
		const char *q;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		for (q = p; q < nl; q++)
			cols += ((unsigned char)*q & 0xc0) != 0x80;
		if (cols > LAT_TEXT_WIDTH)
			fail_msg("%zu columns: %.*s", cols, (int)(nl - p), p);
		if (!*nl)
			break;
	}
}

/* base -> new of nb and nn documents a side, each of runs runs: the text
 * fits, and a side of several documents is said to be of invocations. */
static void check_sides(double base_scale, double new_scale, size_t runs, size_t nb, size_t nn,
			const char *primary)
{
	cJSON *docs[8];
	const cJSON *cdocs[8];
	struct lat_side base = { cdocs, nb }, new = { cdocs + nb, nn };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	for (i = 0; i < nb + nn; i++)
		cdocs[i] = docs[i] =
			make_doc(i < nb ? base_scale : new_scale * (1 + 0.01 * i), runs);
	assert_int_equal(lat_compare_print(f, &base, &new, primary), 0);
	fclose(f);
	assert_non_null(strstr(buf, "the change explained by causes"));
	if (getenv("TABLE_WIDTH_SHOW"))
		fputs(buf, stderr);
	assert_fits(buf);
	assert_true((strstr(buf, "  units: base ") != NULL) == (nb > 1 || nn > 1));
	assert_true((strstr(buf, "mixed units") != NULL) == ((nb > 1) != (nn > 1)));
	free(buf);
	for (i = 0; i < nb + nn; i++)
		cJSON_Delete(docs[i]);
}

static void check_pair(double base_scale, double new_scale, size_t runs, const char *primary)
{
	check_sides(base_scale, new_scale, runs, 1, 1, primary);
}

static void test_extremes_fit(void **state)
{
	(void)state;
	check_pair(1, 1, 5, NULL);
	check_pair(1, 1e6, 5, NULL);
	check_pair(1e6, 1e-6, 8, "p50");
	check_pair(1e-9, 1e200, 3, NULL);
	check_pair(1, 1e-3, 1, NULL);
}

/* Sides of several invocations: the units and ICC lines fit too, with a
 * long primary metric's name. */
static void test_invocations_fit(void **state)
{
	(void)state;
	check_sides(1, 1e6, 3, 4, 4, "share:unattributed");
	check_sides(1e-9, 1e200, 2, 4, 1, NULL);
	check_sides(1, 2, 5, 1, 4, "own:thp-zero~");
	check_sides(1, 1, 1, 2, 2, NULL);
}

static void test_formatters_bounded(void **state)
{
	static const double v[] = { 0, 1, -1, 999.95, 1e4, 123456789, -987654321,
		1e10, 1.7e308, -1.7e308, 5e-324, NAN, INFINITY };
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		lat_pair_fmt(buf, sizeof(buf), v[i], "ns");
		assert_true(strlen(buf) <= LAT_PAIR_WIDTH);
		lat_pair_fmt(buf, sizeof(buf), v[i], "%");
		assert_true(strlen(buf) <= LAT_PAIR_WIDTH);
		lat_pair_fmt(buf, sizeof(buf), v[i], "");
		assert_true(strlen(buf) <= LAT_PAIR_WIDTH);
		lat_fmt_ns_cell(buf, sizeof(buf), v[i], 7);
		assert_true(strlen(buf) <= 8);
		lat_fmt_change(buf, sizeof(buf), v[i], "%", 9);
		assert_true(strlen(buf) <= 9);
	}
	lat_fmt_ns_cell(buf, sizeof(buf), 99999, 7);
	assert_string_equal(buf, "99999");	/* whole ns below 100 us */
	lat_fmt_ns_cell(buf, sizeof(buf), 108352, 7);
	assert_string_equal(buf, "108.4us");
	lat_fmt_ns_cell(buf, sizeof(buf), 54502817, 7);
	assert_string_equal(buf, "54.5ms");
	lat_pair_fmt(buf, sizeof(buf), 1e10, "ns");
	assert_string_equal(buf, "10s");
	lat_pair_fmt(buf, sizeof(buf), 1.7e308, "ns");
	assert_string_equal(buf, "2e+299s");
	lat_fmt_change(buf, sizeof(buf), 12.34, "%", 9);
	assert_string_equal(buf, "+12.3%");
	lat_fmt_change(buf, sizeof(buf), 123456789, "%", 9);
	assert_string_equal(buf, "+1e+08%");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formatters_bounded),
		cmocka_unit_test(test_extremes_fit),
		cmocka_unit_test(test_invocations_fit),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("table_width", tests, NULL, NULL);
}
