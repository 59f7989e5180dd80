// SPDX-License-Identifier: MIT
/*
 * Record type LATMON_EV_WAKE: the measured thread was woken (by whom, from
 * which CPU). Instantaneous: it covers no ticks; the wake-up inside the
 * longest blocked switch-out names what ended it ("woken by pid 812").
 */
#include <string.h>

#include "events/evtype.h"
#include "lib/json.h"

/* Keep the last JOIN_MAX_WAKES wake-ups, in time order. */
static void note(struct join_iter *it, const struct latmon_event *ev)
{
	struct join_wake *w;

	if (it->n_wakes == JOIN_MAX_WAKES) {
		memmove(it->wake, it->wake + 1, (JOIN_MAX_WAKES - 1) * sizeof(*it->wake));
		it->n_wakes--;
	}
	w = &it->wake[it->n_wakes++];
	w->t = ev->tsc_begin;
	w->pid = ev->u.wake.waker_pid;
	w->cpu = ev->u.wake.waker_cpu;
	w->flags = ev->u.wake.flags;
	memcpy(w->comm, ev->u.wake.waker_comm, 16);
	w->comm[16] = '\0';
}

/* The last wake-up inside the longest blocked switch-out, or NULL. */
static const struct join_wake *waker(const struct join_iter *it)
{
	uint32_t i;

	for (i = it->n_wakes; i-- > 0;)
		if (it->wake[i].t >= it->blocked_begin && it->wake[i].t <= it->blocked_end &&
		    it->blocked_end)
			return &it->wake[i];
	return NULL;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	const struct join_wake *w = waker(it);
	cJSON *p;

	if (!w)
		return true;
	p = cJSON_CreateObject();
	return lat_json_put(o, "woken_by", p) && lat_json_put_num(p, "pid", w->pid) &&
	       lat_json_put(p, "comm", cJSON_CreateString(w->comm)) &&
	       lat_json_put_num(p, "cpu", w->cpu) &&
	       lat_json_put(p, "from_interrupt", cJSON_CreateBool(w->flags & LATMON_WAKE_F_IRQ)) &&
	       lat_json_put(p, "same_process", cJSON_CreateBool(w->flags & LATMON_WAKE_F_TARGET));
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " waker_pid=%u waker_comm=%.16s waker_cpu=%u target_cpu=%u wflags=0x%x",
		e->u.wake.waker_pid, e->u.wake.waker_comm, e->u.wake.waker_cpu,
		e->u.wake.target_cpu, e->u.wake.flags);
}

struct lat_evtype lat_ev_wake = {
	.flags = LAT_EVT_INSTANT,
	.note = note,
	.to_json = to_json,
	.print = print,
};
