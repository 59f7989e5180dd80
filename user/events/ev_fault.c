// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_FAULT: a page fault of the measured thread. */
#include <inttypes.h>

#include "events/evtype.h"
#include "lib/json.h"
#include "lib/rdoc.h"

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

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	if (it->n_addrs < JOIN_MAX_ADDRS)
		it->fault_addr[it->n_addrs++] = ev->u.fault.address;
	if (ev->u.fault.flags & LATMON_FAULT_F_HUGE)
		it->thp = true;
}

static cJSON *addrs_json(const struct join_iter *it)
{
	cJSON *a = cJSON_CreateArray();
	char buf[24];
	uint32_t i;

	for (i = 0; a && i < it->n_addrs; i++) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)it->fault_addr[i]);
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(buf))) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	return !it->n_addrs || lat_json_put(o, "fault_addresses", addrs_json(it));
}

/* "3 fault(s) at 0x7f.. 0x7f.." */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	double n;
	const cJSON *a = lat_rd_opt_list(rd, it, "faults", "fault_addresses", &n), *x;

	if (!n)
		return;
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
	fprintf(out, " addr=0x%" PRIx64 " flags=", (uint64_t)e->u.fault.address);
	print_flags(e->u.fault.flags, out);
	fprintf(out, " result=0x%x fault_flags=0x%x", e->u.fault.result, e->u.fault.fault_flags);
}

struct lat_evtype lat_ev_fault = {
	.labels = labels,
	.n_labels = 2,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
