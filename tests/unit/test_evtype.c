// SPDX-License-Identifier: MIT
/*
 * Unit tests of the record-type descriptors (user/events/evtype.c, user/ev_*.c):
 * every UAPI record type has exactly one, the labels they declare are
 * complete and ranked without ties, and a record of an unknown type is
 * counted as malformed and shown, never given a label.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "events/evtype.h"
#include "join/join.h"
#include "lm_event.h"
#include "report/render.h"

#define TID	4242

/* Each type of include/latmon.h has one descriptor, and no other exists. */
static void test_every_type(void **state)
{
	size_t i, j;
	int t;

	(void)state;
	for (t = 1; t < __LATMON_EV_MAX; t++) {
		assert_non_null(lat_evtype((uint16_t)t));
		assert_int_equal(lat_evtype((uint16_t)t)->type, t);
		assert_ptr_equal(lat_evtype_by_name(lat_evtype((uint16_t)t)->name),
				 lat_evtype((uint16_t)t));
		assert_non_null(lat_evtype((uint16_t)t)->print);
	}
	assert_null(lat_evtype(0));
	assert_null(lat_evtype(__LATMON_EV_MAX));
	assert_int_equal(lat_n_evtypes, __LATMON_EV_MAX - 1);
	for (i = 0; i < lat_n_evtypes; i++)
		for (j = i + 1; j < lat_n_evtypes; j++)
			assert_string_not_equal(lat_evtypes[i]->name, lat_evtypes[j]->name);
	assert_null(lat_evtype_by_name("bogus"));
}

static size_t declared_labels(void)
{
	size_t i, n = 0;

	for (i = 0; i < lat_n_evtypes; i++)
		n += lat_evtypes[i]->n_labels;
	return n;
}

/* Position of l in p, p->n if absent. */
static size_t pos(const struct join_prec *p, enum join_label l)
{
	size_t i;

	for (i = 0; i < p->n && p->order[i] != l; i++)
		;
	return i;
}

/* The label l is a part of, or l. */
static int whole(int l)
{
	const struct join_label_desc *d = join_label_desc(l);

	return d->part ? (int)d->into : l;
}

/*
 * Every label has a name; event labels rank above the rest, without ties
 * but between the parts of one label, which share its name and rank.
 */
static void test_labels(void **state)
{
	struct join_prec ev, all;
	int l, m;

	(void)state;
	for (l = 0; l < JOIN_NR_LABELS; l++) {
		assert_non_null(join_label_name(l));
		assert_non_null(join_label_own(l));
		for (m = l + 1; m < JOIN_NR_LABELS; m++) {
			if (whole(l) == whole(m)) {
				assert_int_equal(join_label_desc(l)->rank, join_label_desc(m)->rank);
				assert_string_equal(join_label_name(l), join_label_name(m));
				continue;
			}
			assert_int_not_equal(join_label_desc(l)->rank, join_label_desc(m)->rank);
		}
	}
	assert_int_equal(join_label_by_name("thp-zero"), JOIN_THP_ZERO);
	assert_int_equal(whole(JOIN_ZERO_ALLOC), JOIN_THP_ZERO);
	assert_int_equal(join_label_by_name("bogus"), -1);
	assert_null(join_label_name(JOIN_NR_LABELS));
	join_precedence(&ev, true);
	join_precedence(&all, false);
	assert_int_equal(ev.n, declared_labels());
	assert_int_equal(all.n, JOIN_NR_LABELS - 1);	/* all but incomplete */
	assert_true(pos(&ev, JOIN_INTERRUPT) < pos(&ev, JOIN_BLOCKED));
	assert_true(pos(&ev, JOIN_BLOCKED) < pos(&ev, JOIN_PREEMPTION));
	assert_true(pos(&ev, JOIN_PREEMPTION) < pos(&ev, JOIN_COMPACTION));
	assert_true(pos(&ev, JOIN_COMPACTION) < pos(&ev, JOIN_RECLAIM));
	assert_true(pos(&ev, JOIN_RECLAIM) < pos(&ev, JOIN_THP_ZERO));
	assert_true(pos(&ev, JOIN_RECLAIM) < pos(&ev, JOIN_ZERO_ALLOC));
	assert_true(pos(&ev, JOIN_THP_ZERO) < pos(&ev, JOIN_FAULT));
	assert_int_equal(pos(&all, JOIN_REALLOC), ev.n);	/* the rest after events */
	assert_true(pos(&all, JOIN_REALLOC) < pos(&all, JOIN_MIGRATION));
	assert_true(pos(&all, JOIN_MIGRATION) < pos(&all, JOIN_UNEXPLAINED));
	assert_true(pos(&all, JOIN_UNEXPLAINED) < pos(&all, JOIN_UNATTRIBUTED));
}

/* The sources GET_INFO names are the types of the same name. */
static void test_source_names(void **state)
{
	(void)state;
	assert_string_equal(lat_source_name(LATMON_SRC_FAULT), "fault");
	assert_string_equal(lat_source_name(LATMON_SRC_THP_CLEAR), "thp-clear");
	assert_string_equal(lat_source_name(LATMON_SRC_SCHED), "sched");
	assert_string_equal(lat_source_name(LATMON_SRC_IRQ), "irq");
	assert_string_equal(lat_source_name(LATMON_SRC_ALLOC_ZERO), "alloc-zero");
	assert_string_equal(lat_source_name(LATMON_SRC_COMPACTION), "compaction");
	assert_string_equal(lat_source_name(LATMON_SRC_RECLAIM), "reclaim");
	assert_string_equal(lat_source_name(LATMON_SRC_SYSCALL), "syscall");
	assert_string_equal(lat_source_name(LATMON_SRC_WAIT), "wait");
	assert_string_equal(lat_source_name(0), "?");
	assert_string_equal(lat_source_name(__LATMON_SRC_MAX), "?");
}

static void render(const struct join_result *r, char *buf, size_t len)
{
	cJSON *c = cause_table_to_json(r);
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(c);
	assert_non_null(f);
	join_print(c, NULL, f);
	fclose(f);
	cJSON_Delete(c);
}

/* A record of an unknown type inside a slow iteration: malformed, shown in
 * the report, and its ticks stay unexplained (not "migration"). */
static void test_unknown_type(void **state)
{
	struct lat_sample s = { 1000, 2000, 0, 0, 0 };
	struct latmon_event ev[2];
	struct join_input in = { .samples = &s, .n_samples = 1, .tid = TID, .events = ev,
				 .n_events = 2, .have_events = true, .tsc_hz = 1e9 };
	struct join_result r;
	char text[4096];

	(void)state;
	lm_event_fill(&ev[0], __LATMON_EV_MAX, 0, TID, TID, 0, 1200, 1800);
	lm_event_fill(&ev[1], 0, 0, TID, TID, 1, 1300, 1300);
	assert_int_equal(join_run(&in, &r), 0);
	assert_int_equal(r.stats.bad, 2);
	assert_int_equal(r.iters[0].n_events, 0);
	assert_int_equal(r.iters[0].ticks[JOIN_UNEXPLAINED], 1000);
	assert_int_equal(r.iters[0].ticks[JOIN_MIGRATION], 0);
	assert_false(r.iters[0].migrated);
	render(&r, text, sizeof(text));
	assert_non_null(strstr(text, "2 malformed"));
	join_result_free(&r);
}

/* Each type's count goes under its JSON name, its details under theirs. */
static void test_json_names(void **state)
{
	struct join_iter it = { .duration = 10, .tsc_hz = 1e9 };
	struct join_result r = { .iters = &it, .n_iters = 1, .tsc_hz = 1e9 };
	cJSON *a, *o;

	(void)state;
	it.n_type[LATMON_EV_FAULT] = 2;
	it.n_type[LATMON_EV_SCHED] = 1;
	it.n_addrs = 1;
	it.fault[0] = (struct join_fault){ .address = 0x1000, .kind = LATMON_FK_COW, .ino = 77 };
	it.n_kind[LATMON_FK_COW] = 1;
	it.kind_ticks[LATMON_FK_COW] = 2500;
	it.addrs_dropped = 1;
	it.other_pid = 9;
	a = join_to_json(&r);
	o = cJSON_GetArrayItem(a, 0);
	assert_int_equal(cJSON_GetObjectItem(o, "faults")->valueint, 2);
	assert_int_equal(cJSON_GetObjectItem(o, "switches")->valueint, 1);
	assert_null(cJSON_GetObjectItem(o, "thp_clears"));	/* 0: absent */
	assert_null(cJSON_GetObjectItem(o, "irqs"));
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "fault_addresses"), 0)
			    ->valuestring, "0x1000");
	assert_int_equal(
		cJSON_GetObjectItem(cJSON_GetObjectItem(o, "fault_kinds"), "cow")->valueint, 1);
	assert_int_equal(
		cJSON_GetObjectItem(cJSON_GetObjectItem(o, "fault_kind_ns"), "cow")->valueint,
		2500);
	assert_string_equal(
		cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "fault_memory"), 0),
				    "memory")
			->valuestring,
		"inode 77"); /* no snapshot */
	assert_int_equal(cJSON_GetObjectItem(o, "fault_memory_dropped")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "preempted_by"), "pid")
			 ->valueint, 9);
	cJSON_Delete(a);
}

/* lmtool's text of a record comes from its descriptor. */
static void test_print(void **state)
{
	struct latmon_event ev;
	char buf[256];
	FILE *f;

	(void)state;
	lm_event_fill(&ev, LATMON_EV_IRQ, 0, 1, 1, 0, 1, 2);
	ev.u.irq.kind = LATMON_IRQ_TIMER;
	ev.u.irq.number = 236;
	strcpy(ev.u.irq.name, "LOC");
	f = fmemopen(buf, sizeof(buf), "w");
	lat_evtype(ev.type)->print(&ev, f);
	fclose(f);
	assert_string_equal(buf, " kind=timer number=236 name=LOC");
}

/* An iteration's fault part in the text: each kind with its count, time,
 * and the memory of its first fault; an older result's addresses only. */
static void test_fault_detail(void **state)
{
	const struct lat_evtype *t = lat_evtype(LATMON_EV_FAULT);
	struct lat_rd rd = { NULL };
	cJSON *it = cJSON_Parse("{\"faults\": 4, \"fault_addresses\": [\"0x1000\"],"
				"\"fault_kinds\": {\"cow\": 3, \"zero\": 1},"
				"\"fault_kind_ns\": {\"cow\": 1234, \"zero\": 600},"
				"\"fault_memory\": [{\"address\": \"0x2000\", \"kind\": \"zero\","
				" \"memory\": \"anonymous 0x0-0x4000\"}, {\"address\": \"0x1000\","
				" \"kind\": \"cow\", \"memory\": \"[heap]\"}]}");
	cJSON *old = cJSON_Parse("{\"faults\": 2, \"fault_addresses\": [\"0x1000\", \"0x2000\"]}");
	char buf[512];
	int parts = 0;
	FILE *f;

	(void)state;
	assert_non_null(it);
	f = fmemopen(buf, sizeof(buf), "w");
	t->detail(it, f, &parts, &rd);
	fclose(f);
	assert_non_null(strstr(buf, "3 cow faults (1.2 us) on [heap] at 0x1000"));
	assert_non_null(strstr(buf, "1 zero fault (600 ns) on anonymous 0x0-0x4000 at 0x2000"));
	assert_null(rd.bad);
	parts = 0;
	f = fmemopen(buf, sizeof(buf), "w");
	t->detail(old, f, &parts, &rd);
	fclose(f);
	assert_non_null(strstr(buf, "2 fault(s) at 0x1000 0x2000"));
	cJSON_ReplaceItemInObject(it, "fault_memory", cJSON_CreateNumber(5));
	parts = 0;
	f = fmemopen(buf, sizeof(buf), "w");
	t->detail(it, f, &parts, &rd);
	fclose(f);
	assert_string_equal(rd.bad, "fault_memory");	/* edited by hand: said */
	cJSON_Delete(it);
	cJSON_Delete(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_type),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_source_names),
		cmocka_unit_test(test_unknown_type),
		cmocka_unit_test(test_json_names),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_fault_detail),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	return cmocka_run_group_tests_name("evtype", tests, NULL, NULL);
}
