// SPDX-License-Identifier: MIT
/*
 * Record type LATMON_EV_TLB: a TLB shoot-down the measured thread sent to
 * other CPUs (its call then waits for them) or that hit its CPU.
 * Instantaneous: counted in the details, no ticks of its own.
 */
#include <inttypes.h>

#include "events/evtype.h"
#include "lib/rdoc.h"
#include "lib/json.h"

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	if (ev->u.tlb.kind == LATMON_TLB_SENT)
		it->tlb_sent++;
	else
		it->tlb_received++;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	return lat_json_put_count(o, "tlb_shootdowns_sent", it->tlb_sent) &&
	       lat_json_put_count(o, "tlb_shootdowns_received", it->tlb_received);
}

/* "TLB shoot-downs: 2 sent, 1 received" */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	double sent = lat_rd_opt_count(rd, it, "tlb_shootdowns_sent");
	double received = lat_rd_opt_count(rd, it, "tlb_shootdowns_received");

	if (!sent && !received)
		return;
	lat_detail_part(out, parts);
	fprintf(out, "TLB shoot-downs: %.0f sent, %.0f received", sent, received);
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " kind=%s pages=%" PRIu64,
		e->u.tlb.kind == LATMON_TLB_SENT ? "sent" :
		e->u.tlb.kind == LATMON_TLB_RECEIVED ? "received" : "?",
		(uint64_t)e->u.tlb.pages);
}

struct lat_evtype lat_ev_tlb = {
	.flags = LAT_EVT_INSTANT,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
