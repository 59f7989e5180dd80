// SPDX-License-Identifier: MIT
/*
 * Unit tests of the switch-ins the kernel did not report (user/backend/
 * missed_in.c): a sched record marked LATMON_SCHED_F_IN_MISSED ends at the
 * first interrupt, system call or fault in its thread's context, or the
 * thread's next TSC read, whichever is first; another thread's records,
 * records before the switch-out and unmarked records change nothing; the
 * backend's JSON counts them and calls the switch labels estimated.
 * CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "backend/missed_in.h"

#define TID 4242

struct fixture {
	struct lat_evbuf m;
	struct lat_run run;
	struct lat_stream st[1];
	struct lat_sample s[2];
	struct latmon_event ev[16];
};

/* Two samples of thread TID: [100, 200] and [1000, 1100]. */
static void setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->s[0] = (struct lat_sample){ .tsc_begin = 100, .tsc_end = 200 };
	f->s[1] = (struct lat_sample){ .tsc_begin = 1000, .tsc_end = 1100 };
	f->run.samples = f->s;
	f->run.n = 2;
	f->run.streams = f->st;
	f->run.n_streams = 1;
	f->st[0].tid = TID;
	f->m.ev = f->ev;
	f->m.cap = 16;
}

static struct latmon_event *rec(struct fixture *f, uint16_t type, uint32_t tid, uint64_t b,
				uint64_t e)
{
	struct latmon_event *ev = &f->ev[f->m.n++];

	ev->type = type;
	ev->tid = tid;
	ev->tsc_begin = b;
	ev->tsc_end = e;
	return ev;
}

static struct latmon_event *out(struct fixture *f, uint32_t tid, uint64_t b, uint64_t e,
				uint32_t flags)
{
	struct latmon_event *ev = rec(f, LATMON_EV_SCHED, tid, b, e);

	ev->u.sched.flags = LATMON_SCHED_F_PREEMPTED | flags;
	return ev;
}

static void test_bound_by_context(void **state)
{
	struct lat_missed_in st;
	struct fixture f;
	struct latmon_event *a, *b, *c;

	(void)state;
	setup(&f);
	a = out(&f, TID, 300, 900, LATMON_SCHED_F_IN_MISSED);
	rec(&f, LATMON_EV_IRQ, TID + 1, 350, 360);		/* another thread: no sign */
	rec(&f, LATMON_EV_WAKE, TID, 380, 380);			/* written for it, not by it */
	rec(&f, LATMON_EV_SYSCALL, TID, 520, 530);		/* first sign after 300 */
	rec(&f, LATMON_EV_IRQ, TID, 400, 410);			/* earlier, later in the buffer */
	b = out(&f, TID, 920, 990, 0);				/* reported: kept */
	c = out(&f, TID, 1200, 1500, LATMON_SCHED_F_IN_MISSED); /* no sign after */
	rec(&f, LATMON_EV_FAULT, TID, 250, 260);		/* before the switch-out */
	lat_missed_in_bound(&f.m, &f.run, &st);
	assert_int_equal(st.count, 2);
	assert_int_equal(st.bounded, 1);
	assert_int_equal(a->tsc_end, 400);
	assert_int_equal(b->tsc_end, 990);
	assert_int_equal(c->tsc_end, 1500);
	assert_int_equal(a->tsc_begin, 300);
}

static void test_bound_by_tsc_read(void **state)
{
	struct lat_missed_in st;
	struct fixture f;
	struct latmon_event *a, *b;

	(void)state;
	setup(&f);
	a = out(&f, TID, 300, 1050, LATMON_SCHED_F_IN_MISSED); /* read at 1000 */
	b = out(&f, TID, 150, 700, LATMON_SCHED_F_IN_MISSED);  /* inside: its end, 200 */
	lat_missed_in_bound(&f.m, &f.run, &st);
	assert_int_equal(st.count, 2);
	assert_int_equal(st.bounded, 2);
	assert_int_equal(a->tsc_end, 1000);
	assert_int_equal(b->tsc_end, 200);
}

static void test_none(void **state)
{
	struct lat_missed_in st = { 7, 7 };
	struct fixture f;

	(void)state;
	setup(&f);
	out(&f, TID, 300, 900, 0);
	lat_missed_in_bound(&f.m, &f.run, &st);
	assert_int_equal(st.count, 0);
	assert_int_equal(st.bounded, 0);
	assert_int_equal(f.ev[0].tsc_end, 900);
}

/* The JSON: both counts, and preemption and blocked estimated with a miss. */
static void test_json(void **state)
{
	struct lat_session s = { .ops = lat_backend_named("bpf") };
	cJSON *o, *est, *x;
	int found = 0;

	(void)state;
	s.missed = (struct lat_missed_in){ 3, 2 };
	o = lat_backend_json(&s);
	assert_int_equal(cJSON_GetObjectItem(o, "switch_ins_missed")->valuedouble, 3);
	assert_int_equal(cJSON_GetObjectItem(o, "switch_ins_bounded")->valuedouble, 2);
	est = cJSON_GetObjectItem(o, "estimated_labels");
	cJSON_ArrayForEach(x, est)
		found += !strcmp(x->valuestring, "preemption") ||
			 !strcmp(x->valuestring, "blocked");
	assert_int_equal(found, 2);
	cJSON_Delete(o);
	s.missed = (struct lat_missed_in){ 0, 0 };
	o = lat_backend_json(&s);
	found = 0;
	cJSON_ArrayForEach(x, cJSON_GetObjectItem(o, "estimated_labels"))
		found += !strcmp(x->valuestring, "preemption");
	assert_int_equal(found, 0);
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound_by_context),
		cmocka_unit_test(test_bound_by_tsc_read),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_json),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0); /* for prove; env wins */
	return cmocka_run_group_tests_name("missed_in", tests, NULL, NULL);
}
