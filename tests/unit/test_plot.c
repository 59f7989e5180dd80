// SPDX-License-Identifier: MIT
/* latctl plot's cause styles: every label has its own, and the SVG
 * patterns and a comparison drawn from them name real colours. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plot/plot.h"
#include "plot/plot_int.h"

/* A label that is only ever a part of another and drawn as it. */
static int folded(int l)
{
	return l == JOIN_ZERO_ALLOC;
}

static void every_label_has_a_style(void **state)
{
	const struct lat_style *s;
	int l;

	(void)state;
	for (l = 0; l < NLAB; l++) {
		s = lat_plot_style(l);
		assert_non_null(s->colour);
		assert_int_equal(strlen(s->colour), 7);
		assert_int_equal(s->colour[0], '#');
		assert_in_range(s->hatch, HATCH_NONE, HATCH_GRID);
		assert_in_range(s->marker, MARK_CIRCLE, MARK_TRIANGLE_DOWN);
	}
}

/* Two causes never share a colour: the picture and its tests tell them
 * apart by it (the hatch and the mark are for greyscale). */
static void colours_differ(void **state)
{
	int a, b;

	(void)state;
	for (a = 0; a < NLAB; a++)
		for (b = a + 1; b < NLAB; b++)
			if (!folded(a) && !folded(b) &&
			    !strcasecmp(lat_plot_style(a)->colour, lat_plot_style(b)->colour))
				fail_msg("labels %d and %d share %s", a, b, lat_plot_style(a)->colour);
}

/* Output of fn(out) as a string (malloc'd). */
static char *captured(void (*fn)(FILE *out))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f);
	fclose(f);
	return buf;
}

static void patterns_have_colours(void **state)
{
	char *svg = captured(lat_plot_defs), *p;
	int n = 0;

	(void)state;
	assert_null(strstr(svg, "(null)"));
	for (p = svg; (p = strstr(p, "<pattern id=\"p")); p++)
		n++;
	assert_int_equal(n, NLAB);
	free(svg);
}

static const char cmp_json[] =
	"{\"base\": \"a.json\", \"new\": \"b.json\", \"runs_base\": 1, \"runs_new\": 1,"
	" \"runs_needed\": 4, \"verdict\": false,"
	" \"metrics\": [{\"metric\": \"p50\", \"unit\": \"ns\","
	"   \"base\": {\"median\": 20, \"lo\": 20, \"hi\": 20},"
	"   \"new\": {\"median\": 40, \"lo\": 40, \"hi\": 40},"
	"   \"change_pct\": 100, \"p\": 1, \"verdict\": false, \"significant\": false}],"
	" \"causes\": [{\"cause\": \"syscall\", \"count_base\": 0, \"count_new\": 3,"
	"   \"slow_ns_base\": 0, \"slow_ns_new\": 9000, \"points\": 50},"
	"  {\"cause\": \"not-a-label\", \"count_base\": 1, \"count_new\": 0,"
	"   \"slow_ns_base\": 10, \"slow_ns_new\": 0, \"points\": -1}]}";

static void comparison_without_results(void **state)
{
	static const cJSON *const none[2] = { NULL, NULL };
	cJSON *cmp = cJSON_Parse(cmp_json);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(cmp);
	assert_int_equal(lat_plot_compare_svg(cmp, none, NULL, "no results here", f), 0);
	fclose(f);
	assert_null(strstr(buf, "(null)"));
	assert_non_null(strstr(buf, ">no results here<"));
	assert_non_null(strstr(buf, ">syscall<"));
	assert_non_null(strstr(buf, ">+50.0 (0-&gt;3)<"));
	assert_non_null(strstr(buf, ">cannot tell<"));
	free(buf);
	cJSON_DeleteItemFromObject(cmp, "causes");
	f = open_memstream(&buf, &len);
	assert_int_equal(lat_plot_compare_svg(cmp, none, NULL, "", f), -EINVAL);
	fclose(f);
	free(buf);
	cJSON_Delete(cmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_label_has_a_style),
		cmocka_unit_test(colours_differ),
		cmocka_unit_test(patterns_have_colours),
		cmocka_unit_test(comparison_without_results),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
