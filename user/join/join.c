// SPDX-License-Identifier: MIT
/*
 * The merge of TSC samples and latmon events (see join.h for the rules).
 * One pass: the slow iterations in time order, the events sorted by begin,
 * an active set of events that may still overlap; per iteration the events
 * are noted through their type's descriptor (evtype.h), the lost windows
 * checked (join_windows.c) and the ticks swept to labels (join_sweep.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/evtype.h"
#include "join/join_int.h"

#define LAB_SKIP	0xff	/* event not used by the join */

struct ev_ref {
	uint64_t begin;
	uint64_t idx;
};

struct join_ctx {
	const struct join_input *in;
	struct ev_ref *order;		/* events by tsc_begin */
	size_t n_order, next;
	uint8_t *lab;			/* per event: label or LAB_SKIP */
	const struct lat_evtype **type;	/* per event: its descriptor */
	uint8_t *seen;			/* own duration already recorded */
	uint64_t *split;		/* per event: compaction ends (join_split.c) */
	uint64_t *steal_left;		/* per event: steal to place (join_steal.c) */
	size_t *active;			/* event indices that may overlap */
	size_t n_active, cap_active;
	struct join_windows win;
	struct join_point *pts;
	size_t cap_pts;
	struct join_prec prec, all;	/* event labels; all ranked labels */
	struct join_u64vec own[JOIN_NR_LABELS];
	uint64_t last_begin;		/* of the previous slow iteration */
	struct join_stats stats;
};

static int cmp_ev_ref(const void *a, const void *b)
{
	const struct ev_ref *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The label an event contributes for thread tid, or LAB_SKIP (counted). */
static uint8_t event_label(const struct lat_evtype *t, const struct latmon_event *ev,
			   uint32_t tid, struct join_stats *st)
{
	if (t && (t->flags & LAT_EVT_LOST))
		return LAB_SKIP;
	if (!t || ev->tsc_end < ev->tsc_begin) {
		st->bad++;
		return LAB_SKIP;
	}
	/* tid 0 on an interrupt: the module did not say whom it hit */
	if (ev->tid != tid && !((t->flags & LAT_EVT_ANY_TID) && ev->tid == 0)) {
		st->other_thread++;
		return LAB_SKIP;
	}
	return (uint8_t)lat_evtype_label(t, ev);
}

/* Where each zeroing that spans direct compaction stops being compaction;
 * the steal each steal record has to place. */
static int compact_splits(struct join_ctx *c)
{
	uint8_t *used = malloc(c->n_order);
	size_t i;
	int ret;

	if (!used)
		return -ENOMEM;
	for (i = 0; i < c->n_order; i++)
		used[i] = c->lab[i] != LAB_SKIP;
	ret = join_compact_splits(c->in->events, c->n_order, used, &c->split);
	if (!ret)
		ret = join_steal_left(c->in->events, c->n_order, used, c->in->tsc_hz,
				      &c->steal_left, &c->stats.steal);
	free(used);
	return ret;
}

/* Sort an index of the events by begin and label each event. */
static int index_events(struct join_ctx *c)
{
	const struct join_input *in = c->in;
	size_t i;

	c->n_order = in->n_events;
	if (!c->n_order)
		return 0;
	c->order = malloc(c->n_order * sizeof(*c->order));
	c->lab = malloc(c->n_order);
	c->type = malloc(c->n_order * sizeof(*c->type));
	c->seen = calloc(c->n_order, 1);
	if (!c->order || !c->lab || !c->type || !c->seen)
		return -ENOMEM;
	for (i = 0; i < c->n_order; i++) {
		c->order[i].begin = in->events[i].tsc_begin;
		c->order[i].idx = i;
		c->type[i] = lat_evtype(in->events[i].type);
		c->lab[i] = event_label(c->type[i], &in->events[i], in->tid, &c->stats);
	}
	qsort(c->order, c->n_order, sizeof(*c->order), cmp_ev_ref);
	return compact_splits(c);
}

/* Drop active events that ended before b, take in those beginning by e. */
static int advance_events(struct join_ctx *c, uint64_t b, uint64_t e)
{
	const struct latmon_event *evs = c->in->events;
	size_t i, k = 0;
	int ret;

	for (i = 0; i < c->n_active; i++)
		if (evs[c->active[i]].tsc_end >= b)
			c->active[k++] = c->active[i];
	c->n_active = k;
	for (; c->next < c->n_order && c->order[c->next].begin <= e; c->next++) {
		size_t idx = c->order[c->next].idx;

		if (c->lab[idx] == LAB_SKIP || evs[idx].tsc_end < b)
			continue;
		ret = join_grow((void **)&c->active, &c->cap_active, c->n_active + 1,
				sizeof(*c->active));
		if (ret)
			return ret;
		c->active[c->n_active++] = idx;
	}
	return 0;
}

/* Does event idx overlap the iteration [b, e) (its tid is checked already)? */
static bool event_applies(const struct join_ctx *c, size_t idx, const struct lat_sample *s,
			  uint64_t b, uint64_t e)
{
	const struct latmon_event *ev = &c->in->events[idx];

	if (ev->tsc_begin == ev->tsc_end) {	/* instantaneous: [b, e] */
		if (ev->tsc_begin < b || ev->tsc_begin > e)
			return false;
	} else if (ev->tsc_begin >= e || ev->tsc_end <= b) {	/* [b, e) */
		return false;
	}
	if (c->type[idx]->flags & LAT_EVT_ON_CPU)
		return ev->cpu == s->cpu_begin || ev->cpu == s->cpu_end;
	return true;
}

/* Record the details of one event used by an iteration. */
static void note_event(struct join_iter *it, const struct lat_evtype *t,
		       const struct latmon_event *ev)
{
	it->n_events++;
	it->n_type[t->type]++;
	if (t->note)
		t->note(it, ev);
}

/* Where event idx's own label begins: after its compaction, if any. */
static uint64_t own_begin(const struct join_ctx *c, size_t idx)
{
	uint64_t b = c->in->events[idx].tsc_begin;

	return c->split && c->split[idx] > b ? c->split[idx] : b;
}

/* Keep event ev (label lab) as a span of it, up to JOIN_MAX_SPANS. */
static int keep_span(struct join_iter *it, const struct latmon_event *ev, uint8_t lab)
{
	struct join_span *s;

	if (it->n_spans == JOIN_MAX_SPANS) {
		it->spans_dropped++;
		return 0;
	}
	if (!(it->n_spans & (it->n_spans - 1))) { /* 0, 1, 2, 4, ...: grow */
		s = realloc(it->spans, (it->n_spans ? 2 * it->n_spans : 1) * sizeof(*s));
		if (!s)
			return -ENOMEM;
		it->spans = s;
	}
	it->spans[it->n_spans++] = (struct join_span){ .begin = ev->tsc_begin,
						       .end = ev->tsc_end,
						       .type = ev->type,
						       .label = lab,
						       .cpu = ev->cpu };
	return 0;
}

/* Add [lo, hi) of label as two boundary points, if not empty. */
static void add_span(struct join_point *p, size_t *n, uint64_t lo, uint64_t hi, int32_t label)
{
	if (hi <= lo)
		return;
	p[(*n)++] = (struct join_point){ lo, label, 1 };
	p[(*n)++] = (struct join_point){ hi, label, -1 };
}

/* Note the active events that touch [b, e] and turn them into clipped
 * boundary points (a zeroing that spans direct compaction: two spans; with
 * the hypervisor's evidence, the iteration's begin to a fault's begin and
 * the fault's end to the iteration's end: the access exits to the
 * hypervisor before the guest sees its fault, and again after it). */
static int collect_points(struct join_ctx *c, const struct lat_sample *s,
			  struct join_iter *it, uint64_t b, uint64_t e, size_t *np)
{
	const struct latmon_event *evs = c->in->events;
	size_t i, n = 0;
	int ret;

	ret = join_grow((void **)&c->pts, &c->cap_pts, 8 * c->n_active, sizeof(*c->pts));
	if (ret)
		return ret;
	for (i = 0; i < c->n_active; i++) {
		size_t idx = c->active[i];
		const struct latmon_event *ev = &evs[idx];
		uint64_t lo = ev->tsc_begin > b ? ev->tsc_begin : b;
		uint64_t hi = ev->tsc_end < e ? ev->tsc_end : e;
		uint64_t mid = own_begin(c, idx);

		if (!event_applies(c, idx, s, b, e))
			continue;
		note_event(it, c->type[idx], ev);
		if (c->type[idx]->flags & (LAT_EVT_INSTANT | LAT_EVT_AMOUNT))
			continue;
		ret = keep_span(it, ev, c->lab[idx]);
		if (ret)
			return ret;
		mid = mid < lo ? lo : mid > hi ? hi : mid;
		add_span(c->pts, &n, lo, mid, JOIN_COMPACTION);
		add_span(c->pts, &n, mid, hi, c->lab[idx]);
		if (c->in->hypervisor && c->lab[idx] == JOIN_FAULT) {
			add_span(c->pts, &n, b, lo, JOIN_HYPERVISOR);
			add_span(c->pts, &n, hi, e, JOIN_HYPERVISOR);
		}
	}
	*np = n;
	return 0;
}

/* Place the steal of the steal records around the iteration into its
 * ticks of label rest; each placement is an own duration of steal. */
static int place_steal(struct join_ctx *c, const struct lat_sample *s, struct join_iter *it,
		       uint64_t b, uint64_t e, enum join_label rest)
{
	uint64_t took;
	size_t i;

	for (i = 0; c->steal_left && i < c->n_active; i++) {
		size_t idx = c->active[i];

		if (!(c->type[idx]->flags & LAT_EVT_AMOUNT) || !c->steal_left[idx] ||
		    !event_applies(c, idx, s, b, e))
			continue;
		took = join_steal_place(&c->steal_left[idx], it->ticks, rest);
		c->stats.steal_placed += took;
		if (took && !it->incomplete && join_vec_push(&c->own[JOIN_STEAL], took))
			return -ENOMEM;
	}
	return 0;
}

/* With the probe's idle gaps, an uncovered stretch is hypervisor; the
 * iteration's hypervisor ticks are one own duration. */
static int place_stretch(struct join_ctx *c, struct join_iter *it, enum join_label rest)
{
	if (it->incomplete)
		return 0;
	if (c->in->hv_stretch &&
	    join_stretch_place(it->ticks, rest, c->in->hv_typical, c->in->hv_stretch))
		c->stats.hv_stretches++;
	if (!it->ticks[JOIN_HYPERVISOR])
		return 0;
	return join_vec_push(&c->own[JOIN_HYPERVISOR], it->ticks[JOIN_HYPERVISOR]);
}

/* What user space knows of the ticks no event covers. */
static enum join_label rest_label(const struct join_input *in,
				  const struct join_iter *it)
{
	if (it->sample_flags & LAT_SAMPLE_F_REALLOC)
		return JOIN_REALLOC;
	if (it->migrated)
		return JOIN_MIGRATION;
	return in->have_events ? JOIN_UNEXPLAINED : JOIN_UNATTRIBUTED;
}

/* A part's own durations count for the label it is a part of. */
static enum join_label own_label(enum join_label l)
{
	const struct join_label_desc *d = join_label_desc(l);

	return d && d->part ? d->into : l;
}

/* Own durations of the events a complete iteration used, once per event. */
static int note_own(struct join_ctx *c, const struct lat_sample *s, uint64_t b,
		    uint64_t e)
{
	const struct latmon_event *evs = c->in->events;
	size_t i;
	int ret;

	for (i = 0; i < c->n_active; i++) {
		size_t idx = c->active[i];

		if (c->seen[idx] || !event_applies(c, idx, s, b, e))
			continue;
		c->seen[idx] = 1;
		c->stats.used++;
		if (c->type[idx]->flags & (LAT_EVT_INSTANT | LAT_EVT_AMOUNT))
			continue;
		ret = join_vec_push(&c->own[own_label(c->lab[idx])],
				    evs[idx].tsc_end - own_begin(c, idx));
		if (ret)
			return ret;
	}
	return 0;
}

static void iter_init(struct join_iter *it, const struct join_input *in, size_t pos,
		      uint64_t b, uint64_t e)
{
	const struct lat_sample *s = &in->samples[pos];

	memset(it, 0, sizeof(*it));
	it->index = in->index_base + pos;
	it->tsc_hz = in->tsc_hz;
	it->tsc_begin = b;
	it->duration = e - b;
	it->cpu_begin = s->cpu_begin;
	it->cpu_end = s->cpu_end;
	it->sample_flags = s->flags;
	it->migrated = s->cpu_begin != s->cpu_end;
}

/* Join one slow iteration with the events around it. */
static int join_one(struct join_ctx *c, size_t pos, struct join_iter *it)
{
	const struct lat_sample *s = &c->in->samples[pos];
	uint64_t b = s->tsc_begin, e = s->tsc_end > b ? s->tsc_end : b;
	enum join_label rest;
	size_t np;
	int ret;

	iter_init(it, c->in, pos, b, e);
	if (b < c->last_begin) {	/* out of time order: merge again from the start */
		c->next = c->n_active = 0;
		join_windows_rewind(&c->win);
		c->stats.rewinds++;
	}
	c->last_begin = b;
	ret = advance_events(c, b, e);
	if (ret)
		return ret;
	it->incomplete = join_windows_check(&c->win, s, b, e, &it->lost);
	ret = collect_points(c, s, it, b, e, &np);
	if (ret)
		return ret;
	rest = rest_label(c->in, it);
	join_sweep(c->pts, np, b, e, rest, &c->prec, it->ticks);
	if (c->in->hypervisor)
		join_own_keep(it->ticks, rest, c->in->hv_typical);
	ret = place_steal(c, s, it, b, e, rest);
	if (ret)
		return ret;
	ret = place_stretch(c, it, rest);
	if (ret)
		return ret;
	join_fold_parts(it);
	it->primary = join_primary(it->ticks, it->incomplete, rest, &c->all);
	if (it->incomplete) {
		c->stats.incomplete++;
		return 0;
	}
	return note_own(c, s, b, e);
}

static bool is_slow(const struct join_input *in, size_t i)
{
	const struct lat_sample *s = &in->samples[i];

	return s->tsc_end >= s->tsc_begin && s->tsc_end - s->tsc_begin >= in->slow_ticks;
}

/* Validate the input and count the slow iterations. */
static int count_slow(const struct join_input *in, size_t *n)
{
	size_t i;

	if (!in->samples && in->n_samples)
		return -EINVAL;
	if (!(in->tsc_hz > 0) || (in->n_events && !in->events))
		return -EINVAL;
	if (in->slow) {
		for (i = 0; i < in->n_slow; i++)
			if (in->slow[i] >= in->n_samples ||
			    (i && in->slow[i] <= in->slow[i - 1]))
				return -EINVAL;
		*n = in->n_slow;
		return 0;
	}
	*n = 0;
	for (i = 0; i < in->n_samples; i++)
		*n += is_slow(in, i);
	return 0;
}

/* Join every slow iteration in time order. */
static int join_all(struct join_ctx *c, struct join_result *r)
{
	const struct join_input *in = c->in;
	size_t i, k = 0;
	int ret;

	for (i = 0; in->slow ? k < in->n_slow : i < in->n_samples; i++) {
		size_t pos = in->slow ? in->slow[k] : i;

		if (!in->slow && !is_slow(in, pos))
			continue;
		ret = join_one(c, pos, &r->iters[k++]);
		if (ret)
			return ret;
	}
	return 0;
}

static void ctx_free(struct join_ctx *c)
{
	int l;

	free(c->order);
	free(c->lab);
	free(c->type);
	free(c->seen);
	free(c->split);
	free(c->steal_left);
	free(c->active);
	join_windows_free(&c->win);
	free(c->pts);
	for (l = 0; l < JOIN_NR_LABELS; l++)
		free(c->own[l].v);
}

/* Index, windows, merge and tally into out, which has room for n iterations. */
static int join_steps(struct join_ctx *c, struct join_result *out, size_t n)
{
	int ret;

	join_precedence(&c->prec, true);
	join_precedence(&c->all, false);
	ret = index_events(c);
	if (!ret)
		ret = join_windows_build(c->in->events, c->in->n_events, &c->win, &c->stats);
	if (!ret)
		ret = join_all(c, out);
	if (!ret)
		ret = join_tally(out->iters, n, c->own, out);
	return ret;
}

int join_run(const struct join_input *in, struct join_result *out)
{
	struct join_ctx c = { .in = in };
	size_t n;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = count_slow(in, &n);
	if (ret)
		return ret;
	out->iters = calloc(n ? n : 1, sizeof(*out->iters));
	ret = out->iters ? join_steps(&c, out, n) : -ENOMEM;
	ctx_free(&c);
	if (ret) {
		join_result_free(out);
		return ret;
	}
	out->n_iters = n;
	out->slow_ticks = in->slow ? 0 : in->slow_ticks;
	out->have_events = in->have_events;
	out->tsc_hz = in->tsc_hz;
	c.stats.events = in->n_events;
	out->stats = c.stats;
	return 0;
}

void join_result_free(struct join_result *r)
{
	size_t i;

	for (i = 0; r->iters && i < r->n_iters; i++)
		free(r->iters[i].spans);
	free(r->iters);
	r->iters = NULL;
	r->n_iters = 0;
}
