// SPDX-License-Identifier: MIT
/*
 * Unit tests of the BPF backend's account of the processes it followed
 * (user/backend/bpf/latbpf_follow.c): the limit from LATCTL_BPF_FOLLOW_MAX, the
 * filter check against latctl's pid and the logged tgids (unchecked once the
 * log is full), the streams of refused processes unattributed, the JSON.
 * CMOCKA_MESSAGE_OUTPUT=TAP.
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

#include "backend/bpf/latbpf.h"
#include "backend/bpf/latbpf_user.h"
#include "workload/workload.h"

static void test_follow_max(void **state)
{
	static const char *const bad[] = { "0", "65537", "x", "", "-1", "12k" };
	uint32_t max = 0;
	size_t i;

	(void)state;
	unsetenv("LATCTL_BPF_FOLLOW_MAX");
	assert_int_equal(lat_bpf_follow_max(&max), 0);
	assert_int_equal(max, LATBPF_FOLLOW_MAX);
	setenv("LATCTL_BPF_FOLLOW_MAX", "7", 1);
	assert_int_equal(lat_bpf_follow_max(&max), 0);
	assert_int_equal(max, 7);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("LATCTL_BPF_FOLLOW_MAX", bad[i], 1);
		max = 99;
		assert_int_equal(lat_bpf_follow_max(&max), -EINVAL);
		assert_int_equal(max, 99);
	}
	unsetenv("LATCTL_BPF_FOLLOW_MAX");
}

static struct latmon_event rec(uint16_t type, uint32_t pid)
{
	return (struct latmon_event){ .type = type, .size = sizeof(struct latmon_event),
				      .pid = pid, .tid = pid };
}

/* latctl's records and those of logged tgids pass; another pid is a filter
 * bug; with the log full, an unknown pid is unchecked, not a bug. */
static void test_other(void **state)
{
	uint32_t pids[] = { 500, 700 };
	struct lat_bpf_follow f = { .followed = 2, .pids = pids, .n_pids = 2 };
	struct latmon_event ev[] = {
		rec(LATMON_EV_FAULT, (uint32_t)getpid()), rec(LATMON_EV_SCHED, 500),
		rec(LATMON_EV_FAULT, 700), rec(LATMON_EV_FAULT, 600),
		rec(LATMON_EV_IRQ, 800), rec(LATMON_EV_LOST, 0),
	};

	(void)state;
	assert_int_equal(lat_bpf_follow_other(&f, ev, 6), 2);
	assert_int_equal(f.unchecked, 0);
	f.followed = LATBPF_FOLLOW_LOG + 1;	/* more than the log held */
	assert_int_equal(lat_bpf_follow_other(&f, ev, 6), 0);
	assert_int_equal(f.unchecked, 2);
}

/* The stream of a refused process loses its tid; the others keep theirs. */
static void test_streams(void **state)
{
	uint32_t refused[] = { 41, 43 };
	struct lat_bpf_follow f = { .refused = 2, .refused_pids = refused, .n_refused = 2 };
	struct lat_stream st[4] = { { .tid = 40 }, { .tid = 41 }, { .tid = 42 }, { .tid = 43 } };
	struct lat_run run = { .streams = st, .n_streams = 4 };

	(void)state;
	lat_bpf_follow_streams(&f, &run);
	assert_int_equal(st[0].tid, 40);
	assert_int_equal(st[1].tid, 0);
	assert_int_equal(st[2].tid, 42);
	assert_int_equal(st[3].tid, 0);
	lat_bpf_follow_streams(&f, NULL);	/* no run: nothing to mark */
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

static void test_json(void **state)
{
	struct lat_bpf_follow f = { .max = 16, .live = 1, .followed = 5, .refused = 2,
				    .unchecked = 3 };
	cJSON *o = lat_bpf_follow_json(&f);

	(void)state;
	assert_int_equal(num(o, "max"), 16);
	assert_int_equal(num(o, "live_at_stop"), 1);
	assert_int_equal(num(o, "followed"), 5);
	assert_int_equal(num(o, "refused"), 2);
	assert_int_equal(num(o, "unchecked_records"), 3);
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_follow_max),
		cmocka_unit_test(test_other),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_json),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	return cmocka_run_group_tests_name("bpf_follow", tests, NULL, NULL);
}
