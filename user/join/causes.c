// SPDX-License-Identifier: MIT
/*
 * Join each stream of samples with latmon's events and merge the results
 * (see causes.h). With one stream (grow, chase, request) the merged result
 * is the join's own; with several, counts and times add up and the median
 * of a cause's own durations is the median of the streams' medians weighted
 * by how many durations each had.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "join/causes.h"
#include "join/edges.h"
#include "join/faults.h"
#include "events/evtype.h"
#include "join/join.h"

struct own_med {
	uint64_t median, n;
};

struct merge {
	struct join_result acc;
	struct own_med *med;		/* [label * n_streams + stream] */
	size_t n_streams;
	bool no_stretch;  /* join without the probe's stretches */
	uint64_t refused; /* stretches over the limit, then */
	uint64_t limit;	  /* stretch_limit of the first join */
};

/* Fault events of thread tid that getrusage counts (not retried, not failed). */
static uint64_t fault_events_of(const struct latmon_event *ev, size_t n, uint32_t tid)
{
	uint64_t count = 0;

	for (size_t i = 0; i < n; i++)
		count += ev[i].type == LATMON_EV_FAULT && ev[i].tid == tid &&
			 !(ev[i].u.fault.flags & (LATMON_FAULT_F_RETRY | LATMON_FAULT_F_ERROR |
						  LATMON_FAULT_F_MAJOR));
	return count;
}

static cJSON *stream_faults_json(const struct lat_run *run, const struct latmon_event *ev,
			      size_t n_events, size_t streams)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t k = 0; a && k < streams; k++) {
		cJSON *o = cJSON_CreateObject();
		uint32_t tid = lat_run_tid(run, k);

		if (!cJSON_AddItemToArray(a, o))
			break;
		cJSON_AddNumberToObject(o, "tid", tid);
		cJSON_AddNumberToObject(o, "fault_events",
					tid ? (double)fault_events_of(ev, n_events, tid) : 0);
	}
	return a;
}


/* How many streams the samples hold. */
static size_t count_streams(const struct lat_run *run)
{
	size_t i, n = 1;

	for (i = 1; i < run->n; i++)
		n += !!(run->samples[i].flags & LAT_SAMPLE_F_NEWSTREAM);
	return n;
}

/* The run's median iteration in ticks. */
static uint64_t typical_ticks(const struct lat_causes_in *in)
{
	return (uint64_t)(in->typical_ns * in->run->tsc_hz / 1e9);
}

/* The probe's shortest gap in ticks where it showed idle gaps no guest
 * event explains and the stretches are not refused, else 0. */
static uint64_t stretch_ticks(const struct lat_causes_in *in, const struct merge *m)
{
	if (!(in->hv_noise_per_s > 0) || m->no_stretch)
		return 0;
	return (uint64_t)(in->hv_gap_ns * in->run->tsc_hz / 1e9);
}

/* How many stretches the probe's gaps explain in this run: twice its idle
 * gaps a second over the time the threads ran in the loop (the slow
 * iterations' preemption, blocked and steal left out), and 3 more. */
static uint64_t stretch_limit(const struct lat_causes_in *in, const struct join_result *r)
{
	static const int off[] = { JOIN_PREEMPTION, JOIN_BLOCKED, JOIN_STEAL };
	const struct lat_run *run = in->run;
	uint64_t ticks = 0;
	size_t i;

	for (i = 0; i < run->n; i++)
		if (run->samples[i].tsc_end > run->samples[i].tsc_begin)
			ticks += run->samples[i].tsc_end - run->samples[i].tsc_begin;
	for (i = 0; i < sizeof(off) / sizeof(off[0]); i++)
		ticks -= r->causes[off[i]].ticks < ticks ? r->causes[off[i]].ticks : ticks;
	return (uint64_t)(2 * in->hv_noise_per_s * (double)ticks / run->tsc_hz) + 3;
}

/* Join samples [first, end) of thread tid (0: not ours, no events). */
static int join_stream(const struct lat_causes_in *in, const struct merge *m, size_t first,
		       size_t end, uint32_t tid, uint64_t slow_ticks, struct join_result *r)
{
	bool ev = in->have_events && tid;
	struct join_input ji = {
		.samples = in->run->samples + first,
		.n_samples = end - first,
		.index_base = first,
		.slow_ticks = slow_ticks,
		.tid = tid,
		.events = ev ? in->events : NULL,
		.n_events = ev ? in->n_events : 0,
		.have_events = ev,
		.tsc_hz = in->run->tsc_hz,
		.hypervisor = in->hypervisor,
		.hv_stretch = stretch_ticks(in, m),
		.hv_typical = typical_ticks(in),
	};

	return join_run(&ji, r);
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Event statistics: per-stream counts add, counts of the whole stream do not. */
static void merge_stats(struct join_stats *a, const struct join_stats *p)
{
	a->events = max64(a->events, p->events);
	a->used += p->used;
	a->bad = max64(a->bad, p->bad);
	a->lost_records = max64(a->lost_records, p->lost_records);
	a->lost_events = max64(a->lost_events, p->lost_events);
	a->seq_gaps = max64(a->seq_gaps, p->seq_gaps);
	a->incomplete += p->incomplete;
	a->rewinds += p->rewinds;
	a->steal += p->steal;
	a->steal_placed += p->steal_placed;
	a->hv_stretches += p->hv_stretches;
}

/* Who ran stream k (which starts at sample first), in each of its
 * iterations. */
static void name_stream(struct join_iter *it, size_t n, const struct lat_run *run, size_t k,
			size_t first)
{
	static const struct lat_stream none;
	const struct lat_stream *s = k < run->n_streams ? &run->streams[k] : &none;

	for (size_t i = 0; i < n; i++) {
		it[i].stream = (uint32_t)k;
		it[i].stream_index = it[i].index - first;
		it[i].tid = s->tid;
		it[i].pid = s->pid;
		snprintf(it[i].comm, sizeof(it[i].comm), "%s", s->comm);
	}
}

/* Append stream k's result (from sample first) to the merged one. */
static int merge_one(struct merge *m, const struct lat_run *run, size_t k, size_t first,
		     struct join_result *p)
{
	struct join_result *a = &m->acc;
	struct join_iter *it;
	int l;

	it = realloc(a->iters, (a->n_iters + p->n_iters + 1) * sizeof(*it));
	if (!it)
		return -ENOMEM;
	a->iters = it;
	memcpy(a->iters + a->n_iters, p->iters, p->n_iters * sizeof(*it));
	for (l = 0; (size_t)l < p->n_iters; l++) /* their spans are a's now */
		p->iters[l].spans = NULL;
	name_stream(a->iters + a->n_iters, p->n_iters, run, k, first);
	a->n_iters += p->n_iters;
	for (l = 0; l < JOIN_NR_LABELS; l++) {
		struct join_cause *c = &a->causes[l];
		const struct join_cause *q = &p->causes[l];

		c->n_primary += q->n_primary;
		c->n_any += q->n_any;
		c->ticks += q->ticks;
		c->n_own += q->n_own;
		c->own_max = max64(c->own_max, q->own_max);
		c->part_ticks += q->part_ticks;
		c->n_twice += q->n_twice;
		m->med[l * m->n_streams + k] = (struct own_med){ q->own_median, q->n_own };
	}
	a->slow_total += p->slow_total;
	a->slow_ticks = p->slow_ticks;
	a->have_events |= p->have_events;
	a->tsc_hz = p->tsc_hz;
	merge_stats(&a->stats, &p->stats);
	return 0;
}

static int cmp_med(const void *x, const void *y)
{
	const struct own_med *a = x, *b = y;

	return a->median < b->median ? -1 : a->median > b->median;
}

/* Median of the streams' medians, each weighted by its number of durations. */
static uint64_t weighted_median(struct own_med *v, size_t n)
{
	uint64_t total = 0, seen = 0;
	size_t i;

	for (i = 0; i < n; i++)
		total += v[i].n;
	qsort(v, n, sizeof(*v), cmp_med);
	for (i = 0; i < n; i++) {
		seen += v[i].n;
		if (total && 2 * seen >= total)
			return v[i].median;
	}
	return 0;
}

/* Join every stream into m->acc. */
static int join_streams(const struct lat_causes_in *in, uint64_t slow_ticks, struct merge *m)
{
	const struct lat_run *run = in->run;
	struct join_result part;
	size_t first = 0, i, k = 0;
	int ret = 0, l;

	for (i = 1; !ret && i <= run->n; i++) {
		if (i < run->n && !(run->samples[i].flags & LAT_SAMPLE_F_NEWSTREAM))
			continue;
		ret = join_stream(in, m, first, i, lat_run_tid(run, k), slow_ticks, &part);
		if (!ret)
			ret = merge_one(m, run, k, first, &part);
		join_result_free(&part);
		first = i;
		k++;
	}
	for (l = 0; !ret && l < JOIN_NR_LABELS; l++)
		m->acc.causes[l].own_median = weighted_median(m->med + l * m->n_streams,
							      m->n_streams);
	return ret;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* The joined threads' tids, sorted, zeros left out; count in *n. */
static uint32_t *joined_tids(const struct lat_run *run, size_t streams, size_t *n)
{
	uint32_t *t = malloc((streams + 1) * sizeof(*t));
	size_t k;

	*n = 0;
	for (k = 0; t && k < streams; k++)
		if (lat_run_tid(run, k))
			t[(*n)++] = lat_run_tid(run, k);
	if (t)
		qsort(t, *n, sizeof(*t), cmp_u32);
	return t;
}

/* Records of other threads (the reader, the workload's helpers), and the
 * faults inside the counters' window: of the process and of joined threads. */
static void count_events(const struct lat_causes_in *in, const uint32_t *tids, size_t n_tids,
			 uint64_t *other, uint64_t *faults_all, uint64_t *faults_joined)
{
	const uint32_t pid = (uint32_t)getpid();
	size_t i;

	*other = *faults_all = *faults_joined = 0;
	for (i = 0; in->have_events && i < in->n_events; i++) {
		const struct latmon_event *e = &in->events[i];
		const struct lat_evtype *t = lat_evtype(e->type);
		bool ours = bsearch(&e->tid, tids, n_tids, sizeof(*tids), cmp_u32);

		if (!t || (t->flags & LAT_EVT_LOST))
			continue;
		*other += !ours && !((t->flags & LAT_EVT_ANY_TID) && e->tid == 0);
		if (e->type != LATMON_EV_FAULT || e->pid != pid ||
		    (e->u.fault.flags & (LATMON_FAULT_F_RETRY | LATMON_FAULT_F_ERROR)) ||
		    e->tsc_begin < in->tsc_before || e->tsc_end > in->tsc_after)
			continue;
		(*faults_all)++;
		*faults_joined += ours;
	}
}

/* More stretches than the probe's gaps explain: join without them, and
 * say how many were refused. */
static int join_again(const struct lat_causes_in *in, uint64_t slow_ticks, struct merge *m)
{
	uint64_t refused = m->acc.stats.hv_stretches;

	join_result_free(&m->acc);
	memset(&m->acc, 0, sizeof(m->acc));
	memset(m->med, 0, m->n_streams * JOIN_NR_LABELS * sizeof(*m->med));
	m->no_stretch = true;
	m->refused = refused;
	return join_streams(in, slow_ticks, m);
}

/* "hypervisor_stretches": what the probe's idle gaps named in this run. */
static cJSON *stretches_json(const struct lat_causes_in *in, const struct merge *m)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "gap_min_ns", in->hv_gap_ns);
	cJSON_AddNumberToObject(o, "typical_ns", in->typical_ns);
	cJSON_AddNumberToObject(o, "probe_gaps_per_s", in->hv_noise_per_s);
	cJSON_AddNumberToObject(o, "limit", (double)m->limit);
	cJSON_AddNumberToObject(o, "named", (double)m->acc.stats.hv_stretches);
	cJSON_AddNumberToObject(o, "refused", (double)m->refused);
	return o;
}

/* The "causes" object: the join's cause table plus our own counts. */
static cJSON *causes_json(const struct lat_causes_in *in, struct merge *m, size_t streams)
{
	uint64_t other, all, joined;
	size_t n_tids, joined_streams = 0, k;
	uint32_t *tids = joined_tids(in->run, streams, &n_tids);
	struct lat_fault_scope scope;
	cJSON *o, *times, *kinds;

	if (!tids)
		return NULL;
	count_events(in, tids, n_tids, &other, &all, &joined);
	scope = (struct lat_fault_scope){ in->have_events ? in->events : NULL,
					  in->n_events,
					  tids,
					  n_tids,
					  in->tsc_before,
					  in->tsc_after,
					  in->run->tsc_hz };
	times = lat_fault_times_json(&scope);
	kinds = lat_fault_kinds_json(&scope);
	free(tids);
	if (in->have_events) {		/* recorded, even if no stream was ours */
		m->acc.have_events = true;
		m->acc.stats.events = in->n_events;
		m->acc.stats.other_thread = other;
	}
	o = cause_table_to_json(&m->acc);
	for (k = 0; k < streams; k++)
		joined_streams += in->have_events && lat_run_tid(in->run, k);
	if (o) {
		cJSON_AddNumberToObject(o, "streams", (double)streams);
		cJSON_AddNumberToObject(o, "streams_joined", (double)joined_streams);
		cJSON_AddNumberToObject(o, "faults_in_loop", (double)all);
		cJSON_AddNumberToObject(o, "faults_in_loop_joined", (double)joined);
		cJSON_AddItemToObject(o, "stream_faults", stream_faults_json(in->run,
				      in->have_events ? in->events : NULL,
				      in->have_events ? in->n_events : 0, streams));
		cJSON_AddItemToObject(o, "fault_ns", times);
		cJSON_AddItemToObject(o, "fault_kinds", kinds);
		if (in->hv_noise_per_s > 0 && in->have_events)
			cJSON_AddItemToObject(o, "hypervisor_stretches", stretches_json(in, m));
		if (in->have_events)
			cJSON_AddItemToObject(o, "fault_edges",
					      lat_fault_edges_json(&m->acc, typical_ticks(in)) ?:
						      cJSON_CreateNull());
	} else {
		cJSON_Delete(times);
		cJSON_Delete(kinds);
	}
	return o;
}

static cJSON *slow_json(const struct lat_causes_in *in, const struct join_result *r, bool at_max)
{
	cJSON *j = cJSON_CreateObject();
	size_t listed = r->n_iters < LAT_MAX_SLOW_LISTED ? r->n_iters : LAT_MAX_SLOW_LISTED;
	cJSON *list = join_to_json_max(r, LAT_MAX_SLOW_LISTED);

	if (!j || !list) {
		cJSON_Delete(j);
		cJSON_Delete(list);
		return NULL;
	}
	cJSON_AddStringToObject(j, "threshold", in->threshold);
	cJSON_AddNumberToObject(j, "threshold_ns", in->limit_ns);
	if (at_max)
		cJSON_AddTrueToObject(j, "threshold_is_max");
	if (in->percentile_ns > 0) {
		cJSON *r = cJSON_AddObjectToObject(j, "threshold_raised");

		cJSON_AddNumberToObject(r, "percentile_ns", in->percentile_ns);
		cJSON_AddNumberToObject(r, "medians", LAT_SLOW_MEDIANS);
	}
	cJSON_AddNumberToObject(j, "count", (double)r->n_iters);
	cJSON_AddNumberToObject(j, "listed", (double)listed);
	cJSON_AddItemToObject(j, "iterations", list);
	return j;
}

/* The longest sample, in ticks. */
static uint64_t longest(const struct lat_run *run)
{
	uint64_t max = 0;
	size_t i;

	for (i = 0; i < run->n; i++) {
		const struct lat_sample *s = &run->samples[i];

		if (s->tsc_end >= s->tsc_begin && s->tsc_end - s->tsc_begin > max)
			max = s->tsc_end - s->tsc_begin;
	}
	return max;
}

int lat_causes_add(cJSON *doc, const struct lat_causes_in *in)
{
	struct merge m = { .n_streams = count_streams(in->run) };
	uint64_t slow_ticks = (uint64_t)(in->limit_ns * in->run->tsc_hz / 1e9) + 1;
	uint64_t max = longest(in->run);
	bool at_max = in->at_max && max;
	cJSON *slow = NULL, *causes = NULL;
	int ret;

	/* the threshold came through ns: its ticks may be max or max + 1 */
	if (at_max)
		slow_ticks = max;

	m.med = calloc(m.n_streams * JOIN_NR_LABELS, sizeof(*m.med));
	if (!m.med)
		return -ENOMEM;
	ret = join_streams(in, slow_ticks, &m);
	if (!ret)
		m.limit = stretch_limit(in, &m.acc);
	if (!ret && m.acc.stats.hv_stretches > m.limit)
		ret = join_again(in, slow_ticks, &m);
	if (!ret) {
		slow = slow_json(in, &m.acc, at_max);
		causes = causes_json(in, &m, m.n_streams);
		ret = slow && causes ? 0 : -ENOMEM;
	}
	if (!ret) {
		cJSON_AddItemToObject(doc, "slow", slow);
		cJSON_AddItemToObject(doc, "causes", causes);
	} else {
		cJSON_Delete(slow);
		cJSON_Delete(causes);
	}
	join_result_free(&m.acc);
	free(m.med);
	return ret;
}
