// SPDX-License-Identifier: MIT
/* JSON round trip: build a result, write it, read it back, same report. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "join/causes.h"
#include "system/mmenv.h"
#include "backend/monitor.h"
#include "doc/result.h"
#include "report/render.h"

static char dir[] = "/tmp/latctl-result.XXXXXX";
static int saved_err = -1;

static void quiet(int on)	/* silence the expected one-line errors */
{
	int fd;

	if (on) {
		saved_err = dup(2);
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 2);
		close(fd);
	} else {
		dup2(saved_err, 2);
		close(saved_err);
	}
}

static cJSON *grow_extras(void)
{
	cJSON *x = cJSON_CreateObject(), *last = cJSON_AddArrayToObject(x, "last_reallocations");
	cJSON *it = cJSON_CreateObject();

	cJSON_AddNumberToObject(x, "reallocations", 21);
	cJSON_AddNumberToObject(x, "realloc_ns", 304000);
	cJSON_AddNumberToObject(x, "realloc_share", 0.0033);
	cJSON_AddNumberToObject(x, "total_ns", 91.1e6);
	cJSON_AddNumberToObject(x, "capacity_bytes", 32 << 20);
	cJSON_AddNumberToObject(it, "index", 2097152);
	cJSON_AddNumberToObject(it, "ns", 94672.4);
	cJSON_AddNumberToObject(it, "capacity_bytes", 32 << 20);
	cJSON_AddItemToArray(last, it);
	return x;
}

/* "slow", "causes" and "latmon" as a run without the module makes them. */
static void add_causes(cJSON *doc)
{
	static struct lat_sample smp[6];
	static const uint64_t ticks[] = { 19, 20, 23, 1200, 315685, 20 };
	static struct lat_monitor mon;
	static struct lat_evbuf buf;
	struct lat_run run = { .samples = smp, .n = 6, .tsc_hz = 1e9 };
	struct lat_causes_in in = { .run = &run, .threshold = "p99.9", .limit_ns = 1182 };
	size_t i;

	for (i = 0; i < 6; i++)
		smp[i] = (struct lat_sample){ 1000 * i, 1000 * i + ticks[i], 1, 1, 0 };
	smp[4].flags = LAT_SAMPLE_F_REALLOC;
	memset(&mon, 0, sizeof(mon));
	lat_evbuf_init(&buf, 0);
	mon.buf = &buf;
	mon.state = LAT_MON_ABSENT;
	snprintf(mon.line, sizeof(mon.line), "latmon is not loaded: causes need the module");
	cJSON_AddItemToObject(doc, "latmon", lat_monitor_json(&mon));
	assert_int_equal(lat_causes_add(doc, &in), 0);
}

/* A complete document shaped like `latctl run grow` makes, odd doubles included. */
static cJSON *make_doc(void)
{
	char *argv[] = { "latctl", "run", "grow", "--json", "x y.json" };
	double v[] = { 19.3, 20.1, 22.7, 1182.4, 315684.9, 19.9 };
	struct lat_counters d = { 8162, 0, 0, 9, 8192, 4, -1, 3, 1, 2, 7, 1 };
	struct lat_hist h = { { 0 } };
	struct lat_summary s;
	cJSON *doc = lat_result_new(5, argv), *run, *clock;
	size_t i;

	for (i = 0; i < 6; i++)
		lat_hist_add(&h, v[i]);
	lat_summary_compute(v, 6, &s);
	cJSON_AddItemToObject(doc, "environment", lat_result_environment());
	cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "options"), "json", "x y.json");
	run = cJSON_AddObjectToObject(doc, "run");
	cJSON_AddStringToObject(run, "workload", "grow");
	cJSON_AddStringToObject(run, "mode", "grow");
	cJSON_AddStringToObject(run, "unit", "push");
	cJSON_AddBoolToObject(run, "pinned", 1);
	cJSON_AddNumberToObject(run, "cpu_first", 1);
	cJSON_AddNumberToObject(run, "cpu_last", 1);
	cJSON_AddItemToObject(doc, "mm", lat_mm_env_json());
	clock = cJSON_AddObjectToObject(doc, "clock");
	cJSON_AddNumberToObject(clock, "pair_ns", 1.0 / 3);
	cJSON_AddItemToObject(doc, "summary", lat_result_summary(&s));
	cJSON_AddItemToObject(doc, "histogram", lat_result_histogram(&h));
	cJSON_AddItemToObject(doc, "counters", lat_result_counters(&d, 0, 2, 10));
	cJSON_AddItemToObject(doc, "extras", grow_extras());
	add_causes(doc);
	lat_result_finish(doc, 0);
	return doc;
}

static char *render(const cJSON *doc, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = lat_result_render(doc, f, "test");
	fclose(f);
	return buf;
}

/* Write doc as `latctl run --json` does, read it back, render that. */
static char *saved_render(const cJSON *doc)
{
	struct lat_result_file f;
	char path[128], *out;
	cJSON *back = NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(lat_result_open(&f, path), 0);
	assert_int_equal(lat_result_commit(&f, doc), 0);
	assert_int_equal(lat_result_read(path, &back), 0);
	out = render(back, &ret);
	assert_int_equal(ret, 0);
	cJSON_Delete(back);
	unlink(path);
	return out;
}

static void round_trip(void **state)
{
	char *a, *b, steal[128];
	cJSON *doc = make_doc();
	int ret;

	(void)state;
	a = render(doc, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(a, "$ latctl run grow --json 'x y.json'\n"));
	assert_non_null(strstr(a, "grow, mode grow: 6 pushes, pinned to CPU 1\n"));
	assert_non_null(strstr(a, "thp_fault_fallback n/a"));
	assert_non_null(strstr(a, "compaction during the loop: compact_stall +3, compact_success +1, compact_fail +2 (whole system"));
	snprintf(steal, sizeof(steal),
		 "steal during the loop: %.0f ms on CPU 1 (/proc/stat, in ticks of %.0f ms:",
		 7000.0 / (double)sysconf(_SC_CLK_TCK), 1000.0 / (double)sysconf(_SC_CLK_TCK));
	assert_non_null(strstr(a, steal));
	assert_non_null(strstr(a, "0 inside an iteration, 2 between iterations"));
	assert_non_null(strstr(a, "last reallocations: push 2097152 took 94.7 us (to 32 MiB)"));
	assert_non_null(strstr(a, "slow pushes (slower than p99.9 = 1.2 us): 2, all listed"));
	assert_non_null(strstr(a, "latmon is not loaded: causes need the module\n"));
	assert_non_null(strstr(a, "\n           4   315.7 us  cpu 1  realloc: realloc 100%\n"));
	assert_non_null(strstr(a, "\n           3     1.2 us  cpu 1  unattributed: unattributed 100%\n"));
	b = saved_render(doc);
	assert_string_equal(a, b);
	free(a);
	free(b);
	cJSON_Delete(doc);
}

/*
 * A value cJSON saves with 15 digits loses its last bit: max/p50 just above
 * 1798.5 prints 1799 from memory but 1798 from the file. The run's report
 * must still be what `latctl report` prints.
 */
static void last_bit_round_trip(void **state)
{
	cJSON *doc = make_doc(), *s = cJSON_GetObjectItem(doc, "summary");
	char *a, *b;
	int ret;

	(void)state;
	cJSON_SetNumberValue(cJSON_GetObjectItem(s, "p50_ns"), 1.0);
	cJSON_SetNumberValue(cJSON_GetObjectItem(s, "max_ns"), nextafter(1798.5, INFINITY));
	a = render(doc, &ret);
	assert_int_equal(ret, 0);
	b = saved_render(doc);
	assert_string_equal(a, b);
	free(a);
	free(b);
	cJSON_Delete(doc);
}

static void damaged_files(void **state)
{
	char path[128], *text, *out;
	cJSON *doc = make_doc(), *back = (cJSON *)1;
	FILE *f;
	int ret;

	(void)state;
	text = cJSON_Print(doc);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	f = fopen(path, "w");
	fwrite(text, 1, strlen(text) / 2, f);	/* truncated */
	fclose(f);
	quiet(1);
	assert_int_equal(lat_result_read(path, &back), -EINVAL);
	f = fopen(path, "w");
	fputs("{\"schema\": \"other\"}", f);
	fclose(f);
	assert_int_equal(lat_result_read(path, &back), -EINVAL);
	assert_int_equal(lat_result_read("/nonexistent/latctl.json", &back), -ENOENT);
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(doc, "summary"), "max_ns");
	out = render(doc, &ret);
	quiet(0);
	assert_int_equal(ret, -EINVAL);
	assert_string_equal(out, "");		/* nothing half printed */
	free(out);
	free(text);
	cJSON_Delete(doc);
	unlink(path);
}

static void atomic_file(void **state)
{
	struct lat_result_file f = { 0 };
	char path[128], tmp[PATH_MAX];

	(void)state;
	snprintf(path, sizeof(path), "%s/a.json", dir);
	assert_int_equal(lat_result_open(&f, path), 0);
	snprintf(tmp, sizeof(tmp), "%s/%s", dir, f.out.tmp);	/* a name in its directory */
	assert_int_equal(access(tmp, F_OK), 0);
	assert_int_not_equal(access(path, F_OK), 0);	/* not there before commit */
	lat_result_abort(&f);
	assert_int_not_equal(access(tmp, F_OK), 0);
	quiet(1);
	assert_int_equal(lat_result_open(&f, "/nonexistent/dir/r.json"), -ENOENT);
	assert_int_equal(lat_result_open(&f, dir), -EISDIR);
	quiet(0);
	assert_int_equal(rmdir(dir), 0);	/* proves nothing was left behind */
	assert_int_equal(mkdir(dir, 0700), 0);
}

/* The percentile table fits 80 columns with 1 ns beside 10 s and more. */
static void table_fits(void **state)
{
	static const char *const keys[] = { "min_ns", "p50_ns", "p90_ns", "p99_ns",
		"p99_9_ns", "p99_99_ns", "max_ns", "mean_ns" };
	static const double v[] = { 1, 22.5, 9999999, 10000000, 1e10, 1.7e308, 1.7e308, 123456789.5 };
	cJSON *doc = make_doc(), *s = cJSON_GetObjectItemCaseSensitive(doc, "summary");
	char *a, *line, *prev = NULL, *save = NULL;
	int ret, found = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(s, keys[i]), v[i]);
	a = render(doc, &ret);
	assert_int_equal(ret, 0);
	for (line = strtok_r(a, "\n", &save); line; prev = line, line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "push (ns) ", 10))
			continue;
		found = 1;
		assert_string_equal(line, "push (ns)              1      22    10ms    10ms     10s "
				    "2e+299s 2e+299s 123.5ms");
		assert_non_null(prev);
		assert_true(strlen(prev) <= 80);
	}
	assert_true(found);
	free(a);
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(last_bit_round_trip),
		cmocka_unit_test(damaged_files),
		cmocka_unit_test(atomic_file),
		cmocka_unit_test(table_fits),
	};
	int ret;

	cmocka_set_message_output(CM_OUTPUT_TAP);
	if (!mkdtemp(dir))
		return 1;
	ret = cmocka_run_group_tests_name("result", tests, NULL, NULL);
	rmdir(dir);
	return ret;
}
