// SPDX-License-Identifier: MIT
/*
 * Unit tests of user/join/causes.c: several sample streams (threads) joined each
 * with its own thread's events and merged into one "slow" list and one cause
 * table. TSC at 1 GHz (one tick = one ns). CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "join/causes.h"
#include "join_fixture.h"

#define T0	1000	/* tid of stream 0 */
#define T1	2000	/* tid of stream 1 */
#define OTHER	3000	/* another thread (the reader) */

struct fixture {
	struct lat_run run;
	struct lat_stream st[2];
	struct jf_run j;	/* its samples and the records */
	cJSON *doc;
};

static void sample(struct fixture *f, uint64_t b, uint64_t e, uint32_t flags)
{
	jf_sample(&f->j, b, e, 0, 0, flags);
	f->run.n = f->j.ns;
}

/* A record of thread tid of this process (latctl's own pid). */
static void event(struct fixture *f, int type, uint32_t tid, uint64_t b, uint64_t e)
{
	jf_event(&f->j, type, 0, tid, b, e);
}

/* Two streams of 4 samples; the second and the sixth are slow (1000 ticks). */
static void two_streams(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->run.samples = f->j.s;
	f->j.pid = (uint32_t)getpid();
	f->run.tsc_hz = 1e9;
	f->run.streams = f->st;
	f->run.n_streams = 2;
	f->st[0].tid = T0;
	f->st[1].tid = T1;
	sample(f, 0, 10, 0);
	sample(f, 100, 1100, 0);		/* slow, stream 0 */
	sample(f, 1200, 1210, 0);
	sample(f, 1300, 1310, 0);
	sample(f, 50, 60, LAT_SAMPLE_F_NEWSTREAM);
	sample(f, 2000, 3000, 0);		/* slow, stream 1 */
	sample(f, 3100, 3110, 0);
	sample(f, 3200, 3210, 0);
	event(f, LATMON_EV_FAULT, T0, 200, 800);	/* in stream 0's slow one */
	event(f, LATMON_EV_FAULT, T1, 200, 800);	/* T1's, but not in its slow one */
	event(f, LATMON_EV_FAULT, T1, 2100, 2500);	/* in stream 1's slow one */
	event(f, LATMON_EV_FAULT, OTHER, 2100, 2900);	/* the reader: never joined */
}

static cJSON *path(const cJSON *o, const char *a, const char *b)
{
	o = cJSON_GetObjectItemCaseSensitive(o, a);
	return b ? cJSON_GetObjectItemCaseSensitive(o, b) : (cJSON *)o;
}

/* The cause row of label, or NULL. */
static const cJSON *row(const cJSON *doc, const char *label)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, path(doc, "causes", "causes"))
		if (!strcmp(cJSON_GetObjectItemCaseSensitive(r, "label")->valuestring, label))
			return r;
	return NULL;
}

static double num(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key)->valuedouble;
}

static cJSON *run_causes(struct fixture *f, bool events)
{
	struct lat_causes_in in = {
		.run = &f->run, .events = f->j.ev, .n_events = f->j.nev,
		.have_events = events, .threshold = "500ns", .limit_ns = 500,
		.tsc_before = 0, .tsc_after = 10000,
	};
	cJSON *doc = cJSON_CreateObject();

	assert_int_equal(lat_causes_add(doc, &in), 0);
	return doc;
}

/* Each stream sees only its own thread's events; indices are global. */
static void test_streams_merged(void **state)
{
	struct fixture f;
	cJSON *doc, *it;

	(void)state;
	two_streams(&f);
	doc = run_causes(&f, true);
	assert_int_equal(num(path(doc, "slow", NULL), "count"), 2);
	it = cJSON_GetArrayItem(path(doc, "slow", "iterations"), 0);
	assert_int_equal(num(it, "index"), 1);
	assert_int_equal(num(path(it, "breakdown_ticks", NULL), "fault"), 600);
	assert_int_equal(num(path(it, "breakdown_ticks", NULL), "unexplained"), 400);
	it = cJSON_GetArrayItem(path(doc, "slow", "iterations"), 1);
	assert_int_equal(num(it, "index"), 5);
	assert_int_equal(num(path(it, "breakdown_ticks", NULL), "fault"), 400);
	assert_int_equal(num(path(it, "breakdown_ticks", NULL), "unexplained"), 600);
	assert_int_equal(num(row(doc, "fault"), "present"), 2);
	assert_int_equal(num(row(doc, "fault"), "primary"), 1);
	assert_int_equal(num(row(doc, "unexplained"), "primary"), 1);
	assert_int_equal(num(path(doc, "causes", NULL), "slow_total_ticks"), 2000);
	assert_int_equal(num(path(doc, "causes", NULL), "streams"), 2);
	assert_int_equal(num(path(doc, "causes", NULL), "streams_joined"), 2);
	assert_int_equal(num(path(doc, "causes", "events"), "other_thread"), 1);
	assert_int_equal(num(path(doc, "causes", "events"), "given"), 4);
	assert_int_equal(num(path(doc, "causes", NULL), "faults_in_loop"), 4);
	assert_int_equal(num(path(doc, "causes", NULL), "faults_in_loop_joined"), 3);
	cJSON_Delete(doc);
}

/* A stream of another process (tid 0) stays unattributed. */
static void test_child_stream_unattributed(void **state)
{
	struct fixture f;
	cJSON *doc, *it;

	(void)state;
	two_streams(&f);
	f.st[1].tid = 0;
	doc = run_causes(&f, true);
	it = cJSON_GetArrayItem(path(doc, "slow", "iterations"), 1);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(it, "primary")->valuestring,
			    "unattributed");
	assert_int_equal(num(path(doc, "causes", NULL), "streams_joined"), 1);
	assert_int_equal(num(path(doc, "causes", "events"), "other_thread"), 3);
	cJSON_Delete(doc);
}

/* Only streams of threads latmon did not follow: recorded, but nothing joined. */
static void test_no_stream_ours(void **state)
{
	struct fixture f;
	cJSON *doc;

	(void)state;
	two_streams(&f);
	f.st[0].tid = f.st[1].tid = 0;
	doc = run_causes(&f, true);
	assert_true(cJSON_IsTrue(path(doc, "causes", "module")));
	assert_int_equal(num(path(doc, "causes", "events"), "given"), 4);
	assert_int_equal(num(path(doc, "causes", "events"), "other_thread"), 4);
	assert_int_equal(num(path(doc, "causes", NULL), "streams_joined"), 0);
	assert_int_equal(num(row(doc, "unattributed"), "primary"), 2);
	cJSON_Delete(doc);
}

/* Without the module: no events at all, realloc still named. */
static void test_no_module(void **state)
{
	struct fixture f;
	cJSON *doc;

	(void)state;
	two_streams(&f);
	f.j.s[5].flags |= LAT_SAMPLE_F_REALLOC;
	doc = run_causes(&f, false);
	assert_false(cJSON_IsTrue(path(doc, "causes", "module")));
	assert_int_equal(num(row(doc, "unattributed"), "primary"), 1);
	assert_int_equal(num(row(doc, "realloc"), "primary"), 1);
	assert_null(row(doc, "fault"));
	assert_int_equal(num(path(doc, "causes", NULL), "faults_in_loop"), 0);
	cJSON_Delete(doc);
}

/* The slow threshold is "longer than limit_ns". */
static void test_threshold(void **state)
{
	struct lat_causes_in in;
	struct fixture f;
	cJSON *doc = cJSON_CreateObject();

	(void)state;
	two_streams(&f);
	in = (struct lat_causes_in){ .run = &f.run, .threshold = "1000ns", .limit_ns = 1000 };
	assert_int_equal(lat_causes_add(doc, &in), 0);
	assert_int_equal(num(path(doc, "slow", NULL), "count"), 0);
	in.limit_ns = 999;
	cJSON_Delete(doc);
	doc = cJSON_CreateObject();
	assert_int_equal(lat_causes_add(doc, &in), 0);
	assert_int_equal(num(path(doc, "slow", NULL), "count"), 2);
	cJSON_Delete(doc);
}

/* A percentile that is the slowest sample: those at it are slow, whether
 * its ticks, through ns and back, round to the sample's or one above. */
static void test_threshold_at_max(void **state)
{
	const double hz[] = { 1e9, 2.1e9 }; /* at 2.1 GHz 1000 ticks come back 999.99.. */
	struct lat_causes_in in;
	struct fixture f;
	cJSON *doc;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		two_streams(&f);
		f.run.tsc_hz = hz[i];
		in = (struct lat_causes_in){ .run = &f.run,
					     .threshold = "p99",
					     .at_max = true,
					     .limit_ns = 1000 / hz[i] * 1e9 };
		doc = cJSON_CreateObject();
		assert_int_equal(lat_causes_add(doc, &in), 0);
		assert_int_equal(num(path(doc, "slow", NULL), "count"), 2);
		assert_true(cJSON_IsTrue(path(doc, "slow", "threshold_is_max")));
		cJSON_Delete(doc);
	}
}

/* Run the two streams with the hypervisor probe's idle gaps, rate a
 * second: uncovered stretches of 100 ticks beyond 10 are hypervisor. */
static cJSON *run_stretches(struct fixture *f, double rate)
{
	struct lat_causes_in in = {
		.run = &f->run,
		.events = f->j.ev,
		.n_events = f->j.nev,
		.have_events = true,
		.threshold = "500ns",
		.limit_ns = 500,
		.tsc_before = 0,
		.tsc_after = 10000,
		.hv_noise_per_s = rate,
		.hv_gap_ns = 100,
		.typical_ns = 10,
	};
	cJSON *doc = cJSON_CreateObject();

	assert_int_equal(lat_causes_add(doc, &in), 0);
	return doc;
}

/* Both slow iterations hold an uncovered stretch (400 and 600 ticks): up
 * to twice the probe's rate over the loop's 2060 ticks, and 3, they are
 * named hypervisor but for an ordinary iteration's 10 ticks. */
static void test_stretches_named(void **state)
{
	struct fixture f;
	cJSON *doc, *it, *h;

	(void)state;
	two_streams(&f);
	doc = run_stretches(&f, 1);
	it = cJSON_GetArrayItem(path(doc, "slow", "iterations"), 0);
	assert_int_equal(num(path(it, "breakdown_ticks", NULL), "hypervisor"), 390);
	assert_int_equal(num(path(it, "breakdown_ticks", NULL), "unexplained"), 10);
	assert_int_equal(num(path(it, "breakdown_ticks", NULL), "fault"), 600);
	assert_int_equal(num(row(doc, "hypervisor"), "present"), 2);
	assert_int_equal(num(row(doc, "hypervisor"), "own_count"), 2);
	h = path(doc, "causes", "hypervisor_stretches");
	assert_int_equal(num(h, "named"), 2);
	assert_int_equal(num(h, "refused"), 0);
	assert_int_equal(num(h, "limit"), 3);
	cJSON_Delete(doc);
	/* without the probe's gaps: unexplained, and no stretch object */
	two_streams(&f);
	doc = run_stretches(&f, 0);
	assert_null(row(doc, "hypervisor"));
	assert_null(path(doc, "causes", "hypervisor_stretches"));
	cJSON_Delete(doc);
}

/* More stretches than the probe's rate explains: none is named. */
static void test_stretches_refused(void **state)
{
	struct fixture f;
	cJSON *doc, *h;
	int i;

	(void)state;
	two_streams(&f);
	for (i = 0; i < 3; i++)
		sample(&f, 4000 + 1000 * (uint64_t)i, 4900 + 1000 * (uint64_t)i, 0);
	doc = run_stretches(&f, 1);
	h = path(doc, "causes", "hypervisor_stretches");
	assert_int_equal(num(path(doc, "slow", NULL), "count"), 5);
	assert_int_equal(num(h, "refused"), 5);
	assert_int_equal(num(h, "named"), 0);
	assert_null(row(doc, "hypervisor"));
	assert_int_equal(num(row(doc, "unexplained"), "present"), 5);
	cJSON_Delete(doc);
	/* a rate that explains 5 in this loop names them */
	two_streams(&f);
	for (i = 0; i < 3; i++)
		sample(&f, 4000 + 1000 * (uint64_t)i, 4900 + 1000 * (uint64_t)i, 0);
	doc = run_stretches(&f, 1e6);
	assert_int_equal(num(path(doc, "causes", "hypervisor_stretches"), "named"), 5);
	assert_int_equal(num(row(doc, "hypervisor"), "present"), 5);
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streams_merged),
		cmocka_unit_test(test_child_stream_unattributed),
		cmocka_unit_test(test_no_stream_ours),
		cmocka_unit_test(test_no_module),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_threshold_at_max),
		cmocka_unit_test(test_stretches_named),
		cmocka_unit_test(test_stretches_refused),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	return cmocka_run_group_tests_name("causes", tests, NULL, NULL);
}
