// SPDX-License-Identifier: MIT
/*
 * Record type LATMON_EV_SYSCALL: a system call of the measured thread, entry
 * to exit. Its ticks are "syscall" unless a fault, interrupt, switch-out or
 * THP clear inside the call covers them (the innermost cause wins).
 */
#include <inttypes.h>

#include "events/evtype.h"
#include "lib/rdoc.h"
#include "lib/json.h"
#include "system/syscalls.h"

static const struct join_label_desc labels[] = {
	{ .id = JOIN_SYSCALL, .name = "syscall", .own = "call", .rank = 5,
	  .style = { "#DDCC77", HATCH_VERT, MARK_SQUARE } },
};

/* Count one call in the iteration's short list of distinct ones. */
static void note_kind(struct join_iter *it, const struct latmon_syscall *sc)
{
	uint32_t i;

	for (i = 0; i < it->n_sys_kinds; i++)
		if (it->sys[i].nr == sc->nr && it->sys[i].flags == sc->flags) {
			it->sys[i].count++;
			return;
		}
	if (it->n_sys_kinds == JOIN_MAX_SYSCALLS)
		return;
	it->sys[i].nr = sc->nr;
	it->sys[i].flags = sc->flags;
	it->sys[i].count = 1;
	it->n_sys_kinds++;
}

/* Every call is counted by name; the longest names the iteration. */
static void note(struct join_iter *it, const struct latmon_event *ev)
{
	note_kind(it, &ev->u.syscall);
	if (ev->tsc_end - ev->tsc_begin < it->sys_longest)
		return;
	it->sys_longest = ev->tsc_end - ev->tsc_begin;
	it->sys_nr = ev->u.syscall.nr;
	it->sys_flags = ev->u.syscall.flags;
}

/* [{"name": "mmap", "count": 1}, ...] */
static cJSON *kinds_json(const struct join_iter *it)
{
	cJSON *a = cJSON_CreateArray();
	char buf[32];
	uint32_t i;

	for (i = 0; a && i < it->n_sys_kinds; i++) {
		cJSON *o = cJSON_CreateObject();

		if (!cJSON_AddItemToArray(a, o) ||
		    !lat_json_put(o, "name", cJSON_CreateString(lat_syscall_name(it->sys[i].nr,
							       it->sys[i].flags, buf, sizeof(buf)))) ||
		    !lat_json_put_num(o, "count", it->sys[i].count)) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	char buf[32];
	cJSON *c;

	if (!it->n_type[LATMON_EV_SYSCALL])
		return true;
	c = cJSON_CreateObject();
	return lat_json_put(o, "syscalls_by_name", kinds_json(it)) &&
	       lat_json_put(o, "syscall", c) &&
	       lat_json_put(c, "name", cJSON_CreateString(lat_syscall_name(it->sys_nr,
							  it->sys_flags, buf, sizeof(buf)))) &&
	       lat_json_put_num(c, "nr", it->sys_nr) &&
	       lat_json_put_num(c, "ticks", (double)it->sys_longest);
}

/* "inside munmap (system calls: mmap x1, munmap x1)" */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "syscall");
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(it, "syscalls_by_name"), *x;

	double n = lat_rd_opt_count(rd, it, "syscalls");

	/* written together: one without the other is a damaged document */
	lat_rd_expect(rd, !n == !c, n ? "syscall" : "syscalls");
	lat_rd_expect(rd, !c || a, "syscalls_by_name");
	if (!c)
		return;
	lat_detail_part(out, parts);
	fprintf(out, "inside %s", lat_rd_str(rd, c, "name"));
	if (n < 2)
		return;
	cJSON_ArrayForEach(x, a)
		fprintf(out, "%s%s x%.0f", x == a->child ? " (system calls: " : ", ",
			lat_rd_str(rd, x, "name"), lat_rd_num(rd, x, "count"));
	fputc(')', out);
}

static void print(const struct latmon_event *e, FILE *out)
{
	char buf[32];

	fprintf(out, " name=%s nr=%u ret=%" PRId64 " arg0=0x%" PRIx64 " arg1=%" PRIu64
		" sflags=0x%x", lat_syscall_name(e->u.syscall.nr, e->u.syscall.flags, buf,
						 sizeof(buf)),
		e->u.syscall.nr, (int64_t)e->u.syscall.ret, (uint64_t)e->u.syscall.args[0],
		(uint64_t)e->u.syscall.args[1], e->u.syscall.flags);
}

struct lat_evtype lat_ev_syscall = {
	.labels = labels,
	.n_labels = 1,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
