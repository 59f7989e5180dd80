// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_SCHED: the measured thread switched out and back in. */
#include <string.h>

#include "events/evtype.h"
#include "lib/json.h"
#include "lib/rdoc.h"

/* runnable when switched out, or asleep */
static const struct join_label_desc labels[] = {
	{ .id = JOIN_PREEMPTION, .name = "preemption", .own = "off-CPU", .rank = 30,
	  .style = { "#0072B2", HATCH_HORIZ, MARK_TRIANGLE } },
	{ .id = JOIN_BLOCKED, .name = "blocked", .own = "asleep", .rank = 40,
	  .style = { "#CC79A7", HATCH_VERT, MARK_DIAMOND } },
};

/* A threaded interrupt handler (PREEMPT_RT, threadirqs): "irq/N-name". */
static bool irq_thread(const char *comm)
{
	return !strncmp(comm, "irq/", 4);
}

/* Blocked, preempted, or preempted by an interrupt thread: interrupt work. */
static enum join_label label_of(const struct latmon_event *ev)
{
	if (!(ev->u.sched.flags & LATMON_SCHED_F_PREEMPTED))
		return JOIN_BLOCKED;
	return irq_thread(ev->u.sched.other_comm) ? JOIN_INTERRUPT : JOIN_PREEMPTION;
}

/* Back on another CPU; the task of the longest switch-out; the longest
 * blocked one (whose wake-up ev_wake.c names). */
static void note(struct join_iter *it, const struct latmon_event *ev)
{
	if (ev->u.sched.out_cpu != ev->cpu)
		it->migrated = true;
	if (!(ev->u.sched.flags & LATMON_SCHED_F_PREEMPTED) &&
	    ev->tsc_end - ev->tsc_begin >= it->blocked_end - it->blocked_begin) {
		it->blocked_begin = ev->tsc_begin;
		it->blocked_end = ev->tsc_end;
	}
	if ((ev->u.sched.flags & LATMON_SCHED_F_PREEMPTED) &&
	    ev->tsc_end - ev->tsc_begin >= it->preempt_longest) {
		it->preempt_longest = ev->tsc_end - ev->tsc_begin;
		it->preempt_pid = ev->u.sched.other_pid;
		memcpy(it->preempt_comm, ev->u.sched.other_comm, 16);
		it->preempt_comm[16] = '\0';
	}
	if (ev->tsc_end - ev->tsc_begin >= it->longest_out) {
		it->longest_out = ev->tsc_end - ev->tsc_begin;
		it->other_pid = ev->u.sched.other_pid;
		memcpy(it->other_comm, ev->u.sched.other_comm, 16);
		it->other_comm[16] = '\0';
	}
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	cJSON *p;

	if (!it->n_type[LATMON_EV_SCHED])
		return true;
	p = cJSON_CreateObject();
	if (!lat_json_put(o, "preempted_by", p) || !lat_json_put_num(p, "pid", it->other_pid) ||
	    !lat_json_put(p, "comm", cJSON_CreateString(it->other_comm)))
		return false;
	if (!it->preempt_longest)
		return true;
	p = cJSON_CreateObject();
	return lat_json_put(o, "preemptor", p) && lat_json_put_num(p, "pid", it->preempt_pid) &&
	       lat_json_put(p, "comm", cJSON_CreateString(it->preempt_comm));
}

/* The task that ran while the thread was switched out: "pid 53 (kworker/1:2)". */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "preempted_by");
	double n = lat_rd_opt_count(rd, it, "switches");
	const char *comm;

	lat_rd_expect(rd, !n == !p, n ? "preempted_by" : "switches");
	if (!p)
		return;
	lat_detail_part(out, parts);
	comm = lat_rd_str(rd, p, "comm");
	if (lat_rd_num(rd, p, "pid") == 0 && (!*comm || !strcmp(comm, "?")))
		fputs("switched out (the idle task or an unnamed one ran)", out);
	else if (irq_thread(comm))
		fprintf(out, "interrupt thread %s (pid %.0f)", comm, lat_rd_num(rd, p, "pid"));
	else
		fprintf(out, "switched out for pid %.0f (%s)", lat_rd_num(rd, p, "pid"), comm);
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " %s other_pid=%u other_comm=%.16s out_cpu=%u prev_state=0x%x",
		e->u.sched.flags & LATMON_SCHED_F_PREEMPTED ? "preempted" : "blocked",
		e->u.sched.other_pid, e->u.sched.other_comm, e->u.sched.out_cpu,
		e->u.sched.prev_state);
}

struct lat_evtype lat_ev_sched = {
	.labels = labels,
	.n_labels = 2,
	.label_of = label_of,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
