/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the join (see join.h) share; user/README.md names the
 * job of each file of user/join/ (tests/cli/docs.t keeps that list whole).
 */
#ifndef LATCTL_JOIN_INT_H
#define LATCTL_JOIN_INT_H

#include "join/join.h"
#include "join/vec.h"

struct join_point {		/* one clipped boundary of one event */
	uint64_t t;
	int32_t label;
	int32_t delta;		/* +1 at its begin, -1 at its end */
};

struct join_window {		/* events were lost on cpu in [begin, end] */
	uint64_t begin, end;
	uint64_t count;
	uint32_t cpu;
};

struct join_windows {
	struct join_window *win;	/* by begin */
	size_t n, next;
	size_t *active;			/* windows that may still overlap */
	size_t n_active;
};


/* The lost windows of events[0..n) (counted in *st), sorted by begin. */
int join_windows_build(const struct latmon_event *evs, size_t n, struct join_windows *w,
		       struct join_stats *st);
/* Advance to the iteration [b, e] on the CPUs of s: true if a window on them
 * overlaps it, with the events lost in those windows in *lost. Iterations
 * come in time order; join_windows_rewind starts again from the first. */
bool join_windows_check(struct join_windows *w, const struct lat_sample *s,
			uint64_t b, uint64_t e, uint64_t *lost);
void join_windows_rewind(struct join_windows *w);
void join_windows_free(struct join_windows *w);

/* Per event (NULL: none): where a zeroing record that spans direct
 * compaction (LATMON_ZERO_F_COMPACT) stops being compaction, the end of the
 * last compaction record of its thread inside it (0: none inside). used[i]:
 * the join uses event i. */
int join_compact_splits(const struct latmon_event *evs, size_t n, const uint8_t *used,
			uint64_t **split);

/* Per event (NULL: no steal record used): the ticks of steal a steal
 * record (LAT_EVT_AMOUNT) still has to place, their sum added to *total.
 * join_steal_place moves all *left ticks from ticks[rest] (then from
 * ticks[JOIN_HYPERVISOR]) to ticks[JOIN_STEAL] if they hold them, and
 * returns how many it moved (0 or *left). */
int join_steal_left(const struct latmon_event *evs, size_t n, const uint8_t *used, double tsc_hz,
		    uint64_t **left, uint64_t *total);
uint64_t join_steal_place(uint64_t *left, uint64_t *ticks, enum join_label rest);
/* Give back to rest the hypervisor ticks an ordinary iteration (typical
 * ticks) needs beyond the rest it has; the ticks given back. */
uint64_t join_own_keep(uint64_t *ticks, enum join_label rest, uint64_t typical);
/* Move an iteration's unexplained ticks beyond typical to hypervisor when
 * they are min at least; the ticks moved, or 0. */
uint64_t join_stretch_place(uint64_t *ticks, enum join_label rest, uint64_t typical, uint64_t min);

/* Give every tick of [b, e) to one label (the sum is exactly e - b): the
 * highest in prec of the events open at that tick, else rest. Sorts p. */
void join_sweep(struct join_point *p, size_t n, uint64_t b, uint64_t e,
		enum join_label rest, const struct join_prec *prec, uint64_t *ticks);
/* The label with the largest share of ticks, ties to the earlier in all;
 * rest if no tick was given; incomplete if the iteration is. */
enum join_label join_primary(const uint64_t *ticks, bool incomplete, enum join_label rest,
			     const struct join_prec *all);

/* The cause table of iters into r (counts, net ticks, own durations). own[]
 * holds each event label's own durations, collected by the merge; the
 * remainder labels' net ticks and the incomplete iterations are added. */
int join_tally(const struct join_iter *iters, size_t n, struct join_u64vec *own,
	       struct join_result *r);

#endif /* LATCTL_JOIN_INT_H */
