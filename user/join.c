// SPDX-License-Identifier: MIT
/*
 * The join of TSC samples and latmon events (see join.h for the rules).
 * One pass: the slow iterations in time order, the events sorted by begin,
 * an active set of events that may still overlap, and per iteration a sweep
 * over the clipped event boundaries that gives every tick to one label.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "join.h"

#define LAB_SKIP	0xff	/* event not used by the join */

static const char *const label_names[JOIN_NR_LABELS] = {
	[JOIN_FAULT] = "fault",
	[JOIN_THP_ZERO] = "thp-zero",
	[JOIN_PREEMPTION] = "preemption",
	[JOIN_BLOCKED] = "blocked",
	[JOIN_INTERRUPT] = "interrupt",
	[JOIN_MIGRATION] = "migration",
	[JOIN_REALLOC] = "realloc",
	[JOIN_UNEXPLAINED] = "unexplained",
	[JOIN_UNATTRIBUTED] = "unattributed",
	[JOIN_INCOMPLETE] = "incomplete",
};

static const char *const label_own[JOIN_NR_LABELS] = {
	[JOIN_FAULT] = "fault",
	[JOIN_THP_ZERO] = "clear",
	[JOIN_PREEMPTION] = "off-CPU",
	[JOIN_BLOCKED] = "asleep",
	[JOIN_INTERRUPT] = "handler",
	[JOIN_MIGRATION] = "net",
	[JOIN_REALLOC] = "net",
	[JOIN_UNEXPLAINED] = "net",
	[JOIN_UNATTRIBUTED] = "net",
	[JOIN_INCOMPLETE] = "iteration",
};

/* Event labels, highest precedence first: the innermost cause wins. */
static const enum join_label precedence[] = {
	JOIN_INTERRUPT, JOIN_BLOCKED, JOIN_PREEMPTION, JOIN_THP_ZERO, JOIN_FAULT,
};
#define N_PRECEDENCE (sizeof(precedence) / sizeof(precedence[0]))

struct ev_ref {
	uint64_t begin;
	uint64_t idx;
};

struct window {			/* events were lost on cpu in [begin, end] */
	uint64_t begin, end;
	uint64_t count;
	uint32_t cpu;
};

struct point {			/* one clipped boundary of one event */
	uint64_t t;
	int32_t label;
	int32_t delta;
};

struct u64vec {
	uint64_t *v;
	size_t n, cap;
};

struct join_ctx {
	const struct join_input *in;
	struct ev_ref *order;		/* events by tsc_begin */
	size_t n_order, next;
	uint8_t *lab;			/* per event: label or LAB_SKIP */
	uint8_t *seen;			/* own duration already recorded */
	size_t *active;			/* event indices that may overlap */
	size_t n_active, cap_active;
	struct window *win;		/* lost windows by begin */
	size_t n_win, next_win;
	size_t *win_active;
	size_t n_win_active;
	struct point *pts;
	size_t cap_pts;
	struct u64vec own[JOIN_NR_LABELS];
	uint64_t last_begin;		/* of the previous slow iteration */
	struct join_stats stats;
};

const char *join_label_name(enum join_label l)
{
	if ((unsigned int)l >= JOIN_NR_LABELS)
		return NULL;
	return label_names[l];
}

const char *join_label_own(enum join_label l)
{
	if ((unsigned int)l >= JOIN_NR_LABELS)
		return NULL;
	return label_own[l];
}

double join_ticks_to_ns(uint64_t ticks, double tsc_hz)
{
	return tsc_hz > 0 ? (double)ticks * 1e9 / tsc_hz : 0;
}

static int u64vec_push(struct u64vec *vec, uint64_t x)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : 64;
		uint64_t *v = realloc(vec->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n++] = x;
	return 0;
}

/* Grow *arr (of elem-sized items) so that it holds at least need items. */
static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

static int cmp_ev_ref(const void *a, const void *b)
{
	const struct ev_ref *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_window(const void *a, const void *b)
{
	const struct window *x = a, *y = b;

	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The label an event contributes for thread tid, or LAB_SKIP (counted). */
static uint8_t event_label(const struct latmon_event *ev, uint32_t tid,
			   struct join_stats *st)
{
	if (ev->type == LATMON_EV_LOST || ev->type == 0 ||
	    ev->type >= __LATMON_EV_MAX || ev->tsc_end < ev->tsc_begin) {
		if (ev->type != LATMON_EV_LOST)
			st->bad++;
		return LAB_SKIP;
	}
	/* tid 0 on an interrupt: the module did not say whom it hit */
	if (ev->tid != tid && !(ev->type == LATMON_EV_IRQ && ev->tid == 0)) {
		st->other_thread++;
		return LAB_SKIP;
	}
	switch (ev->type) {
	case LATMON_EV_FAULT:
		return JOIN_FAULT;
	case LATMON_EV_THP_CLEAR:
		return JOIN_THP_ZERO;
	case LATMON_EV_SCHED:
		return ev->u.sched.flags & LATMON_SCHED_F_PREEMPTED ?
			JOIN_PREEMPTION : JOIN_BLOCKED;
	case LATMON_EV_IRQ:
		return JOIN_INTERRUPT;
	default:
		return JOIN_MIGRATION;
	}
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
	c->seen = calloc(c->n_order, 1);
	if (!c->order || !c->lab || !c->seen)
		return -ENOMEM;
	for (i = 0; i < c->n_order; i++) {
		c->order[i].begin = in->events[i].tsc_begin;
		c->order[i].idx = i;
		c->lab[i] = event_label(&in->events[i], in->tid, &c->stats);
	}
	qsort(c->order, c->n_order, sizeof(*c->order), cmp_ev_ref);
	return 0;
}

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

static int add_window(struct join_ctx *c, size_t *cap, uint32_t cpu,
		      uint64_t begin, uint64_t end, uint64_t count)
{
	struct window *w;
	int ret;

	ret = grow((void **)&c->win, cap, c->n_win + 1, sizeof(*c->win));
	if (ret)
		return ret;
	w = &c->win[c->n_win++];
	w->cpu = cpu;
	w->end = end;
	w->begin = begin < end ? begin : end;
	w->count = count;
	return 0;
}

/*
 * Windows of lost events, walking each CPU's ring in seq order. Records are
 * written when their interval ends, so a lost record covers the time from the
 * end of the ring's previous record (0 if none) to the lost record. A gap in
 * seq (a bug, says latmon.h) is treated the same way, up to the next record.
 */
static int scan_rings(struct join_ctx *c, const struct ring_ref *r, size_t n)
{
	const struct latmon_event *evs = c->in->events;
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
			c->stats.seq_gaps++;
			c->stats.lost_events += r[i].seq - expect;
			ret = add_window(c, &cap, ev->cpu, last, ev->tsc_end,
					 r[i].seq - expect);
		}
		if (ev->type != LATMON_EV_LOST) {
			last = ev->tsc_end;
			continue;
		}
		c->stats.lost_records++;
		c->stats.lost_events += ev->u.lost.count;
		if (!ret)	/* up to the end of the last dropped event */
			ret = add_window(c, &cap, ev->cpu, last, ev->tsc_end,
					 ev->u.lost.count);
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

/* Find the lost windows and sort them by begin for the merge. */
static int build_windows(struct join_ctx *c)
{
	struct ring_ref *r;
	size_t n = c->in->n_events;
	int ret;

	if (!n)
		return 0;
	r = ring_order(c->in->events, n);
	if (!r)
		return -ENOMEM;
	ret = scan_rings(c, r, n);
	free(r);
	if (ret || !c->n_win)
		return ret;
	qsort(c->win, c->n_win, sizeof(*c->win), cmp_window);
	c->win_active = malloc(c->n_win * sizeof(*c->win_active));
	return c->win_active ? 0 : -ENOMEM;
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
		ret = grow((void **)&c->active, &c->cap_active, c->n_active + 1,
			   sizeof(*c->active));
		if (ret)
			return ret;
		c->active[c->n_active++] = idx;
	}
	return 0;
}

/* Same for lost windows; returns the events lost in windows on the
 * iteration's CPUs that overlap it (0: none), through *lost. */
static bool check_windows(struct join_ctx *c, const struct lat_sample *s,
			  uint64_t b, uint64_t e, uint64_t *lost)
{
	bool hit = false;
	size_t i, k = 0;

	for (i = 0; i < c->n_win_active; i++)
		if (c->win[c->win_active[i]].end >= b)
			c->win_active[k++] = c->win_active[i];
	c->n_win_active = k;
	for (; c->next_win < c->n_win && c->win[c->next_win].begin <= e; c->next_win++)
		if (c->win[c->next_win].end >= b)
			c->win_active[c->n_win_active++] = c->next_win;
	*lost = 0;
	for (i = 0; i < c->n_win_active; i++) {
		const struct window *w = &c->win[c->win_active[i]];

		if (w->cpu == s->cpu_begin || w->cpu == s->cpu_end) {
			hit = true;
			*lost += w->count;
		}
	}
	return hit;
}

/* Remember one interrupt in the iteration's short list of distinct ones. */
static void note_irq(struct join_iter *it, const struct latmon_irq *irq)
{
	uint32_t i;

	it->n_irqs++;
	for (i = 0; i < it->n_irq_kinds; i++) {
		struct join_irq *j = &it->irq[i];

		if (j->kind == irq->kind && j->number == irq->number &&
		    !strncmp(j->name, irq->name, sizeof(irq->name))) {
			j->count++;
			return;
		}
	}
	if (it->n_irq_kinds == JOIN_MAX_IRQS)
		return;
	it->irq[i].kind = irq->kind;
	it->irq[i].number = irq->number;
	it->irq[i].count = 1;
	memcpy(it->irq[i].name, irq->name, sizeof(irq->name));
	it->irq[i].name[sizeof(irq->name)] = '\0';
	it->n_irq_kinds++;
}

/* Record the details of one event used by an iteration. */
static void note_event(struct join_iter *it, const struct latmon_event *ev,
		       uint64_t *longest_out)
{
	it->n_events++;
	switch (ev->type) {
	case LATMON_EV_FAULT:
		it->n_faults++;
		if (it->n_addrs < JOIN_MAX_ADDRS)
			it->fault_addr[it->n_addrs++] = ev->u.fault.address;
		if (ev->u.fault.flags & LATMON_FAULT_F_HUGE)
			it->thp = true;
		break;
	case LATMON_EV_THP_CLEAR:
		it->n_thp_clears++;
		it->thp = true;
		break;
	case LATMON_EV_SCHED:
		it->n_switches++;
		if (ev->u.sched.out_cpu != ev->cpu)
			it->migrated = true;
		if (ev->tsc_end - ev->tsc_begin >= *longest_out) {
			*longest_out = ev->tsc_end - ev->tsc_begin;
			it->other_pid = ev->u.sched.other_pid;
			memcpy(it->other_comm, ev->u.sched.other_comm, 16);
			it->other_comm[16] = '\0';
		}
		break;
	case LATMON_EV_IRQ:
		note_irq(it, &ev->u.irq);
		break;
	case LATMON_EV_MIGRATE:
		it->migrated = true;
		break;
	}
}

/* Does event ev overlap the iteration [b, e) (its tid is checked already)? */
static bool event_applies(const struct latmon_event *ev, const struct lat_sample *s,
			  uint64_t b, uint64_t e)
{
	if (ev->tsc_begin == ev->tsc_end) {	/* instantaneous: [b, e] */
		if (ev->tsc_begin < b || ev->tsc_begin > e)
			return false;
	} else if (ev->tsc_begin >= e || ev->tsc_end <= b) {	/* [b, e) */
		return false;
	}
	if (ev->type == LATMON_EV_IRQ)
		return ev->cpu == s->cpu_begin || ev->cpu == s->cpu_end;
	return true;
}

/* Turn the active events that touch [b, e] into clipped boundary points. */
static int collect_points(struct join_ctx *c, const struct lat_sample *s,
			  struct join_iter *it, uint64_t b, uint64_t e, size_t *np)
{
	const struct latmon_event *evs = c->in->events;
	uint64_t longest = 0;
	size_t i, n = 0;
	int ret;

	ret = grow((void **)&c->pts, &c->cap_pts, 2 * c->n_active, sizeof(*c->pts));
	if (ret)
		return ret;
	for (i = 0; i < c->n_active; i++) {
		const struct latmon_event *ev = &evs[c->active[i]];
		uint64_t lo = ev->tsc_begin > b ? ev->tsc_begin : b;
		uint64_t hi = ev->tsc_end < e ? ev->tsc_end : e;

		if (!event_applies(ev, s, b, e))
			continue;
		note_event(it, ev, &longest);
		if (hi <= lo || c->lab[c->active[i]] == JOIN_MIGRATION)
			continue;
		c->pts[n++] = (struct point){ lo, c->lab[c->active[i]], 1 };
		c->pts[n++] = (struct point){ hi, c->lab[c->active[i]], -1 };
	}
	*np = n;
	return 0;
}

/* The highest-precedence label with an open event, or rest. */
static enum join_label top_label(const int *open, enum join_label rest)
{
	size_t i;

	for (i = 0; i < N_PRECEDENCE; i++)
		if (open[precedence[i]] > 0)
			return precedence[i];
	return rest;
}

/* Give every tick of [b, e) to one label; the sum is exactly e - b. */
static void sweep(struct point *p, size_t n, uint64_t b, uint64_t e,
		  enum join_label rest, uint64_t *ticks)
{
	int open[JOIN_NR_LABELS] = { 0 };
	uint64_t cur = b;
	size_t i;

	if (n > 2)	/* two points are one event: already in order */
		qsort(p, n, sizeof(*p), cmp_point);
	for (i = 0; i < n; i++) {
		if (p[i].t > cur) {
			ticks[top_label(open, rest)] += p[i].t - cur;
			cur = p[i].t;
		}
		open[p[i].label] += p[i].delta;
	}
	ticks[top_label(open, rest)] += e - cur;
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

/* The largest share; ties go to the more specific (earlier) label. */
static enum join_label primary_label(const struct join_iter *it, enum join_label rest)
{
	static const enum join_label order[] = {
		JOIN_INTERRUPT, JOIN_BLOCKED, JOIN_PREEMPTION, JOIN_THP_ZERO,
		JOIN_FAULT, JOIN_REALLOC, JOIN_MIGRATION, JOIN_UNEXPLAINED,
		JOIN_UNATTRIBUTED,
	};
	enum join_label best = rest;
	uint64_t max = 0;
	size_t i;

	if (it->incomplete)
		return JOIN_INCOMPLETE;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (it->ticks[order[i]] > max) {
			max = it->ticks[order[i]];
			best = order[i];
		}
	}
	return best;
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
		uint8_t l = c->lab[idx];

		if (c->seen[idx] || !event_applies(&evs[idx], s, b, e))
			continue;
		c->seen[idx] = 1;
		c->stats.used++;
		if (l == JOIN_MIGRATION)	/* instantaneous: no own duration */
			continue;
		ret = u64vec_push(&c->own[l], evs[idx].tsc_end - evs[idx].tsc_begin);
		if (ret)
			return ret;
	}
	return 0;
}

/* Join one slow iteration with the events around it. */
static int join_one(struct join_ctx *c, size_t pos, struct join_iter *it)
{
	const struct lat_sample *s = &c->in->samples[pos];
	uint64_t b = s->tsc_begin, e = s->tsc_end > b ? s->tsc_end : b;
	size_t np;
	int ret;

	memset(it, 0, sizeof(*it));
	it->index = c->in->index_base + pos;
	it->tsc_begin = b;
	it->duration = e - b;
	it->cpu_begin = s->cpu_begin;
	it->cpu_end = s->cpu_end;
	it->sample_flags = s->flags;
	it->migrated = s->cpu_begin != s->cpu_end;
	if (b < c->last_begin) {	/* out of time order: merge again from the start */
		c->next = c->n_active = c->next_win = c->n_win_active = 0;
		c->stats.rewinds++;
	}
	c->last_begin = b;
	ret = advance_events(c, b, e);
	if (ret)
		return ret;
	it->incomplete = check_windows(c, s, b, e, &it->lost);
	ret = collect_points(c, s, it, b, e, &np);
	if (ret)
		return ret;
	sweep(c->pts, np, b, e, rest_label(c->in, it), it->ticks);
	it->primary = primary_label(it, rest_label(c->in, it));
	if (it->incomplete) {
		c->stats.incomplete++;
		return 0;
	}
	return note_own(c, s, b, e);
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
		if (in->samples[i].tsc_end >= in->samples[i].tsc_begin &&
		    in->samples[i].tsc_end - in->samples[i].tsc_begin >= in->slow_ticks)
			(*n)++;
	return 0;
}

static bool is_slow(const struct join_input *in, size_t i)
{
	const struct lat_sample *s = &in->samples[i];

	return s->tsc_end >= s->tsc_begin && s->tsc_end - s->tsc_begin >= in->slow_ticks;
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

/* Add one iteration to the cause table counters. */
static int tally_iter(struct join_ctx *c, struct join_result *r, const struct join_iter *it)
{
	int l, ret = 0;

	r->slow_total += it->duration;
	r->causes[it->primary].n_primary++;
	if (it->incomplete) {
		r->causes[JOIN_INCOMPLETE].n_any++;
		r->causes[JOIN_INCOMPLETE].ticks += it->duration;
		return u64vec_push(&c->own[JOIN_INCOMPLETE], it->duration);
	}
	for (l = 0; l < JOIN_INCOMPLETE; l++) {
		if (it->ticks[l] || (l == JOIN_MIGRATION && it->migrated))
			r->causes[l].n_any++;
		r->causes[l].ticks += it->ticks[l];
		if (l >= JOIN_MIGRATION && it->ticks[l])
			ret = u64vec_push(&c->own[l], it->ticks[l]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Median (lower middle) and max of every label's own durations. */
static void own_stats(struct join_ctx *c, struct join_result *r)
{
	int l;

	for (l = 0; l < JOIN_NR_LABELS; l++) {
		struct u64vec *v = &c->own[l];

		r->causes[l].n_own = v->n;
		if (!v->n)
			continue;
		qsort(v->v, v->n, sizeof(*v->v), cmp_u64);
		r->causes[l].own_median = v->v[(v->n - 1) / 2];
		r->causes[l].own_max = v->v[v->n - 1];
	}
}

static void ctx_free(struct join_ctx *c)
{
	int l;

	free(c->order);
	free(c->lab);
	free(c->seen);
	free(c->active);
	free(c->win);
	free(c->win_active);
	free(c->pts);
	for (l = 0; l < JOIN_NR_LABELS; l++)
		free(c->own[l].v);
}

int join_run(const struct join_input *in, struct join_result *out)
{
	struct join_ctx c = { .in = in };
	size_t n, i;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = count_slow(in, &n);
	if (ret)
		return ret;
	out->iters = calloc(n ? n : 1, sizeof(*out->iters));
	ret = out->iters ? 0 : -ENOMEM;
	if (!ret)
		ret = index_events(&c);
	if (!ret)
		ret = build_windows(&c);
	if (!ret)
		ret = join_all(&c, out);
	for (i = 0; !ret && i < n; i++)
		ret = tally_iter(&c, out, &out->iters[i]);
	if (ret)
		goto out;
	own_stats(&c, out);
	out->n_iters = n;
	out->slow_ticks = in->slow ? 0 : in->slow_ticks;
	out->have_events = in->have_events;
	out->tsc_hz = in->tsc_hz;
	c.stats.events = in->n_events;
	out->stats = c.stats;
out:
	ctx_free(&c);
	if (ret)
		join_result_free(out);
	return ret;
}

void join_result_free(struct join_result *r)
{
	free(r->iters);
	r->iters = NULL;
	r->n_iters = 0;
}

/* ---------------------------------------------------------------------- */
/* JSON                                                                    */
/* ---------------------------------------------------------------------- */

static const char *irq_kind_name(uint32_t kind)
{
	static const char *const names[__LATMON_IRQ_MAX] = {
		[LATMON_IRQ_HARD] = "hardirq", [LATMON_IRQ_SOFT] = "softirq",
		[LATMON_IRQ_TIMER] = "timer", [LATMON_IRQ_IPI] = "ipi",
		[LATMON_IRQ_NMI] = "nmi",
	};

	return kind < __LATMON_IRQ_MAX && names[kind] ? names[kind] : "unknown";
}

/*
 * Per-iteration objects use constant keys (cJSON_AddItemToObjectCS): a run
 * may have hundreds of thousands of slow iterations, and copying every key
 * doubled the allocations.
 */
static bool put_item(cJSON *o, const char *key, cJSON *item)
{
	if (!item)
		return false;
	if (!cJSON_AddItemToObjectCS(o, key, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

static bool put_num(cJSON *o, const char *key, double v)
{
	return put_item(o, key, cJSON_CreateNumber(v));
}

/* A counter, present only when not zero (absent means 0). */
static bool put_count(cJSON *o, const char *key, double v)
{
	return !v || put_num(o, key, v);
}

/* {"label": value, ...} for the labels with a non-zero share. */
static cJSON *breakdown_json(const struct join_iter *it, double tsc_hz, bool ns)
{
	cJSON *o = cJSON_CreateObject();
	int l;

	for (l = 0; o && l < JOIN_INCOMPLETE; l++) {
		if (it->ticks[l] && !put_num(o, label_names[l], ns ?
					     join_ticks_to_ns(it->ticks[l], tsc_hz) :
					     (double)it->ticks[l])) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

static cJSON *addrs_json(const struct join_iter *it)
{
	cJSON *a = cJSON_CreateArray();
	char buf[24];
	uint32_t i;

	for (i = 0; a && i < it->n_addrs; i++) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)it->fault_addr[i]);
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(buf))) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

static cJSON *irqs_json(const struct join_iter *it)
{
	cJSON *a = cJSON_CreateArray();
	uint32_t i;

	for (i = 0; a && i < it->n_irq_kinds; i++) {
		const struct join_irq *q = &it->irq[i];
		cJSON *o = cJSON_CreateObject();

		if (!cJSON_AddItemToArray(a, o) ||
		    !put_item(o, "kind", cJSON_CreateStringReference(irq_kind_name(q->kind))) ||
		    !put_num(o, "number", q->number) ||
		    !put_item(o, "name", cJSON_CreateString(q->name)) ||
		    !put_num(o, "count", q->count)) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

/* Details, present only when there is something to say. */
static bool iter_detail_json(cJSON *o, const struct join_iter *it)
{
	cJSON *p;

	if (!put_count(o, "faults", it->n_faults) ||
	    (it->n_addrs && !put_item(o, "fault_addresses", addrs_json(it))) ||
	    !put_count(o, "thp_clears", it->n_thp_clears) ||
	    !put_count(o, "switches", it->n_switches) ||
	    !put_count(o, "irqs", it->n_irqs) ||
	    (it->n_irq_kinds && !put_item(o, "interrupts", irqs_json(it))) ||
	    (it->incomplete && !put_num(o, "lost_events", (double)it->lost)))
		return false;
	if (!it->n_switches)
		return true;
	p = cJSON_CreateObject();
	return put_item(o, "preempted_by", p) && put_num(p, "pid", it->other_pid) &&
	       put_item(p, "comm", cJSON_CreateString(it->other_comm));
}

static cJSON *iter_json(const struct join_iter *it, double tsc_hz)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !put_num(o, "index", (double)it->index) ||
	    !put_num(o, "tsc_begin", (double)it->tsc_begin) ||
	    !put_num(o, "duration_ticks", (double)it->duration) ||
	    !put_num(o, "duration_ns", join_ticks_to_ns(it->duration, tsc_hz)) ||
	    !put_num(o, "cpu_begin", it->cpu_begin) ||
	    !put_num(o, "cpu_end", it->cpu_end) ||
	    !put_item(o, "primary", cJSON_CreateStringReference(label_names[it->primary])) ||
	    !put_item(o, "incomplete", cJSON_CreateBool(it->incomplete)) ||
	    !put_item(o, "migrated", cJSON_CreateBool(it->migrated)) ||
	    !put_item(o, "realloc", cJSON_CreateBool(it->sample_flags & LAT_SAMPLE_F_REALLOC)) ||
	    !put_item(o, "thp", cJSON_CreateBool(it->thp)) ||
	    !put_item(o, "breakdown_ticks", breakdown_json(it, tsc_hz, false)) ||
	    !put_item(o, "breakdown_ns", breakdown_json(it, tsc_hz, true)) ||
	    !put_num(o, "events", it->n_events) || !iter_detail_json(o, it)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* *thr = the duration of the max-th slowest iteration (max < n_iters). */
static int nth_slowest(const struct join_result *r, size_t max, uint64_t *thr)
{
	uint64_t *d = malloc(r->n_iters * sizeof(*d));
	size_t i;

	if (!d)
		return -ENOMEM;
	for (i = 0; i < r->n_iters; i++)
		d[i] = r->iters[i].duration;
	qsort(d, r->n_iters, sizeof(*d), cmp_u64);
	*thr = d[r->n_iters - max];
	free(d);
	return 0;
}

cJSON *join_to_json_max(const struct join_result *r, size_t max)
{
	bool cap = max && max < r->n_iters;
	size_t i, above = 0, ties = 0;
	uint64_t thr = 0;
	cJSON *a;

	if (cap && nth_slowest(r, max, &thr))
		return NULL;
	for (i = 0; cap && i < r->n_iters; i++)
		above += r->iters[i].duration > thr;
	ties = cap ? max - above : 0;	/* how many at exactly thr fit */
	a = cJSON_CreateArray();
	for (i = 0; a && i < r->n_iters; i++) {
		const struct join_iter *it = &r->iters[i];

		if (cap && (it->duration < thr || (it->duration == thr && !ties--)))
			continue;
		if (!cJSON_AddItemToArray(a, iter_json(it, r->tsc_hz))) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

cJSON *join_to_json(const struct join_result *r)
{
	return join_to_json_max(r, 0);
}

/* One row of the cause table. */
static cJSON *cause_json(const struct join_result *r, int l)
{
	const struct join_cause *k = &r->causes[l];
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddStringToObject(o, "label", label_names[l]) ||
	    !cJSON_AddNumberToObject(o, "primary", (double)k->n_primary) ||
	    !cJSON_AddNumberToObject(o, "present", (double)k->n_any) ||
	    !cJSON_AddNumberToObject(o, "share", r->slow_total ?
				     (double)k->ticks / (double)r->slow_total : 0) ||
	    !cJSON_AddNumberToObject(o, "total_ns", join_ticks_to_ns(k->ticks, r->tsc_hz)) ||
	    !cJSON_AddStringToObject(o, "own", label_own[l]) ||
	    !cJSON_AddNumberToObject(o, "own_count", (double)k->n_own) ||
	    !cJSON_AddNumberToObject(o, "own_median_ns",
				     join_ticks_to_ns(k->own_median, r->tsc_hz)) ||
	    !cJSON_AddNumberToObject(o, "own_max_ns",
				     join_ticks_to_ns(k->own_max, r->tsc_hz))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Labels in the order of their share of the slow time, largest first. */
static void labels_by_share(const struct join_result *r, int *order)
{
	int i, j;

	for (i = 0; i < JOIN_NR_LABELS; i++)
		order[i] = i;
	for (i = 1; i < JOIN_NR_LABELS; i++)
		for (j = i; j > 0 &&
		     r->causes[order[j]].ticks > r->causes[order[j - 1]].ticks; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

static bool stats_json(cJSON *o, const struct join_stats *st)
{
	cJSON *e = cJSON_AddObjectToObject(o, "events");

	return e && cJSON_AddNumberToObject(e, "given", (double)st->events) &&
	       cJSON_AddNumberToObject(e, "used", (double)st->used) &&
	       cJSON_AddNumberToObject(e, "other_thread", (double)st->other_thread) &&
	       cJSON_AddNumberToObject(e, "bad", (double)st->bad) &&
	       cJSON_AddNumberToObject(e, "lost_records", (double)st->lost_records) &&
	       cJSON_AddNumberToObject(e, "lost_events", (double)st->lost_events) &&
	       cJSON_AddNumberToObject(e, "seq_gaps", (double)st->seq_gaps) &&
	       cJSON_AddNumberToObject(e, "incomplete_iterations", (double)st->incomplete);
}

cJSON *cause_table_to_json(const struct join_result *r)
{
	cJSON *o = cJSON_CreateObject(), *rows;
	int order[JOIN_NR_LABELS], i;

	if (!o || !cJSON_AddBoolToObject(o, "module", r->have_events) ||
	    !cJSON_AddNumberToObject(o, "slow_iterations", (double)r->n_iters) ||
	    !cJSON_AddNumberToObject(o, "slow_threshold_ns",
				     join_ticks_to_ns(r->slow_ticks, r->tsc_hz)) ||
	    !cJSON_AddNumberToObject(o, "slow_total_ns",
				     join_ticks_to_ns(r->slow_total, r->tsc_hz)) ||
	    !cJSON_AddNumberToObject(o, "slow_total_ticks", (double)r->slow_total) ||
	    !(rows = cJSON_AddArrayToObject(o, "causes")) || !stats_json(o, &r->stats))
		goto fail;
	labels_by_share(r, order);
	for (i = 0; i < JOIN_NR_LABELS; i++) {
		if (!r->causes[order[i]].n_any && !r->causes[order[i]].n_primary)
			continue;
		if (!cJSON_AddItemToArray(rows, cause_json(r, order[i])))
			goto fail;
	}
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Text, rendered from the JSON objects                                    */
/* ---------------------------------------------------------------------- */

/* "812 ns", "3.4 us", "1.25 ms", "2.00 s" */
static const char *fmt_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

/* "fault~" for a label whose times the backend estimated. */
static const char *mark_label(const char *label, bool estimated, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", label, estimated ? "~" : "");
	return buf;
}

static void print_cause_row(const cJSON *row, FILE *out)
{
	char med[24], max[24], own[64], label[24];

	snprintf(own, sizeof(own), "%s %s / %s", lat_json_str(row, "own"),
		 fmt_ns(lat_json_num(row, "own_median_ns"), med, sizeof(med)),
		 fmt_ns(lat_json_num(row, "own_max_ns"), max, sizeof(max)));
	fprintf(out, "  %-13s %8.0f %8.0f %8.1f%%   %s\n",
		mark_label(lat_json_str(row, "label"),
			   cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "estimated")),
			   label, sizeof(label)),
		lat_json_num(row, "primary"), lat_json_num(row, "present"), 100 * lat_json_num(row, "share"),
		lat_json_num(row, "own_count") ? own : "-");
}

static void print_event_stats(const cJSON *causes, FILE *out)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(causes, "events");

	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(causes, "module"))) {
		fprintf(out, "No kernel events (latmon was not recording): only migration and realloc\n"
			"can be named; the rest of each slow iteration is unattributed.\n");
		return;
	}
	fprintf(out, "Kernel events: %.0f recorded, %.0f inside slow iterations, "
		"%.0f of other threads, %.0f malformed.\n", lat_json_num(e, "given"), lat_json_num(e, "used"),
		lat_json_num(e, "other_thread"), lat_json_num(e, "bad"));
	if (lat_json_num(e, "lost_events") || lat_json_num(e, "lost_records"))
		fprintf(out, "LOST: %.0f events dropped (%.0f lost records); %.0f slow "
			"iterations overlap them and are labelled incomplete.\n",
			lat_json_num(e, "lost_events"), lat_json_num(e, "lost_records"),
			lat_json_num(e, "incomplete_iterations"));
	if (lat_json_num(e, "seq_gaps"))
		fprintf(out, "BUG: %.0f holes in latmon's record numbers (counted as lost); "
			"please report it with the JSON file.\n", lat_json_num(e, "seq_gaps"));
	if (!lat_json_num(e, "lost_events") && !lat_json_num(e, "lost_records"))
		fprintf(out, "No event was lost.\n");
}

static void print_causes(const cJSON *causes, FILE *out)
{
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(causes, "causes"), *row;
	char total[24], thr[24];

	fprintf(out, "Causes of the %.0f slow iterations", lat_json_num(causes, "slow_iterations"));
	if (lat_json_num(causes, "slow_threshold_ns") > 0)
		fprintf(out, " (>= %s)", fmt_ns(lat_json_num(causes, "slow_threshold_ns"), thr, sizeof(thr)));
	fprintf(out, ", %s in total:\n",
		fmt_ns(lat_json_num(causes, "slow_total_ns"), total, sizeof(total)));
	fprintf(out, "  %-13s %8s %8s %9s   %s\n", "cause", "primary", "present",
		"share", "own duration: median / max");
	cJSON_ArrayForEach(row, rows)
		print_cause_row(row, out);
	fprintf(out, "  primary: the largest part of an iteration; present: any part of it;\n"
		"  share: of the total slow time, each tick counted once (innermost cause).\n");
	print_event_stats(causes, out);
}

struct iter_key {
	double ticks;
	const cJSON *it;
};

static int cmp_iter_desc(const void *a, const void *b)
{
	double x = ((const struct iter_key *)a)->ticks;
	double y = ((const struct iter_key *)b)->ticks;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The JSON array of strings list holds s. */
static bool is_listed(const cJSON *list, const char *s)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, list)
		if (cJSON_IsString(e) && !strcmp(e->valuestring, s))
			return true;
	return false;
}

/* "thp-zero 97%, fault 2%, unexplained <1%": the breakdown, largest first;
 * estimated labels marked "~". */
static void print_breakdown(const cJSON *it, FILE *out)
{
	const cJSON *bd = cJSON_GetObjectItemCaseSensitive(it, "breakdown_ticks"), *l;
	const cJSON *est = cJSON_GetObjectItemCaseSensitive(it, "estimated_labels");
	const cJSON *v[JOIN_NR_LABELS];
	double d = lat_json_num(it, "duration_ticks");
	int n = 0, i, j;

	cJSON_ArrayForEach(l, bd) {
		if (n == JOIN_NR_LABELS || !cJSON_IsNumber(l))
			continue;
		for (j = n++; j > 0 && v[j - 1]->valuedouble < l->valuedouble; j--)
			v[j] = v[j - 1];
		v[j] = l;
	}
	for (i = 0; i < n; i++) {
		double pct = d > 0 ? 100 * v[i]->valuedouble / d : 0;
		char label[24];

		fprintf(out, pct < 0.5 ? "%s%s <1%%" : "%s%s %.0f%%", i ? ", " : "",
			mark_label(v[i]->string, is_listed(est, v[i]->string), label, sizeof(label)),
			pct);
	}
	fputc('\n', out);
}

/* Second line: fault addresses, THP, interrupts, the preempting task. */
/* Begin one part of a detail line: the indentation first, then "; ". */
static void detail_part(FILE *out, int *parts)
{
	fputs((*parts)++ ? "; " : "                        ", out);
}

/* The task that ran while the thread was switched out: "pid 53 (kworker/1:2)". */
static void print_preempter(const cJSON *p, FILE *out)
{
	const char *comm = lat_json_str(p, "comm");

	if (lat_json_num(p, "pid") == 0 && (!*comm || !strcmp(comm, "?")))
		fputs("switched out (the idle task or an unnamed one ran)", out);
	else
		fprintf(out, "switched out for pid %.0f (%s)", lat_json_num(p, "pid"), comm);
}

/* The details line of one iteration; nothing when there is nothing to say. */
static void print_detail(const cJSON *it, FILE *out)
{
	const cJSON *a, *x, *p = cJSON_GetObjectItemCaseSensitive(it, "preempted_by");
	int parts = 0;

	if (lat_json_num(it, "faults")) {
		detail_part(out, &parts);
		fprintf(out, "%.0f fault(s)", lat_json_num(it, "faults"));
		a = cJSON_GetObjectItemCaseSensitive(it, "fault_addresses");
		cJSON_ArrayForEach(x, a)
			fprintf(out, "%s%s", x == a->child ? " at " : " ",
				cJSON_IsString(x) ? x->valuestring : "?");
	}
	if (lat_json_num(it, "faults") || lat_json_num(it, "thp_clears")) {
		detail_part(out, &parts);
		fprintf(out, "THP %s",
			cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "thp")) ? "yes" : "no");
	}
	a = cJSON_GetObjectItemCaseSensitive(it, "interrupts");
	cJSON_ArrayForEach(x, a) {
		if (x == a->child)
			detail_part(out, &parts);
		fprintf(out, "%s%s %s x%.0f", x == a->child ? "interrupts: " : ", ",
			lat_json_str(x, "kind"), lat_json_str(x, "name"), lat_json_num(x, "count"));
	}
	if (p) {
		detail_part(out, &parts);
		print_preempter(p, out);
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "migrated"))) {
		detail_part(out, &parts);
		fputs("moved to another CPU", out);
	}
	if (lat_json_num(it, "lost_events")) {
		detail_part(out, &parts);
		fprintf(out, "%.0f events lost around it", lat_json_num(it, "lost_events"));
	}
	if (parts)
		fputc('\n', out);
}

/* One line per iteration, and one more with its details. */
static void print_iter(const cJSON *it, FILE *out)
{
	char d[24];

	fprintf(out, "  %10.0f %10s  cpu %.0f", lat_json_num(it, "index"),
		fmt_ns(lat_json_num(it, "duration_ns"), d, sizeof(d)), lat_json_num(it, "cpu_begin"));
	if (lat_json_num(it, "cpu_end") != lat_json_num(it, "cpu_begin"))
		fprintf(out, "->%.0f", lat_json_num(it, "cpu_end"));
	fprintf(out, "  %s%s: ", lat_json_str(it, "primary"),
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "incomplete")) ?
		" (events lost: breakdown not trusted)" : "");
	print_breakdown(it, out);
	print_detail(it, out);
}

static void print_slowest(const cJSON *iters, FILE *out)
{
	int n = cJSON_GetArraySize(iters), i = 0;
	struct iter_key *v = malloc((n ? n : 1) * sizeof(*v));
	const cJSON *it;

	if (!v) {
		fprintf(out, "(out of memory listing the slowest iterations)\n");
		return;
	}
	cJSON_ArrayForEach(it, iters)
		v[i++] = (struct iter_key){ lat_json_num(it, "duration_ticks"), it };
	qsort(v, n, sizeof(*v), cmp_iter_desc);
	fprintf(out, "The %d slowest iterations (index, time, CPU, primary cause: breakdown):\n",
		n < 10 ? n : 10);
	for (i = 0; i < n && i < 10; i++)
		print_iter(v[i].it, out);
	free(v);
}

void join_print(const cJSON *causes, const cJSON *iters, FILE *out)
{
	if (causes)
		print_causes(causes, out);
	if (iters && cJSON_GetArraySize(iters) > 0)
		print_slowest(iters, out);
}
