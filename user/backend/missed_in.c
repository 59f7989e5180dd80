// SPDX-License-Identifier: MIT
/* Switch-ins the kernel did not report, bounded (see missed_in.h). */
#include <stdbool.h>
#include <stdlib.h>

#include "backend/evbuf.h"
#include "backend/missed_in.h"
#include "backend/reads.h"

/* Records written in the thread's own context: it was running at begin. */
static bool in_context(const struct latmon_event *e)
{
	return e->type == LATMON_EV_IRQ || e->type == LATMON_EV_SYSCALL ||
	       e->type == LATMON_EV_FAULT;
}

static bool marked(const struct latmon_event *e)
{
	return e->type == LATMON_EV_SCHED && (e->u.sched.flags & LATMON_SCHED_F_IN_MISSED);
}

static const struct latmon_event *sort_base;

static int by_tid_begin(const void *a, const void *b)
{
	const struct latmon_event *x = &sort_base[*(const size_t *)a];
	const struct latmon_event *y = &sort_base[*(const size_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->tsc_begin > y->tsc_begin) - (x->tsc_begin < y->tsc_begin);
}

/* The last marked record (of idx, sorted) of e's thread out before e began. */
static struct latmon_event *open_at(struct latmon_event *ev, const size_t *idx, size_t n,
				    const struct latmon_event *e)
{
	size_t lo = 0, hi = n, mid;
	struct latmon_event *m;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		m = &ev[idx[mid]];
		if (m->tid < e->tid || (m->tid == e->tid && m->tsc_begin < e->tsc_begin))
			lo = mid + 1;
		else
			hi = mid;
	}
	m = lo ? &ev[idx[lo - 1]] : NULL;
	return m && m->tid == e->tid && e->tsc_begin < m->tsc_end ? m : NULL;
}

/* Each marked record's end at the first record in its thread's context. */
static void bound_by_records(struct latmon_event *ev, size_t n_ev, const size_t *idx, size_t n)
{
	struct latmon_event *m;
	size_t i;

	for (i = 0; i < n_ev; i++) {
		if (!in_context(&ev[i]))
			continue;
		m = open_at(ev, idx, n, &ev[i]);
		if (m)
			m->tsc_end = ev[i].tsc_begin;
	}
}

void lat_missed_in_bound(struct lat_evbuf *m, const struct lat_run *run, struct lat_missed_in *st)
{
	struct lat_reads *reads;
	uint64_t *end0, b;
	size_t i, n = 0;
	size_t *idx;

	*st = (struct lat_missed_in){ 0 };
	for (i = 0; i < m->n; i++)
		n += marked(&m->ev[i]);
	st->count = n;
	idx = n ? calloc(n, sizeof(*idx)) : NULL;
	end0 = n ? calloc(n, sizeof(*end0)) : NULL;
	reads = n ? lat_reads_new(run) : NULL;
	if (idx && end0) {
		for (i = 0, n = 0; i < m->n; i++)
			if (marked(&m->ev[i]))
				idx[n++] = i;
		sort_base = m->ev;
		qsort(idx, n, sizeof(*idx), by_tid_begin);
		for (i = 0; i < n; i++)
			end0[i] = m->ev[idx[i]].tsc_end;
		bound_by_records(m->ev, m->n, idx, n);
		for (i = 0; i < n; i++) {
			struct latmon_event *e = &m->ev[idx[i]];

			b = lat_reads_next(reads, e->tid, e->tsc_begin);
			if (b < e->tsc_end)
				e->tsc_end = b;
			st->bounded += e->tsc_end < end0[i];
		}
	}
	lat_reads_free(reads);
	free(idx);
	free(end0);
}
