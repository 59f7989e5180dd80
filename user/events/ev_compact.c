// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_COMPACT: direct compaction of one zone by the thread. */
#include <inttypes.h>

#include "events/evtype.h"
#include "lib/json.h"
#include "lib/rdoc.h"

/* Above the zeroing it may enclose (a captured page), below sleeping in it. */
static const struct join_label_desc labels[] = {
	{ .id = JOIN_COMPACTION, .name = "compaction", .own = "zone compaction", .rank = 25,
	  .style = { "#882255", HATCH_GRID, MARK_TRIANGLE_DOWN } },
};

/* "2 zone compaction(s) for an order-9 page" */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	double n = lat_rd_opt_count(rd, it, "compactions");

	if (!n)
		return;
	lat_detail_part(out, parts);
	fprintf(out, "%.0f zone compaction(s)", n);
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " order=%u prio=%u status=%u cflags=0x%x", e->u.compact.order,
		e->u.compact.prio, e->u.compact.status, e->u.compact.flags);
}

struct lat_evtype lat_ev_compact = {
	.labels = labels,
	.n_labels = 1,
	.detail = detail,
	.print = print,
};
