// SPDX-License-Identifier: MIT
/* log2 buckets, their bounds, and logarithmic bar lengths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/hist.h"

static void buckets(void **state)
{
	(void)state;
	assert_int_equal(lat_hist_bucket(0), 0);
	assert_int_equal(lat_hist_bucket(1.9), 0);
	assert_int_equal(lat_hist_bucket(2), 1);
	assert_int_equal(lat_hist_bucket(3.99), 1);
	assert_int_equal(lat_hist_bucket(16), 4);
	assert_int_equal(lat_hist_bucket(31.9), 4);
	assert_int_equal(lat_hist_bucket(32), 5);
	assert_int_equal(lat_hist_bucket(315684), 18);	/* seed 000's max */
	assert_int_equal(lat_hist_bucket(-5), 0);
	assert_int_equal(lat_hist_bucket(1e30), 63);
}

static void bounds(void **state)
{
	int b;

	(void)state;
	assert_int_equal(lat_hist_lo(0), 0);
	assert_int_equal(lat_hist_hi(0), 1);
	assert_int_equal(lat_hist_lo(4), 16);
	assert_int_equal(lat_hist_hi(4), 31);
	for (b = 1; b < 50; b++) {	/* contiguous; doubles stay exact below 2^50 */
		assert_int_equal(lat_hist_lo(b + 1), lat_hist_hi(b) + 1);
		assert_int_equal(lat_hist_bucket((double)lat_hist_lo(b)), b);
		assert_int_equal(lat_hist_bucket((double)lat_hist_hi(b) - 0.5), b);
	}
}

static void bar_lengths(void **state)
{
	(void)state;
	assert_int_equal(lat_hist_bar_len(0), 0);
	assert_int_equal(lat_hist_bar_len(1), 1);
	assert_int_equal(lat_hist_bar_len(9), 4);
	assert_int_equal(lat_hist_bar_len(10), 5);	/* four more per factor of ten */
	assert_int_equal(lat_hist_bar_len(100), 9);
	assert_int_equal(lat_hist_bar_len(1000), 13);
	assert_int_equal(lat_hist_bar_len(1000000), 25);
	assert_int_equal(lat_hist_bar_len(3987325), 27);
}

static void add_and_print(void **state)
{
	struct lat_hist h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&h, 0, sizeof(h));
	lat_hist_add(&h, 19);
	lat_hist_add(&h, 25.5);
	lat_hist_add(&h, 1500);
	assert_int_equal(h.count[4], 2);
	assert_int_equal(h.count[10], 1);
	f = open_memstream(&buf, &len);
	lat_hist_print_line(f, 16, 31, 100);
	fclose(f);
	assert_string_equal(buf, "  [       16,        31]       100  #########\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets),
		cmocka_unit_test(bounds),
		cmocka_unit_test(bar_lengths),
		cmocka_unit_test(add_and_print),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
