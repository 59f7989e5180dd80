// SPDX-License-Identifier: MIT
/* The cause table over the slow iterations of one join (see join.h). */
#include <stdlib.h>

#include "join/join_int.h"

/* The parts' ticks, and which labels had two parts in this iteration. */
static void tally_parts(const struct join_iter *it, struct join_result *r)
{
	unsigned int n[JOIN_NR_LABELS] = { 0 };
	const struct join_label_desc *d;
	int l;

	for (l = 0; l < JOIN_INCOMPLETE; l++) {
		d = join_label_desc(l);
		if (!d || !d->part || !it->parts[l])
			continue;
		r->causes[l].part_ticks += it->parts[l];
		if (++n[d->into] == 2)
			r->causes[d->into].n_twice++;
	}
}

/* Add one iteration to the cause table counters. */
static int tally_iter(const struct join_iter *it, struct join_u64vec *own,
		      struct join_result *r)
{
	int l, ret = 0;

	r->slow_total += it->duration;
	r->causes[it->primary].n_primary++;
	if (it->incomplete) {
		r->causes[JOIN_INCOMPLETE].n_any++;
		r->causes[JOIN_INCOMPLETE].ticks += it->duration;
		return join_vec_push(&own[JOIN_INCOMPLETE], it->duration);
	}
	tally_parts(it, r);
	for (l = 0; !ret && l < JOIN_INCOMPLETE; l++) {
		if (it->ticks[l] || (l == JOIN_MIGRATION && it->migrated))
			r->causes[l].n_any++;
		r->causes[l].ticks += it->ticks[l];
		if (join_label_desc(l)->rank <= 0 && it->ticks[l])
			ret = join_vec_push(&own[l], it->ticks[l]);
	}
	return ret;
}

/* Median (lower middle) and max of every label's own durations. */
static void own_stats(struct join_u64vec *own, struct join_result *r)
{
	int l;

	for (l = 0; l < JOIN_NR_LABELS; l++) {
		struct join_u64vec *v = &own[l];

		r->causes[l].n_own = v->n;
		if (!v->n)
			continue;
		qsort(v->v, v->n, sizeof(*v->v), join_cmp_u64);
		r->causes[l].own_median = v->v[(v->n - 1) / 2];
		r->causes[l].own_max = v->v[v->n - 1];
	}
}

int join_tally(const struct join_iter *iters, size_t n, struct join_u64vec *own,
	       struct join_result *r)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = tally_iter(&iters[i], own, r);
		if (ret)
			return ret;
	}
	own_stats(own, r);
	return 0;
}
