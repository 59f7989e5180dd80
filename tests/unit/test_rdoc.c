// SPDX-License-Identifier: MIT
/*
 * Unit tests of the strict result reader (user/lib/rdoc.c) through the renderer:
 * deleting any single key of a valid result renders the same or is refused,
 * and the deletions a user tried (causes.slow_iterations, one label,
 * extras.reallocations) are refused with the key named.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/breakdown.h"
#include "report/describe.h"
#include "key_delete.h"
#include "lib/rdoc.h"
#include "system/thp_size.h"
#include "report/render.h"

#define CORPUS "tests/fuzz/corpus/fuzz_result/"

static cJSON *load(const char *name)
{
	cJSON *doc = NULL;

	assert_int_equal(lat_result_read(name, &doc), 0);
	return doc;
}

static void check_file(const char *name, size_t min_keys)
{
	cJSON *doc = load(name);
	struct key_delete k;
	int ret = key_delete_check(doc, &k);

	if (ret)
		print_error("%s: deleting \"%s\" changed the report\n", name, k.bad);
	assert_int_equal(ret, 0);
	assert_true(k.keys >= min_keys);
	assert_true(k.refused > 0);
	assert_true(k.same > 0);
	cJSON_Delete(doc);
}

static void test_every_key_grow(void **state)
{
	(void)state;
	check_file(CORPUS "valid-grow.json", 100);
}

static void test_every_key_latmon(void **state)
{
	(void)state;
	check_file(CORPUS "valid-vm-latmon.json", 300);
}

/* Each workload's extras, the request workload closed and open loop. */
static void test_every_key_workloads(void **state)
{
	(void)state;
	check_file(CORPUS "valid-chase.json", 100);
	check_file(CORPUS "valid-request-closed.json", 100);
	check_file(CORPUS "valid-request-open.json", 100);
	check_file(CORPUS "valid-alloc.json", 100);
	check_file(CORPUS "valid-mmap.json", 100);
}

/* The object at path ("a.0.b") of doc. */
static cJSON *at_path(cJSON *doc, const char *path)
{
	char *p = strdup(path), *tok, *save = NULL;
	cJSON *o = doc;

	for (tok = strtok_r(p, ".", &save); tok; tok = strtok_r(NULL, ".", &save))
		o = *tok >= '0' && *tok <= '9' ? cJSON_GetArrayItem(o, atoi(tok)) :
			cJSON_GetObjectItemCaseSensitive(o, tok);
	free(p);
	assert_non_null(o);
	return o;
}

/* Render file with the member key of the object at path deleted: refused? */
static int refused_without_in(const char *file, const char *path, const char *key)
{
	cJSON *doc = load(file), *o = at_path(doc, path);
	FILE *null = fopen("/dev/null", "w");
	int ret;

	assert_non_null(cJSON_GetObjectItemCaseSensitive(o, key));
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	ret = lat_result_render(doc, null, "test");
	fclose(null);
	cJSON_Delete(doc);
	return ret;
}

static int refused_without(const char *path, const char *key)
{
	return refused_without_in(CORPUS "valid-vm-latmon.json", path, key);
}

/* A --repeat result: its spread table reads every run's summary. */
static void test_every_key_repeat(void **state)
{
	(void)state;
	check_file(CORPUS "valid-repeat.json", 100);
	assert_int_equal(refused_without_in(CORPUS "valid-repeat.json", "", "repeat"), -EINVAL);
	assert_int_equal(refused_without_in(CORPUS "valid-repeat.json", "repeat.per_run.1.summary",
					    "p99_9_ns"), -EINVAL);
}

static void test_named_deletions(void **state)
{
	(void)state;
	assert_int_equal(refused_without("causes", "slow_iterations"), -EINVAL);
	assert_int_equal(refused_without("causes.causes.0", "label"), -EINVAL);
	assert_int_equal(refused_without("extras", "reallocations"), -EINVAL);
	assert_int_equal(refused_without("slow.iterations.0", "breakdown_ticks"), -EINVAL);
	assert_int_equal(refused_without("", "mm"), -EINVAL);
	assert_int_equal(refused_without("mm", "thp_sizes"), -EINVAL);
}

/* mmap's slow operations: "cause" is always written, the phrase or null
 * (under --slow), so a list without it is refused, not printed shorter. */
static void test_mmap_cause(void **state)
{
	const char *f = CORPUS "valid-mmap.json";
	cJSON *doc = load(f);

	(void)state;
	assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(
		at_path(doc, "extras.slow_ops.0"), "cause")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
		at_path(doc, "extras.slow_ops.1"), "cause")));
	cJSON_Delete(doc);
	assert_int_equal(refused_without_in(f, "extras.slow_ops.0", "cause"), -EINVAL);
	assert_int_equal(refused_without_in(f, "extras.slow_ops.1", "cause"), -EINVAL);
}

/* The writer: every slow operation gets a cause, null where its index
 * names no slow iteration. */
static void test_describe_slow_ops(void **state)
{
	cJSON *extras = cJSON_Parse("{\"slow_ops\": [{\"index\": 7}, {\"index\": 8}]}");
	cJSON *iters = cJSON_Parse("[{\"index\": 7, \"duration_ns\": 2000000,"
				   " \"breakdown_ticks\": {}, \"breakdown_ns\": {}}]");
	const cJSON *ops = cJSON_GetObjectItemCaseSensitive(extras, "slow_ops");

	(void)state;
	lat_describe_slow_ops(extras, iters);
	assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ops, 0), "cause")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ops, 1), "cause")));
	cJSON_Delete(extras);
	cJSON_Delete(iters);
}

/* The mTHP size list has 2048K, the PMD size, in any order, each size
 * once with a mode sysfs holds, or is refused. */
static const char *thp_sizes_bad(const char *json)
{
	static char bad[32];
	cJSON *o = cJSON_Parse(json);
	struct lat_rd r = { NULL };
	FILE *null = fopen("/dev/null", "w");

	lat_thp_size_print(o, null, &r);
	fclose(null);
	snprintf(bad, sizeof(bad), "%s", r.bad ? r.bad : "");
	cJSON_Delete(o);
	return r.bad ? bad : NULL;
}

static void test_thp_sizes(void **state)
{
	(void)state;
	assert_null(thp_sizes_bad("{\"2048K\": \"inherit\", \"1024K\": \"never\"}"));
	assert_null(thp_sizes_bad("{\"2048K\": \"inherit\"}"));
	assert_null(thp_sizes_bad("{\"64K\": \"always\", \"2048K\": \"inherit\"}"));
	assert_null(thp_sizes_bad("{\"8K\": \"?\", \"2048K\": \"madvise\"}"));
	assert_string_equal(thp_sizes_bad("{\"48K\": \"never\", \"2048K\": \"inherit\"}"), "thp_sizes");
	assert_string_equal(thp_sizes_bad("{\"512K\": \"never\", \"1024K\": \"never\"}"), "thp_sizes");
	assert_string_equal(thp_sizes_bad("{\"2048K\": \"inherit\", \"2048K\": \"never\"}"), "thp_sizes");
	/* a mode sysfs cannot hold (fuzz_result: its line changed when deleted) */
	assert_string_equal(thp_sizes_bad("{\"64K\": \"nevXer\", \"2048K\": \"inherit\"}"), "thp_sizes");
	assert_string_equal(thp_sizes_bad("{\"2048K\": 3}"), "2048K");
}

/* A breakdown with preemption names its task, or the iteration is refused. */
static void test_preemptor(void **state)
{
	cJSON *it = cJSON_Parse("{\"duration_ticks\": 100, \"breakdown_ticks\": {\"preemption\": 60,"
				" \"fault\": 40}, \"preemptor\": {\"pid\": 321, \"comm\": \"stress-ng\"}}");
	struct lat_rd r = { NULL };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	lat_print_breakdown(it, NULL, f, &r);
	fclose(f);
	assert_null(r.bad);
	assert_string_equal(buf, "preemption 60% (by pid 321 (stress-ng)), fault 40%\n");
	free(buf);
	cJSON_DeleteItemFromObjectCaseSensitive(it, "preemptor");
	f = fopen("/dev/null", "w");
	lat_print_breakdown(it, NULL, f, &r);
	fclose(f);
	assert_non_null(r.bad);
	assert_string_equal(r.bad, "preemptor");
	cJSON_Delete(it);
}

/* Optional counters: absent is 0, present must be a number >= 0. */
static void test_opt_count(void **state)
{
	cJSON *o = cJSON_Parse("{\"a\": 3, \"b\": -1, \"c\": \"x\"}");
	struct lat_rd r = { NULL };

	(void)state;
	assert_true(lat_rd_opt_count(&r, o, "a") == 3);
	assert_true(lat_rd_opt_count(&r, o, "z") == 0);
	assert_null(r.bad);
	lat_rd_opt_count(&r, o, "b");
	assert_string_equal(r.bad, "b");
	r.bad = NULL;
	lat_rd_opt_count(&r, o, "c");
	assert_string_equal(r.bad, "c");
	r.bad = NULL;
	assert_true(lat_rd_count(&r, o, "a") == 3);
	lat_rd_count(&r, o, "b");
	assert_string_equal(r.bad, "b");
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_key_grow),
		cmocka_unit_test(test_every_key_latmon),
		cmocka_unit_test(test_every_key_workloads),
		cmocka_unit_test(test_every_key_repeat),
		cmocka_unit_test(test_named_deletions),
		cmocka_unit_test(test_mmap_cause),
		cmocka_unit_test(test_describe_slow_ops),
		cmocka_unit_test(test_thp_sizes),
		cmocka_unit_test(test_preemptor),
		cmocka_unit_test(test_opt_count),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	return cmocka_run_group_tests_name("rdoc", tests, NULL, NULL);
}
