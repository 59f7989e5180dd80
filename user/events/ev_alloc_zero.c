// SPDX-License-Identifier: MIT
/*
 * Record type LATMON_EV_ALLOC_ZERO: the page allocator zeroing a large folio
 * (init_on_alloc or __GFP_ZERO). Its ticks are huge-page zeroing (thp-zero),
 * the "allocator" part of it; the record of a page direct compaction
 * captured spans that compaction, and its ticks up to the end of the last
 * compaction record inside it are compaction (join/join_split.c).
 */
#include <inttypes.h>

#include "events/evtype.h"
#include "lib/json.h"
#include "lib/rdoc.h"

static const struct join_label_desc labels[] = {
	{ .id = JOIN_ZERO_ALLOC, .name = "thp-zero", .own = "zeroing", .rank = 20, .part = "allocator",
	  .into = JOIN_THP_ZERO,
	  .style = { "#D55E00", HATCH_CROSS, MARK_SQUARE } },
};

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	it->thp = true;
	it->zero_flags |= ev->u.zero.flags;
	it->zeroed_bytes += ev->u.zero.size;
}

static const char *why(uint32_t flags)
{
	if (flags & LATMON_ZERO_F_INIT_ON_ALLOC)
		return "init_on_alloc";
	return flags & LATMON_ZERO_F_GFP_ZERO ? "__GFP_ZERO" : "?";
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	if (!it->zeroed_bytes)
		return true;
	return lat_json_put_num(o, "zeroed_bytes", (double)it->zeroed_bytes) &&
	       lat_json_put(o, "zeroed_by", cJSON_CreateStringReference(why(it->zero_flags)));
}

/* "zeroed twice: in the page allocator (init_on_alloc) 58%, in the clear 39%".
 * The parts of thp-zero add up to its ticks in the breakdown. */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	const cJSON *pt = cJSON_GetObjectItemCaseSensitive(it, "parts_ticks");
	const cJSON *z = cJSON_GetObjectItemCaseSensitive(pt, "thp-zero");
	double zero = lat_rd_opt_count(rd, lat_rd_obj(rd, it, "breakdown_ticks"), "thp-zero");
	double alloc = lat_rd_opt_count(rd, z, "allocator"), clear = lat_rd_opt_count(rd, z, "clear");
	double d = lat_rd_num(rd, it, "duration_ticks");
	double bytes = lat_rd_opt_count(rd, it, "zeroed_bytes");

	lat_rd_expect(rd, alloc + clear == zero, "parts_ticks");
	lat_rd_expect(rd, !alloc || bytes, "zeroed_bytes");
	if (!(alloc > 0) || !(d > 0))
		return;
	lat_detail_part(out, parts);
	fprintf(out, "zeroed %s%.0f KiB in the page allocator (%s) %.0f%%",
		clear > 0 ? "twice: " : "", bytes / 1024, lat_rd_str(rd, it, "zeroed_by"),
		100 * alloc / d);
	if (clear > 0)
		fprintf(out, ", in the THP clear %.0f%%", 100 * clear / d);
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " size=%" PRIu64 " order=%u zflags=0x%x gfp=0x%x",
		(uint64_t)e->u.zero.size, e->u.zero.order, e->u.zero.flags, e->u.zero.gfp);
}

struct lat_evtype lat_ev_alloc_zero = {
	.labels = labels,
	.n_labels = 1,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
