// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_MIGRATE: the measured thread moved to another CPU.
 * Instantaneous: it names the remainder (migration), covers no ticks. */
#include "events/evtype.h"

static void note(struct join_iter *it, const struct latmon_event *ev)
{
	(void)ev;
	it->migrated = true;
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " from=%u to=%u", e->u.migrate.from_cpu, e->u.migrate.to_cpu);
}

struct lat_evtype lat_ev_migrate = {
	.flags = LAT_EVT_INSTANT,
	.note = note,
	.print = print,
};
