// SPDX-License-Identifier: MIT
/*
 * Steal records (LAT_EVT_AMOUNT) say how much time the hypervisor took
 * somewhere in their interval, not where: the guest ran nothing then, so
 * that time lies in ticks no event of the guest covers, and one stretch of
 * it (the hypervisor ran something else once) lies inside one iteration.
 * A record's amount goes whole to the first slow iteration in its interval
 * whose uncovered ticks (the rest label, then those of label hypervisor,
 * an inference where steal is a measure) hold it all, as label steal; a
 * record no slow iteration holds whole (its steal fell in fast iterations,
 * or inside a recorded span, or in more than one stretch) is counted, not
 * placed.
 *
 * Where the hypervisor probe saw gaps no guest event explains (its idle
 * pass: osnoise's hardware noise, by elimination), an iteration's
 * unexplained ticks beyond an ordinary iteration's, at least one such gap
 * long, are hypervisor: the ordinary iteration's own work stays
 * unexplained. Steal is placed first, being a measure. Where the probe
 * showed the first touch of a page costs the hypervisor's time, the
 * uncovered ticks after a fault are hypervisor too, but for the ordinary
 * iteration's own work, which stays where it was.
 */
#include <errno.h>
#include <stdlib.h>

#include "events/evtype.h"
#include "join/join_int.h"

int join_steal_left(const struct latmon_event *evs, size_t n, const uint8_t *used, double tsc_hz,
		    uint64_t **left, uint64_t *total)
{
	size_t i;

	*left = NULL;
	for (i = 0; i < n; i++) {
		const struct lat_evtype *t = lat_evtype(evs[i].type);

		if (!used[i] || !t || !(t->flags & LAT_EVT_AMOUNT))
			continue;
		if (!*left) {
			*left = calloc(n, sizeof(**left));
			if (!*left)
				return -ENOMEM;
		}
		(*left)[i] = (uint64_t)((double)evs[i].u.steal.steal_ns * tsc_hz / 1e9 + 0.5);
		*total += (*left)[i];
	}
	return 0;
}

uint64_t join_steal_place(uint64_t *left, uint64_t *ticks, enum join_label rest)
{
	uint64_t take = *left, from_rest;

	if (take > ticks[rest] + ticks[JOIN_HYPERVISOR])
		return 0;
	from_rest = take < ticks[rest] ? take : ticks[rest];
	ticks[rest] -= from_rest;
	ticks[JOIN_HYPERVISOR] -= take - from_rest;
	ticks[JOIN_STEAL] += take;
	*left = 0;
	return take;
}

uint64_t join_own_keep(uint64_t *ticks, enum join_label rest, uint64_t typical)
{
	uint64_t back;

	if (ticks[rest] >= typical)
		return 0;
	back = typical - ticks[rest];
	back = back < ticks[JOIN_HYPERVISOR] ? back : ticks[JOIN_HYPERVISOR];
	ticks[rest] += back;
	ticks[JOIN_HYPERVISOR] -= back;
	return back;
}

uint64_t join_stretch_place(uint64_t *ticks, enum join_label rest, uint64_t typical, uint64_t min)
{
	uint64_t extra;

	if (rest != JOIN_UNEXPLAINED || ticks[rest] < typical + min)
		return 0;
	extra = ticks[rest] - typical;
	ticks[rest] = typical;
	ticks[JOIN_HYPERVISOR] += extra;
	return extra;
}
