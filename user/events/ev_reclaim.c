// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_RECLAIM: direct or memory-cgroup reclaim by the thread. */
#include <inttypes.h>

#include "events/evtype.h"
#include "lib/json.h"
#include "lib/rdoc.h"

/* Below compaction (they never overlap), above the zeroing; sleeping in it
 * is blocked. */
static const struct join_label_desc labels[] = {
	{ .id = JOIN_RECLAIM, .name = "reclaim", .own = "reclaim", .rank = 24,
	  .style = { "#44AA99", HATCH_CROSS, MARK_PLUS } },
};

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	it->reclaimed_pages += ev->u.reclaim.nr_reclaimed;
	if (ev->u.reclaim.kind == LATMON_RECLAIM_MEMCG)
		it->memcg_reclaims++;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	return lat_json_put_count(o, "reclaimed_pages", it->reclaimed_pages) &&
	       lat_json_put_count(o, "memcg_reclaims", it->memcg_reclaims);
}

/* "3 reclaim(s), 2 by the memory cgroup, 192 pages reclaimed" */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	double n = lat_rd_opt_count(rd, it, "reclaims");
	double memcg = lat_rd_opt_count(rd, it, "memcg_reclaims");
	double pages = lat_rd_opt_count(rd, it, "reclaimed_pages");

	lat_rd_expect(rd, n || (!memcg && !pages), "reclaims");
	if (!n)
		return;
	lat_detail_part(out, parts);
	fprintf(out, "%.0f reclaim(s), %.0f for the memory cgroup, %.0f pages reclaimed",
		n, memcg, pages);
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " kind=%s order=%u nr_reclaimed=%" PRIu64 " gfp=0x%x",
		e->u.reclaim.kind == LATMON_RECLAIM_MEMCG ? "memcg" : "direct",
		e->u.reclaim.order, (uint64_t)e->u.reclaim.nr_reclaimed, e->u.reclaim.gfp);
}

struct lat_evtype lat_ev_reclaim = {
	.labels = labels,
	.n_labels = 1,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
