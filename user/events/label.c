// SPDX-License-Identifier: MIT
/*
 * The labels of the join: the event labels come from the record types'
 * descriptors (user/ev_*.c), the labels of ticks no event covers are here.
 */
#include <string.h>

#include "events/evtype.h"

/* What user space knows of uncovered ticks, most specific first. */
static const struct join_label_desc rest_labels[] = {
	{ .id = JOIN_REALLOC, .name = "realloc", .own = "net", .rank = -1,
	  .style = { "#56B4E9", HATCH_GRID, MARK_DIAMOND } },
	{ .id = JOIN_MIGRATION, .name = "migration", .own = "net", .rank = -2,
	  .style = { "#F0E442", HATCH_BACKDIAG, MARK_PLUS } },
	{ .id = JOIN_UNEXPLAINED, .name = "unexplained", .own = "net", .rank = -3,
	  .style = { "#ffffff", HATCH_DOTS, MARK_CIRCLE } },
	{ .id = JOIN_UNATTRIBUTED, .name = "unattributed", .own = "net", .rank = -4,
	  .style = { "#999999", HATCH_NONE, MARK_SQUARE } },
	{ .id = JOIN_INCOMPLETE, .name = "incomplete", .own = "iteration", .rank = -100,
	  .style = { "#000000", HATCH_NONE, MARK_CROSS } },	/* primary only */
};

const struct join_label_desc *join_label_desc(enum join_label l)
{
	size_t i;

	for (i = 0; i < sizeof(rest_labels) / sizeof(rest_labels[0]); i++)
		if (rest_labels[i].id == l)
			return &rest_labels[i];
	return lat_evtype_label_desc(l);
}

const char *join_label_name(enum join_label l)
{
	const struct join_label_desc *d = join_label_desc(l);

	return d ? d->name : NULL;
}

const char *join_label_own(enum join_label l)
{
	const struct join_label_desc *d = join_label_desc(l);

	return d ? d->own : NULL;
}

int join_label_by_name(const char *name)
{
	const struct join_label_desc *d;
	int l;

	for (l = 0; l < JOIN_NR_LABELS; l++) {
		d = join_label_desc(l);
		if (d && !strcmp(d->name, name) && (!d->part || (int)d->into == l))
			return l;
	}
	return -1;
}

void join_fold_parts(struct join_iter *it)
{
	const struct join_label_desc *d;
	int l;

	for (l = 0; l < JOIN_NR_LABELS; l++) {
		d = join_label_desc(l);
		if (!d || !d->part)
			continue;
		it->parts[l] = it->ticks[l];
		if ((int)d->into == l)
			continue;
		it->ticks[d->into] += it->ticks[l];
		it->ticks[l] = 0;
	}
}

void join_precedence(struct join_prec *p, bool events_only)
{
	const struct join_label_desc *d;
	size_t j;
	int l;

	p->n = 0;
	for (l = 0; l < JOIN_NR_LABELS; l++) {
		d = join_label_desc(l);
		if (!d || l == JOIN_INCOMPLETE || (events_only && d->rank <= 0))
			continue;
		for (j = p->n++; j > 0 && join_label_desc(p->order[j - 1])->rank < d->rank; j--)
			p->order[j] = p->order[j - 1];
		p->order[j] = l;
	}
}

double join_ticks_to_ns(uint64_t ticks, double tsc_hz)
{
	return tsc_hz > 0 ? (double)ticks * 1e9 / tsc_hz : 0;
}
