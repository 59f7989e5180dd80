// SPDX-License-Identifier: MIT
/*
 * The labels of the join: the event labels come from the record types'
 * descriptors (user/ev_*.c), the labels of ticks no event covers are here.
 */
#include "evtype.h"

/* What user space knows of uncovered ticks, most specific first. */
static const struct join_label_desc rest_labels[] = {
	{ JOIN_REALLOC, "realloc", "net", -1 },
	{ JOIN_MIGRATION, "migration", "net", -2 },
	{ JOIN_UNEXPLAINED, "unexplained", "net", -3 },
	{ JOIN_UNATTRIBUTED, "unattributed", "net", -4 },
	{ JOIN_INCOMPLETE, "incomplete", "iteration", -100 },	/* primary only */
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
