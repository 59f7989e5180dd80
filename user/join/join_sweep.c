// SPDX-License-Identifier: MIT
/* Net time: every tick of an iteration to exactly one label (see join.h). */
#include <stdlib.h>

#include "join/join_int.h"

static int cmp_point(const void *a, const void *b)
{
	const struct join_point *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

/* The highest-precedence label with an open event, or rest. */
static enum join_label top_label(const int *open, const struct join_prec *prec,
				 enum join_label rest)
{
	size_t i;

	for (i = 0; i < prec->n; i++)
		if (open[prec->order[i]] > 0)
			return prec->order[i];
	return rest;
}

void join_sweep(struct join_point *p, size_t n, uint64_t b, uint64_t e,
		enum join_label rest, const struct join_prec *prec, uint64_t *ticks)
{
	int open[JOIN_NR_LABELS] = { 0 };
	uint64_t cur = b;
	size_t i;

	if (n > 2)	/* two points are one event: already in order */
		qsort(p, n, sizeof(*p), cmp_point);
	for (i = 0; i < n; i++) {
		if (p[i].t > cur) {
			ticks[top_label(open, prec, rest)] += p[i].t - cur;
			cur = p[i].t;
		}
		open[p[i].label] += p[i].delta;
	}
	ticks[top_label(open, prec, rest)] += e - cur;
}

enum join_label join_primary(const uint64_t *ticks, bool incomplete, enum join_label rest,
			     const struct join_prec *all)
{
	enum join_label best = rest;
	uint64_t max = 0;
	size_t i;

	if (incomplete)
		return JOIN_INCOMPLETE;
	for (i = 0; i < all->n; i++) {
		if (ticks[all->order[i]] > max) {
			max = ticks[all->order[i]];
			best = all->order[i];
		}
	}
	return best;
}
