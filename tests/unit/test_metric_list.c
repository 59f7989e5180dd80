// SPDX-License-Identifier: MIT
/* `report --metrics`: test-case names, medians over runs, causes, lost events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare/metric_list.h"

static void names(void **state)
{
	char buf[64];

	(void)state;
	lat_metric_case_name("p99.9", buf, sizeof(buf));
	assert_string_equal(buf, "p99_9");
	lat_metric_case_name("faults/iter", buf, sizeof(buf));
	assert_string_equal(buf, "faults_per_iter");
	lat_metric_case_name("huge pages", buf, sizeof(buf));
	assert_string_equal(buf, "huge_pages");
	lat_metric_case_name("share:thp-zero", buf, sizeof(buf));
	assert_string_equal(buf, "share_thp-zero");
	lat_metric_case_name("fault:p50", buf, 8);
	assert_string_equal(buf, "fa");		/* cut short, never overrun */
}

/* One run: p50 = P ns, 10 faults in 100 iterations, a fault share S, L lost. */
#define RUN(P, S, L) "{\"summary\": {\"count\": 100, \"p50_ns\": " #P ", \"p90_ns\": 1, " \
	"\"p99_ns\": 1, \"p99_9_ns\": 1, \"p99_99_ns\": 1, \"max_ns\": 1, \"mean_ns\": 1}, " \
	"\"counters\": {\"minor_faults\": 10, \"thp_fault_alloc\": 0}, " \
	"\"latmon\": {\"lost_by_latmon\": " #L ", \"lost_by_latctl\": 0}, " \
	"\"causes\": {\"causes\": [{\"label\": \"fault\", \"share\": " #S "}, " \
	"{\"label\": \"unexplained\", \"share\": 0.1}]}}"

/* The lines of lat_metric_list_print for doc. */
static char *lines_of(const char *json)
{
	cJSON *doc = cJSON_Parse(json);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(doc);
	assert_int_equal(lat_metric_list_print(doc, f), 0);
	fclose(f);
	cJSON_Delete(doc);
	return buf;
}

static void medians_over_runs(void **state)
{
	char *out = lines_of("{\"repeat\": {\"per_run\": [" RUN(300, 0.5, 0) ", "
			     RUN(100, 0.9, 2) ", " RUN(200, 0.7, 0) "]}}");

	(void)state;
	assert_memory_equal(out, "p50 200 ns\n", 11);
	assert_non_null(strstr(out, "\nfaults_per_iter 0.1 faults\n"));
	assert_non_null(strstr(out, "\nshare_fault 70 %\n"));
	assert_non_null(strstr(out, "\nshare_unexplained 10 %\n"));
	assert_non_null(strstr(out, "\nprimary_share 70 %\n"));
	assert_non_null(strstr(out, "\nlost_events 2 events\n"));
	assert_non_null(strstr(out, "\nruns 3 runs\n"));
	assert_null(strstr(out, "fault_p50"));	/* no fault_ns: no line */
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(medians_over_runs),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	return cmocka_run_group_tests_name("metric_list", tests, NULL, NULL);
}
