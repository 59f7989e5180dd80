// SPDX-License-Identifier: MIT
/*
 * A page direct compaction captured (LATMON_ZERO_F_COMPACT) is zeroed in a
 * record that begins where direct compaction begins. Its ticks up to the
 * end of the last compaction record of the same thread inside it are the
 * allocator's direct compaction (the zones compacted, and the allocator's
 * own work between and around them); only the ticks after it are the
 * zeroing. Without a compaction record inside, direct compaction stopped
 * before compacting any zone (deferred, or not worth it) and the whole
 * record stays zeroing.
 */
#include <errno.h>
#include <stdlib.h>

#include "join/join_int.h"

static bool compact_zeroing(const struct latmon_event *ev)
{
	return ev->type == LATMON_EV_ALLOC_ZERO && (ev->u.zero.flags & LATMON_ZERO_F_COMPACT);
}

/* The end of the last record of cx[] of z's thread inside z, or 0. */
static uint64_t last_end_inside(const struct latmon_event *evs, const size_t *cx, size_t n_cx,
				const struct latmon_event *z)
{
	uint64_t end = 0;
	size_t i;

	for (i = 0; i < n_cx; i++) {
		const struct latmon_event *c = &evs[cx[i]];

		if (c->tid == z->tid && c->tsc_begin >= z->tsc_begin && c->tsc_end <= z->tsc_end &&
		    c->tsc_end > end)
			end = c->tsc_end;
	}
	return end;
}

/* The used compaction records' indices into *cx; how many zeroings span one. */
static size_t collect(const struct latmon_event *evs, size_t n, const uint8_t *used, size_t *cx,
		      size_t *n_cx)
{
	size_t i, zeroings = 0;

	*n_cx = 0;
	for (i = 0; i < n; i++) {
		if (!used[i])
			continue;
		if (evs[i].type == LATMON_EV_COMPACT)
			cx[(*n_cx)++] = i;
		zeroings += compact_zeroing(&evs[i]);
	}
	return zeroings;
}

int join_compact_splits(const struct latmon_event *evs, size_t n, const uint8_t *used,
			uint64_t **split)
{
	size_t *cx, n_cx, i;
	int ret = 0;

	*split = NULL;
	cx = malloc((n ? n : 1) * sizeof(*cx));
	if (!cx)
		return -ENOMEM;
	if (collect(evs, n, used, cx, &n_cx) && n_cx) {
		*split = calloc(n, sizeof(**split));
		ret = *split ? 0 : -ENOMEM;
		for (i = 0; *split && i < n; i++)
			if (used[i] && compact_zeroing(&evs[i]))
				(*split)[i] = last_end_inside(evs, cx, n_cx, &evs[i]);
	}
	free(cx);
	return ret;
}
