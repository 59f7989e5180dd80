// SPDX-License-Identifier: MIT
/*
 * Record type LATMON_EV_STEAL: the hypervisor ran something else for
 * steal_ns somewhere in the record's interval, while the measured thread was
 * current on that CPU (its guest stood still, its TSC ran on). The join
 * (join_steal.c) places that amount in the ticks of the iterations inside
 * the interval that no event covers, in time order: label steal.
 */
#include <inttypes.h>

#include "events/evtype.h"
#include "lib/json.h"
#include "lib/rdoc.h"

static const struct join_label_desc labels[] = {
	{ .id = JOIN_STEAL,
	  .name = "steal",
	  .own = "placed",
	  .rank = 60,
	  .style = { "#332288", HATCH_VERT, MARK_TRIANGLE_DOWN } },
};

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	it->steal_ns += ev->u.steal.steal_ns;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	return lat_json_put_count(o, "steal_recorded_ns", it->steal_ns);
}

/* "steal 1.2 ms recorded around it" */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	double ns = lat_rd_opt_count(rd, it, "steal_recorded_ns");

	if (!ns)
		return;
	lat_detail_part(out, parts);
	fprintf(out, "steal %.1f us recorded around it", ns / 1e3);
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " steal_ns=%" PRIu64 " clock_ns=%" PRIu64, (uint64_t)e->u.steal.steal_ns,
		(uint64_t)e->u.steal.clock_ns);
}

struct lat_evtype lat_ev_steal = {
	.flags = LAT_EVT_AMOUNT,
	.labels = labels,
	.n_labels = 1,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
