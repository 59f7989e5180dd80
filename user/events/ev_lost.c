// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_LOST: events dropped on one CPU. Not joined: the
 * join turns these records into windows of lost events (join_windows.c). */
#include <inttypes.h>

#include "events/evtype.h"

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " count=%" PRIu64 " lost_cpu=%u", (uint64_t)e->u.lost.count, e->u.lost.cpu);
}

struct lat_evtype lat_ev_lost = {
	.flags = LAT_EVT_LOST,
	.print = print,
};
