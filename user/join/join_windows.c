// SPDX-License-Identifier: MIT
/*
 * Windows of lost events. Records are written when their interval ends, so
 * a lost record covers the time from the end of its ring's previous record
 * (0 if none) to the lost record. A gap in a ring's seq (a module bug, says
 * latmon.h) is treated the same way, up to the next record.
 */
#include <errno.h>
#include <stdlib.h>

#include "join/join_int.h"

struct ring_ref {		/* one record's place in its CPU's ring */
	uint64_t seq;
	uint32_t cpu;
	uint32_t idx;
};

static int cmp_ring_ref(const void *a, const void *b)
{
	const struct ring_ref *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_window(const void *a, const void *b)
{
	const struct join_window *x = a, *y = b;

	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static int add_window(struct join_windows *w, size_t *cap, uint32_t cpu,
		      uint64_t begin, uint64_t end, uint64_t count)
{
	struct join_window *x;
	int ret;

	ret = join_grow((void **)&w->win, cap, w->n + 1, sizeof(*w->win));
	if (ret)
		return ret;
	x = &w->win[w->n++];
	x->cpu = cpu;
	x->end = end;
	x->begin = begin < end ? begin : end;
	x->count = count;
	return 0;
}

/* Walk each CPU's ring in seq order and add a window per loss. */
static int scan_rings(const struct latmon_event *evs, const struct ring_ref *r, size_t n,
		      struct join_windows *w, struct join_stats *st)
{
	uint64_t last = 0;
	size_t i, cap = 0;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		const struct latmon_event *ev = &evs[r[i].idx];
		bool same = i && r[i - 1].cpu == r[i].cpu;
		uint64_t expect = same ? r[i - 1].seq + 1 : 0;

		if (!same)
			last = 0;
		if (r[i].seq > expect) {	/* seq starts at 0 at START */
			st->seq_gaps++;
			st->lost_events += r[i].seq - expect;
			ret = add_window(w, &cap, ev->cpu, last, ev->tsc_end, r[i].seq - expect);
		}
		if (ev->type != LATMON_EV_LOST) {
			last = ev->tsc_end;
			continue;
		}
		st->lost_records++;
		st->lost_events += ev->u.lost.count;
		if (!ret)	/* up to the end of the last dropped event */
			ret = add_window(w, &cap, ev->cpu, last, ev->tsc_end, ev->u.lost.count);
	}
	return ret;
}

/*
 * The records grouped by CPU (a counting sort, which keeps the reader's
 * order), then by seq: the reader delivers each ring in order, so the
 * second step is usually just a check.
 */
static struct ring_ref *ring_order(const struct latmon_event *evs, size_t n)
{
	size_t *start = calloc(UINT16_MAX + 2, sizeof(*start));
	struct ring_ref *r = malloc(n * sizeof(*r));
	size_t i, cpu;

	if (!start || !r) {
		free(start);
		free(r);
		return NULL;
	}
	for (i = 0; i < n; i++)
		start[evs[i].cpu + 1]++;
	for (cpu = 1; cpu <= UINT16_MAX + 1; cpu++)
		start[cpu] += start[cpu - 1];
	for (i = 0; i < n; i++)
		r[start[evs[i].cpu]++] = (struct ring_ref){ evs[i].seq, evs[i].cpu, i };
	free(start);
	for (i = 1; i < n; i++)
		if (r[i].cpu == r[i - 1].cpu && r[i].seq < r[i - 1].seq)
			break;
	if (i < n)
		qsort(r, n, sizeof(*r), cmp_ring_ref);
	return r;
}

int join_windows_build(const struct latmon_event *evs, size_t n, struct join_windows *w,
		       struct join_stats *st)
{
	struct ring_ref *r;
	int ret;

	if (!n)
		return 0;
	r = ring_order(evs, n);
	if (!r)
		return -ENOMEM;
	ret = scan_rings(evs, r, n, w, st);
	free(r);
	if (ret || !w->n)
		return ret;
	qsort(w->win, w->n, sizeof(*w->win), cmp_window);
	w->active = malloc(w->n * sizeof(*w->active));
	return w->active ? 0 : -ENOMEM;
}

/* Drop windows that ended before b, take in those beginning by e. */
static void advance(struct join_windows *w, uint64_t b, uint64_t e)
{
	size_t i, k = 0;

	for (i = 0; i < w->n_active; i++)
		if (w->win[w->active[i]].end >= b)
			w->active[k++] = w->active[i];
	w->n_active = k;
	for (; w->next < w->n && w->win[w->next].begin <= e; w->next++)
		if (w->win[w->next].end >= b)
			w->active[w->n_active++] = w->next;
}

bool join_windows_check(struct join_windows *w, const struct lat_sample *s,
			uint64_t b, uint64_t e, uint64_t *lost)
{
	bool hit = false;
	size_t i;

	advance(w, b, e);
	*lost = 0;
	for (i = 0; i < w->n_active; i++) {
		const struct join_window *x = &w->win[w->active[i]];

		if (x->cpu == s->cpu_begin || x->cpu == s->cpu_end) {
			hit = true;
			*lost += x->count;
		}
	}
	return hit;
}

void join_windows_rewind(struct join_windows *w)
{
	w->next = w->n_active = 0;
}

void join_windows_free(struct join_windows *w)
{
	free(w->win);
	free(w->active);
	w->win = NULL;
	w->active = NULL;
	w->n = w->next = w->n_active = 0;
}
