// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_THP_CLEAR: zeroing of a huge page inside a fault. */
#include <inttypes.h>

#include "evtype.h"
#include "json.h"

static const struct join_label_desc labels[] = {
	{ JOIN_THP_ZERO, "thp-zero", "clear", 20 },
};

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	(void)ev;
	it->thp = true;
}

/* "THP yes" when a fault or a clear was inside: was the page a huge one? */
static void detail(const cJSON *it, FILE *out, int *parts)
{
	if (!lat_json_num(it, "faults") && !lat_json_num(it, "thp_clears"))
		return;
	lat_detail_part(out, parts);
	fprintf(out, "THP %s",
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "thp")) ? "yes" : "no");
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
