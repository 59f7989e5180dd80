// SPDX-License-Identifier: MIT
/*
 * Record type LATMON_EV_SYSCALL: a system call of the measured thread, entry
 * to exit. Its ticks are "syscall" unless a fault, interrupt, switch-out or
 * THP clear inside the call covers them (the innermost cause wins).
 */
#include <inttypes.h>

#include "evtype.h"
#include "json.h"
#include "syscalls.h"

static const struct join_label_desc labels[] = {
	{ JOIN_SYSCALL, "syscall", "call", 5 },
};

/* The longest call inside the iteration names it. */
static void note(struct join_iter *it, const struct latmon_event *ev)
{
	if (ev->tsc_end - ev->tsc_begin < it->sys_longest)
		return;
	it->sys_longest = ev->tsc_end - ev->tsc_begin;
	it->sys_nr = ev->u.syscall.nr;
	it->sys_flags = ev->u.syscall.flags;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	char buf[32];
	cJSON *c;

	if (!it->n_type[LATMON_EV_SYSCALL])
		return true;
	c = cJSON_CreateObject();
	return lat_json_put(o, "syscall", c) &&
	       lat_json_put(c, "name", cJSON_CreateString(lat_syscall_name(it->sys_nr,
							  it->sys_flags, buf, sizeof(buf)))) &&
	       lat_json_put_num(c, "nr", it->sys_nr) &&
	       lat_json_put_num(c, "ticks", (double)it->sys_longest);
}

/* "inside munmap (2 system calls)" */
static void detail(const cJSON *it, FILE *out, int *parts)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "syscall");
	double n = lat_json_num(it, "syscalls");

	if (!c)
		return;
	lat_detail_part(out, parts);
	fprintf(out, "inside %s", lat_json_str(c, "name"));
	if (n > 1)
		fprintf(out, " (%.0f system calls)", n);
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

const struct lat_evtype lat_ev_syscall = {
	.type = LATMON_EV_SYSCALL,
	.name = "syscall",
	.source = LATMON_SRC_SYSCALL,
	.json = "syscalls",
	.labels = labels,
	.n_labels = 1,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
