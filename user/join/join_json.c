// SPDX-License-Identifier: MIT
/* The join's result as JSON: the slow iterations and the cause table. */
#include <errno.h>
#include <stdlib.h>

#include "events/evtype.h"
#include "join/join_int.h"
#include "lib/json.h"

/* {"label": value, ...} for the labels with a non-zero share. */
static cJSON *breakdown_json(const struct join_iter *it, double tsc_hz, bool ns)
{
	cJSON *o = cJSON_CreateObject();
	int l;

	for (l = 0; o && l < JOIN_INCOMPLETE; l++) {
		if (it->ticks[l] && !lat_json_put_num(o, join_label_name(l), ns ?
						      join_ticks_to_ns(it->ticks[l], tsc_hz) :
						      (double)it->ticks[l])) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

/* The object of label into in o ({"allocator": x, ...}), made if new. */
static cJSON *parts_of(cJSON *o, enum join_label into)
{
	const char *name = join_label_name(into);
	cJSON *p = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!p && !lat_json_put(o, name, p = cJSON_CreateObject()))
		return NULL;
	return p;
}

/*
 * {"thp-zero": {"allocator": ticks, "clear": ticks}}: the parts of the
 * labels that have them (non-zero ones), or NULL if none. In ns with tsc_hz
 * > 0 and a cause table's totals (r), else an iteration's ticks.
 */
static cJSON *parts_json(const uint64_t *ticks, double tsc_hz)
{
	const struct join_label_desc *d;
	cJSON *o = NULL, *p;
	int l;

	for (l = 0; l < JOIN_INCOMPLETE; l++) {
		d = join_label_desc(l);
		if (!d || !d->part || !ticks[l])
			continue;
		if (!o && !(o = cJSON_CreateObject()))
			return NULL;
		p = parts_of(o, d->into);
		if (!p || !lat_json_put_num(p, d->part, tsc_hz > 0 ?
					    join_ticks_to_ns(ticks[l], tsc_hz) : (double)ticks[l])) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

/* "parts_ticks" of an iteration when it has parts. */
static bool iter_parts_json(cJSON *o, const struct join_iter *it)
{
	cJSON *p = parts_json(it->parts, 0);

	return !p || lat_json_put(o, "parts_ticks", p);
}

/* Per record type its count and its details, present only when not zero. */
static bool iter_detail_json(cJSON *o, const struct join_iter *it)
{
	size_t i;

	for (i = 0; i < lat_n_evtypes; i++) {
		const struct lat_evtype *t = lat_evtypes[i];

		if (t->json && !lat_json_put_count(o, t->json, it->n_type[t->type]))
			return false;
		if (t->to_json && !t->to_json(o, it))
			return false;
	}
	return !it->incomplete || lat_json_put_num(o, "lost_events", (double)it->lost);
}

/* stream, its own index, pid, tid and comm (null where not known). */
static bool who_json(cJSON *o, const struct join_iter *it)
{
	return lat_json_put_num(o, "stream", it->stream) &&
	       lat_json_put_num(o, "stream_index", (double)it->stream_index) &&
	       lat_json_put(o, "pid", it->pid ? cJSON_CreateNumber(it->pid) : cJSON_CreateNull()) &&
	       lat_json_put(o, "tid", it->tid ? cJSON_CreateNumber(it->tid) : cJSON_CreateNull()) &&
	       lat_json_put(o, "comm", it->comm[0] ? cJSON_CreateString(it->comm) : cJSON_CreateNull());
}

/* A TSC time as ns from the iteration's begin (before it: negative). */
static double rel_ns(uint64_t t, uint64_t begin, double tsc_hz)
{
	return t >= begin ? join_ticks_to_ns(t - begin, tsc_hz) :
			    -join_ticks_to_ns(begin - t, tsc_hz);
}

/* "spans": each kernel event inside the iteration, as recorded. */
static bool spans_json(cJSON *o, const struct join_iter *it, double tsc_hz)
{
	cJSON *a = cJSON_AddArrayToObject(o, "spans"), *s;
	const struct join_span *sp;
	const struct lat_evtype *t;
	uint32_t i;

	for (i = 0; a && i < it->n_spans; i++) {
		sp = &it->spans[i];
		t = lat_evtype(sp->type);
		s = cJSON_CreateObject();
		if (!s || !cJSON_AddItemToArray(a, s)) {
			cJSON_Delete(s);
			return false;
		}
		if (!lat_json_put(s, "type", cJSON_CreateString(t ? t->name : "?")) ||
		    !lat_json_put(s, "label",
				  cJSON_CreateStringReference(join_label_name(sp->label))) ||
		    !lat_json_put_num(s, "begin_ns", rel_ns(sp->begin, it->tsc_begin, tsc_hz)) ||
		    !lat_json_put_num(s, "end_ns", rel_ns(sp->end, it->tsc_begin, tsc_hz)) ||
		    !lat_json_put_num(s, "cpu", sp->cpu))
			return false;
	}
	return a && lat_json_put_num(o, "spans_dropped", it->spans_dropped);
}

static cJSON *iter_json(const struct join_iter *it, double tsc_hz)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !lat_json_put_num(o, "index", (double)it->index) || !who_json(o, it) ||
	    !lat_json_put_num(o, "tsc_begin", (double)it->tsc_begin) ||
	    !lat_json_put_num(o, "duration_ticks", (double)it->duration) ||
	    !lat_json_put_num(o, "duration_ns", join_ticks_to_ns(it->duration, tsc_hz)) ||
	    !lat_json_put_num(o, "cpu_begin", it->cpu_begin) ||
	    !lat_json_put_num(o, "cpu_end", it->cpu_end) ||
	    !lat_json_put(o, "primary",
			  cJSON_CreateStringReference(join_label_name(it->primary))) ||
	    !lat_json_put(o, "incomplete", cJSON_CreateBool(it->incomplete)) ||
	    !lat_json_put(o, "migrated", cJSON_CreateBool(it->migrated)) ||
	    !lat_json_put(o, "realloc",
			  cJSON_CreateBool(it->sample_flags & LAT_SAMPLE_F_REALLOC)) ||
	    !lat_json_put(o, "thp", cJSON_CreateBool(it->thp)) ||
	    !lat_json_put(o, "breakdown_ticks", breakdown_json(it, tsc_hz, false)) ||
	    !lat_json_put(o, "breakdown_ns", breakdown_json(it, tsc_hz, true)) ||
	    !lat_json_put_num(o, "events", it->n_events) || !iter_parts_json(o, it) ||
	    !iter_detail_json(o, it) || !spans_json(o, it, tsc_hz)) {
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
	qsort(d, r->n_iters, sizeof(*d), join_cmp_u64);
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

/* A label with parts: "parts_ns" {"allocator": ns, ...} and "twice". */
static bool cause_parts_json(cJSON *o, const struct join_result *r, int l)
{
	uint64_t ticks[JOIN_NR_LABELS] = { 0 };
	const struct join_label_desc *d;
	cJSON *all, *mine;
	int p;

	for (p = 0; p < JOIN_INCOMPLETE; p++) {
		d = join_label_desc(p);
		if (d && d->part && (int)d->into == l)
			ticks[p] = r->causes[p].part_ticks;
	}
	all = parts_json(ticks, r->tsc_hz);
	if (!all)
		return true;
	mine = cJSON_DetachItemFromObjectCaseSensitive(all, join_label_name(l));
	cJSON_Delete(all);
	d = join_label_desc(l);
	return lat_json_put(o, "parts_ns", mine) &&
	       lat_json_put_num(o, "twice", (double)r->causes[l].n_twice) &&
	       (!r->causes[l].n_twice || !d->twice ||
		lat_json_put(o, "twice_note", cJSON_CreateStringReference(d->twice)));
}

/* One row of the cause table. */
static cJSON *cause_json(const struct join_result *r, int l)
{
	const struct join_cause *k = &r->causes[l];
	cJSON *o = cJSON_CreateObject();

	if (!o || !lat_json_put(o, "label", cJSON_CreateStringReference(join_label_name(l))) ||
	    !lat_json_put_num(o, "primary", (double)k->n_primary) ||
	    !lat_json_put_num(o, "present", (double)k->n_any) ||
	    !lat_json_put_num(o, "share", r->slow_total ?
			      (double)k->ticks / (double)r->slow_total : 0) ||
	    !lat_json_put_num(o, "total_ns", join_ticks_to_ns(k->ticks, r->tsc_hz)) ||
	    !lat_json_put(o, "own", cJSON_CreateStringReference(join_label_own(l))) ||
	    !lat_json_put_num(o, "own_count", (double)k->n_own) ||
	    !lat_json_put_num(o, "own_median_ns", join_ticks_to_ns(k->own_median, r->tsc_hz)) ||
	    !lat_json_put_num(o, "own_max_ns", join_ticks_to_ns(k->own_max, r->tsc_hz)) ||
	    !cause_parts_json(o, r, l)) {
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

static bool stats_json(cJSON *o, const struct join_stats *st, double tsc_hz)
{
	cJSON *e = cJSON_CreateObject();

	return lat_json_put(o, "events", e) && lat_json_put_num(e, "given", (double)st->events) &&
	       lat_json_put_num(e, "used", (double)st->used) &&
	       lat_json_put_num(e, "other_thread", (double)st->other_thread) &&
	       lat_json_put_num(e, "bad", (double)st->bad) &&
	       lat_json_put_num(e, "lost_records", (double)st->lost_records) &&
	       lat_json_put_num(e, "lost_events", (double)st->lost_events) &&
	       lat_json_put_num(e, "seq_gaps", (double)st->seq_gaps) &&
	       lat_json_put_num(e, "incomplete_iterations", (double)st->incomplete) &&
	       lat_json_put_num(e, "steal_ns", join_ticks_to_ns(st->steal, tsc_hz)) &&
	       lat_json_put_num(e, "steal_in_slow_ns", join_ticks_to_ns(st->steal_placed, tsc_hz));
}

/* The cause rows with something to say, by share. */
static cJSON *cause_rows(const struct join_result *r)
{
	cJSON *rows = cJSON_CreateArray();
	int order[JOIN_NR_LABELS], i;

	labels_by_share(r, order);
	for (i = 0; rows && i < JOIN_NR_LABELS; i++) {
		if (!r->causes[order[i]].n_any && !r->causes[order[i]].n_primary)
			continue;
		if (!cJSON_AddItemToArray(rows, cause_json(r, order[i]))) {
			cJSON_Delete(rows);
			return NULL;
		}
	}
	return rows;
}

cJSON *cause_table_to_json(const struct join_result *r)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !lat_json_put(o, "module", cJSON_CreateBool(r->have_events)) ||
	    !lat_json_put_num(o, "slow_iterations", (double)r->n_iters) ||
	    !lat_json_put_num(o, "slow_threshold_ns", join_ticks_to_ns(r->slow_ticks, r->tsc_hz)) ||
	    !lat_json_put_num(o, "slow_total_ns", join_ticks_to_ns(r->slow_total, r->tsc_hz)) ||
	    !lat_json_put_num(o, "slow_total_ticks", (double)r->slow_total) ||
	    !lat_json_put(o, "causes", cause_rows(r)) || !stats_json(o, &r->stats, r->tsc_hz)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}
