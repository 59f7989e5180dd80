// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_THP_CLEAR: the THP clear zeroing a huge page inside a fault. */
#include <inttypes.h>

#include "events/evtype.h"
#include "lib/json.h"
#include "lib/rdoc.h"

/* Huge-page zeroing; its parts: here the clear, the page allocator's in ev_alloc_zero.c. */
static const struct join_label_desc labels[] = {
	{ .id = JOIN_THP_ZERO, .name = "thp-zero", .own = "zeroing", .rank = 20, .part = "clear", .into = JOIN_THP_ZERO,
	  .twice = "the page allocator zeroed each huge page (init_on_alloc=1, Debian's default) and the THP clear zeroed it again; boot with init_on_alloc=0, or use Linux 6.13 or later, which skips the second zeroing",
	  .style = { "#D55E00", HATCH_CROSS, MARK_SQUARE } },
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

struct lat_evtype lat_ev_thp_clear = {
	.labels = labels,
	.n_labels = 1,
	.note = note,
	.detail = detail,
	.print = print,
};
