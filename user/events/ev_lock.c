// SPDX-License-Identifier: MIT
/*
 * Record type LATMON_EV_LOCK: a lock acquisition during which the measured
 * thread slept. It names what a blocked switch-out waited for ("waiting for
 * mmap_lock") and covers no ticks itself: they are the switch-outs' inside.
 */
#include "events/evtype.h"
#include "lib/json.h"

static const char *kind_name(uint32_t kind)
{
	static const char *const names[__LATMON_LOCK_MAX] = {
		[LATMON_LOCK_MMAP] = "mmap_lock",
	};

	return kind < __LATMON_LOCK_MAX && names[kind] ? names[kind] : "lock";
}

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	uint64_t d = ev->tsc_end - ev->tsc_begin;

	it->lock_ticks += d;
	if (d >= it->lock_longest) {
		it->lock_longest = d;
		it->lock_kind = ev->u.lock.kind;
	}
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	cJSON *p;

	if (!it->n_type[LATMON_EV_LOCK])
		return true;
	p = cJSON_CreateObject();
	return lat_json_put(o, "waited_for", p) &&
	       lat_json_put(p, "lock", cJSON_CreateStringReference(kind_name(it->lock_kind))) &&
	       lat_json_put_num(p, "ticks", (double)it->lock_ticks);
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " kind=%s lflags=0x%x sleeps=%u", kind_name(e->u.lock.kind),
		e->u.lock.flags, e->u.lock.sleeps);
}

struct lat_evtype lat_ev_lock = {
	.flags = LAT_EVT_INSTANT,
	.note = note,
	.to_json = to_json,
	.print = print,
};
