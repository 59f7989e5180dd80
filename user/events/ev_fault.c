// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_FAULT: a page fault of the measured thread. */
#include <inttypes.h>
#include <string.h>

#include "events/evtype.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/rdoc.h"
#include "system/memmap.h"

static const struct join_label_desc labels[] = {
	{ .id = JOIN_FAULT,
	  .name = "fault",
	  .own = "fault",
	  .rank = 10,
	  .style = { "#E69F00", HATCH_DIAG, MARK_CIRCLE } },
	/* the uncovered time after a fault, where the hypervisor probe showed
	 * it is the hypervisor's (join_input.hypervisor), and uncovered
	 * stretches where it showed gaps no guest event explains
	 * (join_input.hv_stretch): lowest event rank */
	{ .id = JOIN_HYPERVISOR,
	  .name = "hypervisor",
	  .own = "net",
	  .rank = 1,
	  .style = { "#AA4499", HATCH_HORIZ, MARK_TRIANGLE } },
};

/* clang-format off */
static const char *const kind_names[__LATMON_FK_MAX] = {
#define KIND_NAME(NAME, id, name, what) [id] = name,
	LATMON_FAULT_KINDS(KIND_NAME)
#undef KIND_NAME
};

static const char *const why_texts[] = {
#define WHY_TEXT(NAME, id, why) [id] = why,
	LATMON_FAULT_WHY(WHY_TEXT)
#undef WHY_TEXT
};
/* clang-format on */

const char *lat_fault_kind_name(unsigned int kind)
{
	return kind < __LATMON_FK_MAX && kind_names[kind] ? kind_names[kind] : NULL;
}

const char *lat_fault_kind_what(const char *name)
{
	static const struct {
		const char *name, *what;
	} whats[] = {
#define KIND_WHAT(NAME, id, name, what) { name, what },
		LATMON_FAULT_KINDS(KIND_WHAT)
#undef KIND_WHAT
	};
	size_t i;

	for (i = 0; i < sizeof(whats) / sizeof(whats[0]); i++)
		if (!strcmp(whats[i].name, name))
			return whats[i].what;
	return NULL;
}

const char *lat_fault_why_text(unsigned int why)
{
	return why < sizeof(why_texts) / sizeof(why_texts[0]) && why_texts[why] ? why_texts[why] :
										  NULL;
}

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	const struct latmon_fault *f = &ev->u.fault;

	if (it->n_addrs < JOIN_MAX_ADDRS)
		it->fault[it->n_addrs++] = (struct join_fault){
			.address = f->address,
			.ino = f->ino,
			.ticks = ev->tsc_end > ev->tsc_begin ? ev->tsc_end - ev->tsc_begin : 0,
			.pid = ev->pid,
			.kind = f->kind,
			.map = f->map,
			.why = f->why,
		};
	else
		it->addrs_dropped++;
	if (f->kind < __LATMON_FK_MAX) {
		it->n_kind[f->kind]++;
		it->kind_ticks[f->kind] +=
			ev->tsc_end > ev->tsc_begin ? ev->tsc_end - ev->tsc_begin : 0;
	}
	if (f->flags & LATMON_FAULT_F_HUGE)
		it->thp = true;
}

static cJSON *addrs_json(const struct join_iter *it)
{
	cJSON *a = cJSON_CreateArray();
	char buf[24];
	uint32_t i;

	for (i = 0; a && i < it->n_addrs; i++) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)it->fault[i].address);
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(buf))) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

/* {"cow": 3, "zero": 1}: the iteration's faults by kind; with ns, their
 * own time ({"cow": 5210.3}: the records' durations, as recorded). */
static cJSON *kinds_json(const struct join_iter *it, bool ns)
{
	cJSON *o = cJSON_CreateObject();
	unsigned int k;
	double v;

	for (k = 1; o && k < __LATMON_FK_MAX; k++) {
		if (!it->n_kind[k])
			continue;
		v = ns ? (double)it->kind_ticks[k] * 1e9 / it->tsc_hz : it->n_kind[k];
		if (!lat_json_put_num(o, kind_names[k], v)) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

/* One kept fault: where, which kind, on what memory (and why unknown). */
static cJSON *memory_one(const struct join_fault *f, double tsc_hz)
{
	cJSON *o = cJSON_CreateObject();
	char buf[240];

	if (!o)
		return NULL;
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)f->address);
	cJSON_AddStringToObject(o, "address", buf);
	cJSON_AddStringToObject(
		o, "kind", lat_fault_kind_name(f->kind) ? lat_fault_kind_name(f->kind) : "none");
	if (f->why && lat_fault_why_text(f->why))
		cJSON_AddStringToObject(o, "why", lat_fault_why_text(f->why));
	if (tsc_hz > 0)
		cJSON_AddNumberToObject(o, "ns", (double)f->ticks * 1e9 / tsc_hz);
	lat_memmap_describe((pid_t)f->pid, f->address, f->ino, buf, sizeof(buf));
	if (!cJSON_AddStringToObject(o, "memory", buf)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *memory_json(const struct join_iter *it)
{
	cJSON *a = cJSON_CreateArray();
	uint32_t i;

	for (i = 0; a && i < it->n_addrs; i++)
		if (!cJSON_AddItemToArray(a, memory_one(&it->fault[i], it->tsc_hz))) {
			cJSON_Delete(a);
			return NULL;
		}
	return a;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	if (!it->n_addrs)
		return true;
	return lat_json_put(o, "fault_addresses", addrs_json(it)) &&
	       lat_json_put(o, "fault_kinds", kinds_json(it, false)) &&
	       (!(it->tsc_hz > 0) || lat_json_put(o, "fault_kind_ns", kinds_json(it, true))) &&
	       lat_json_put(o, "fault_memory", memory_json(it)) &&
	       lat_json_put_count(o, "fault_memory_dropped", it->addrs_dropped);
}

/* " on [heap] at 0x7f..": the first kept fault of kind, from fault_memory. */
static void kind_where(const cJSON *mem, const char *kind, FILE *out, struct lat_rd *rd)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, mem) {
		const char *k = cJSON_IsObject(m) ? lat_rd_str(rd, m, "kind") : NULL;

		lat_rd_expect(rd, cJSON_IsObject(m), "fault_memory");

		if (k && !strcmp(k, kind)) {
			fprintf(out, " on %s at %s", lat_rd_str(rd, m, "memory") ?: "?",
				lat_rd_str(rd, m, "address") ?: "?");
			return;
		}
	}
}

/* "3 cow faults (5.2 us) on [heap] at 0x7f..; 1 zero fault ...", or, in
 * a result without kinds, "3 fault(s) at 0x7f.. 0x7f.." */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	double n;
	const cJSON *a = lat_rd_opt_list(rd, it, "faults", "fault_addresses", &n), *x;
	const cJSON *kinds = cJSON_GetObjectItemCaseSensitive(it, "fault_kinds");
	const cJSON *mem = cJSON_GetObjectItemCaseSensitive(it, "fault_memory");
	const cJSON *ns = cJSON_GetObjectItemCaseSensitive(it, "fault_kind_ns"), *t;
	char time[24];

	if (!n)
		return;
	/* written by a newer latctl with the addresses, or not at all */
	lat_rd_expect(rd, !kinds || cJSON_IsObject(kinds), "fault_kinds");
	lat_rd_expect(rd, !mem || cJSON_IsArray(mem), "fault_memory");
	lat_rd_expect(rd, !ns || cJSON_IsObject(ns), "fault_kind_ns");
	if (cJSON_IsObject(kinds) && kinds->child) {
		cJSON_ArrayForEach(x, kinds) {
			lat_rd_expect(rd, cJSON_IsNumber(x), "fault_kinds");
			lat_detail_part(out, parts);
			fprintf(out, "%.0f %s fault%s", cJSON_GetNumberValue(x), x->string,
				cJSON_GetNumberValue(x) == 1 ? "" : "s");
			t = cJSON_GetObjectItemCaseSensitive(ns, x->string);
			if (cJSON_IsNumber(t))
				fprintf(out, " (%s)",
					lat_fmt_time(time, sizeof(time), t->valuedouble));
			kind_where(mem, x->string, out, rd);
		}
		return;
	}
	lat_detail_part(out, parts);
	fprintf(out, "%.0f fault(s)", n);
	cJSON_ArrayForEach(x, a) {
		lat_rd_expect(rd, cJSON_IsString(x), "fault_addresses");
		fprintf(out, "%s%s", x == a->child ? " at " : " ",
			cJSON_IsString(x) ? x->valuestring : "?");
	}
}

static void print_flags(uint32_t flags, FILE *out)
{
	static const char *const names[] = { "huge", "write", "user", "instruction",
					      "retry", "error", "major" };
	const char *sep = "";
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & (1U << i)) {
			fprintf(out, "%s%s", sep, names[i]);
			sep = ",";
		}
	if (flags & ~__LATMON_FAULT_F_ALL)
		fprintf(out, "%s0x%x", sep, flags & ~__LATMON_FAULT_F_ALL);
	else if (!*sep)
		fprintf(out, "-");
}

static void print(const struct latmon_event *e, FILE *out)
{
	const char *kind = lat_fault_kind_name(e->u.fault.kind);

	fprintf(out, " addr=0x%" PRIx64 " flags=", (uint64_t)e->u.fault.address);
	print_flags(e->u.fault.flags, out);
	fprintf(out, " result=0x%x fault_flags=0x%x", e->u.fault.result, e->u.fault.fault_flags);
	fprintf(out, " kind=%s map=%u ino=%" PRIu64, kind ? kind : "-", e->u.fault.map,
		(uint64_t)e->u.fault.ino);
	if (e->u.fault.why)
		fprintf(out, " why=%u", e->u.fault.why);
}

struct lat_evtype lat_ev_fault = {
	.labels = labels,
	.n_labels = 2,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
