// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_THP_CLEAR: zeroing of a huge page inside a fault. */
#include <inttypes.h>

#include "evtype.h"
#include "json.h"
#include "rdoc.h"

static const struct join_label_desc labels[] = {
	{ JOIN_THP_ZERO, "thp-zero", "clear", 20 },
};

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	(void)ev;
	it->thp = true;
}

/* "THP yes" when a fault or a clear was inside: was the page a huge one? */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	double faults = lat_rd_opt_count(rd, it, "faults");
	double clears = lat_rd_opt_count(rd, it, "thp_clears");
	bool thp = lat_rd_bool(rd, it, "thp");

	/* thp comes from a huge fault or a clear; a clear sets it */
	lat_rd_expect(rd, faults || clears || !thp, "thp_clears");
	lat_rd_expect(rd, !clears || thp, "thp");
	if (!faults && !clears)
		return;
	lat_detail_part(out, parts);
	fprintf(out, "THP %s", thp ? "yes" : "no");
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " addr=0x%" PRIx64 " size=%" PRIu64, (uint64_t)e->u.thp.address,
		(uint64_t)e->u.thp.size);
}

const struct lat_evtype lat_ev_thp_clear = {
	.type = LATMON_EV_THP_CLEAR,
	.name = "thp-clear",
	.source = LATMON_SRC_THP_CLEAR,
	.json = "thp_clears",
	.labels = labels,
	.n_labels = 1,
	.note = note,
	.detail = detail,
	.print = print,
};
