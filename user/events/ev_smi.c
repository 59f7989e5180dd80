// SPDX-License-Identifier: MIT
/*
 * Record type LATMON_EV_SMI: the CPU counted system management interrupts
 * somewhere in the record's interval, while the measured thread was
 * current there (the firmware ran; the kernel recorded nothing then). The
 * count says that, not how long: the interval's ticks that no other event
 * covers are label smi (the lowest but one event rank, estimated).
 */
#include <inttypes.h>

#include "events/evtype.h"
#include "lib/json.h"
#include "lib/rdoc.h"

static const struct join_label_desc labels[] = {
	{ .id = JOIN_SMI,
	  .name = "smi",
	  .own = "window",
	  .rank = 2,
	  .style = { "#117733", HATCH_CROSS, MARK_SQUARE } },
};

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	it->smis += ev->u.smi.smis;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	return lat_json_put_count(o, "smis", (double)it->smis);
}

/* "SMIs: 2 around it" */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	double n = lat_rd_opt_count(rd, it, "smis");

	if (!n)
		return;
	lat_detail_part(out, parts);
	fprintf(out, "SMIs: %.0f around it", n);
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " smis=%" PRIu64 " msr=%" PRIu64, (uint64_t)e->u.smi.smis,
		(uint64_t)e->u.smi.msr);
}

struct lat_evtype lat_ev_smi = {
	.labels = labels,
	.n_labels = 1,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
