// SPDX-License-Identifier: MIT
/* A result as a Perfetto trace (see perfetto.h). Field numbers are those
 * of Perfetto's protos/perfetto/trace/perfetto_trace.proto. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/perfetto.h"

/* Trace, TracePacket */
#define F_PACKET 1
#define F_TIMESTAMP 8
#define F_CLOCK_SNAPSHOT 6
#define F_SEQ_ID 10
#define F_TRACK_EVENT 11
#define F_INTERNED 12
#define F_SEQ_FLAGS 13
#define F_TRACK_DESC 60
#define SEQ_CLEARED 1
#define SEQ_NEEDS_STATE 2
/* ClockSnapshot */
#define F_CLOCKS 1
#define F_CLOCK_ID 1
#define F_CLOCK_TS 2
#define F_PRIMARY_CLOCK 2
#define CLOCK_MONOTONIC_ID 3
#define CLOCK_BOOTTIME_ID 6
/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor, CounterDescriptor */
#define F_UUID 1
#define F_NAME 2
#define F_PROCESS 3
#define F_THREAD 4
#define F_PARENT 5
#define F_COUNTER 8
#define F_PID 1
#define F_TID 2
#define F_PROCESS_NAME 6
#define F_THREAD_NAME 5
#define F_UNIT 3
#define UNIT_TIME_NS 1
/* TrackEvent, DebugAnnotation, InternedData, EventName */
#define F_ANNOTATION 4
#define F_TYPE 9
#define F_NAME_IID 10
#define F_TRACK_UUID 11
#define F_COUNTER_VALUE 30
#define TYPE_SLICE_BEGIN 1
#define TYPE_SLICE_END 2
#define TYPE_COUNTER 4
#define F_ANN_NAME 10
#define F_ANN_UINT 3
#define F_ANN_INT 4
#define F_ANN_DOUBLE 5
#define F_ANN_STRING 6
#define F_EVENT_NAMES 2
#define F_IID 1

#define SEQ 1 /* our one packet sequence */
#define MAX_NAMES 64
#define MAX_TRACKS 4096

/* The tracks of a thread, or of a stream whose thread is not known. */
#define UUID_PROCESS(pid) (1ULL << 32 | (pid))
#define UUID_THREAD(key) (2ULL << 32 | (key))
#define UUID_COUNTER(key) (3ULL << 32 | (key))
#define KEY_STREAM (1ULL << 31) /* key of a stream without a tid */

struct ctx {
	struct lat_pb *b;
	double tsc_hz, boot0; /* boot0: CLOCK_BOOTTIME at tsc0, ns */
	uint64_t tsc0;
	double p50;		      /* an ordinary iteration's time, ns */
	const char *unit;	      /* "push", "request", ... */
	const char *names[MAX_NAMES]; /* interned event names, iid = i + 1 */
	size_t n_names;
	uint64_t tracks[MAX_TRACKS]; /* keys with their descriptors written */
	size_t n_tracks;
	struct lat_export_stats *st;
};

struct span {
	uint64_t begin, end;	   /* ns, the trace's clock, clipped */
	double rec_begin, rec_end; /* as recorded, ns from the iteration */
	const char *type, *label;
	double cpu;
	int clipped;
};

static const cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static double num(const cJSON *o, const char *key, double dflt)
{
	const cJSON *v = get(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static const char *str(const cJSON *o, const char *key, const char *dflt)
{
	const cJSON *v = get(o, key);

	return cJSON_IsString(v) ? v->valuestring : dflt;
}

/* A TSC time on the trace's clock (CLOCK_BOOTTIME where the result has
 * its snapshot), in ns. */
static uint64_t trace_ns(const struct ctx *c, double tsc)
{
	double ns = c->boot0 + (tsc - (double)c->tsc0) * 1e9 / c->tsc_hz;

	return ns > 0 ? (uint64_t)llround(ns) : 0;
}

static void packet_begin(struct ctx *c, uint64_t ts, uint32_t flags)
{
	lat_pb_begin(c->b, F_PACKET);
	if (ts)
		lat_pb_uint(c->b, F_TIMESTAMP, ts);
	lat_pb_uint(c->b, F_SEQ_ID, SEQ);
	if (flags)
		lat_pb_uint(c->b, F_SEQ_FLAGS, flags);
}

/* The first packet: which BOOTTIME and MONOTONIC the run's TSC met. */
static void clock_packet(struct ctx *c, const cJSON *snap)
{
	packet_begin(c, 0, SEQ_CLEARED);
	lat_pb_begin(c->b, F_CLOCK_SNAPSHOT);
	lat_pb_begin(c->b, F_CLOCKS);
	lat_pb_uint(c->b, F_CLOCK_ID, CLOCK_BOOTTIME_ID);
	lat_pb_uint(c->b, F_CLOCK_TS, (uint64_t)num(snap, "boottime_ns", 0));
	lat_pb_end(c->b);
	lat_pb_begin(c->b, F_CLOCKS);
	lat_pb_uint(c->b, F_CLOCK_ID, CLOCK_MONOTONIC_ID);
	lat_pb_uint(c->b, F_CLOCK_TS, (uint64_t)num(snap, "monotonic_ns", 0));
	lat_pb_end(c->b);
	lat_pb_uint(c->b, F_PRIMARY_CLOCK, CLOCK_BOOTTIME_ID);
	lat_pb_end(c->b);
	lat_pb_end(c->b);
}

/* The iid of an event name; a new one is interned in this packet. */
static uint64_t intern(struct ctx *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n_names; i++)
		if (!strcmp(c->names[i], name))
			return i + 1;
	if (c->n_names == MAX_NAMES)
		return 0; /* then the name is written in full */
	c->names[c->n_names++] = name;
	lat_pb_begin(c->b, F_INTERNED);
	lat_pb_begin(c->b, F_EVENT_NAMES);
	lat_pb_uint(c->b, F_IID, c->n_names);
	lat_pb_string(c->b, F_NAME, name);
	lat_pb_end(c->b);
	lat_pb_end(c->b);
	return c->n_names;
}

static void track_packet(struct ctx *c, uint64_t uuid, uint64_t parent, const char *name)
{
	packet_begin(c, 0, 0);
	lat_pb_begin(c->b, F_TRACK_DESC);
	lat_pb_uint(c->b, F_UUID, uuid);
	if (parent)
		lat_pb_uint(c->b, F_PARENT, parent);
	if (name)
		lat_pb_string(c->b, F_NAME, name);
}

static void track_packet_end(struct ctx *c)
{
	lat_pb_end(c->b);
	lat_pb_end(c->b);
}

/* The process, thread and counter tracks of an iteration's thread. */
static void thread_tracks(struct ctx *c, uint64_t key, double pid, double tid, const char *comm)
{
	char name[96];

	if (pid > 0) {
		track_packet(c, UUID_PROCESS((uint64_t)pid), 0, NULL);
		lat_pb_begin(c->b, F_PROCESS);
		lat_pb_uint(c->b, F_PID, (uint64_t)pid);
		if (pid == tid)
			lat_pb_string(c->b, F_PROCESS_NAME, comm);
		lat_pb_end(c->b);
		track_packet_end(c);
	}
	snprintf(name, sizeof(name), "%s (stream %llu)", comm,
		 (unsigned long long)(key & ~KEY_STREAM));
	track_packet(c, UUID_THREAD(key), 0, tid > 0 ? NULL : name);
	if (tid > 0) {
		lat_pb_begin(c->b, F_THREAD);
		lat_pb_uint(c->b, F_PID, (uint64_t)(pid > 0 ? pid : tid));
		lat_pb_uint(c->b, F_TID, (uint64_t)tid);
		lat_pb_string(c->b, F_THREAD_NAME, comm);
		lat_pb_end(c->b);
	}
	track_packet_end(c);
	snprintf(name, sizeof(name), "%s time, %s %.0f", c->unit, comm, tid > 0 ? tid : 0);
	track_packet(c, UUID_COUNTER(key), pid > 0 ? UUID_PROCESS((uint64_t)pid) : 0, name);
	lat_pb_begin(c->b, F_COUNTER);
	lat_pb_uint(c->b, F_UNIT, UNIT_TIME_NS);
	lat_pb_end(c->b);
	track_packet_end(c);
	c->st->threads++;
}

/* The key of an iteration's thread (its tid, or its stream), its tracks
 * written on first use. */
static uint64_t thread_key(struct ctx *c, const cJSON *it)
{
	double tid = num(it, "tid", 0), pid = num(it, "pid", 0);
	uint64_t key = tid > 0 ? (uint64_t)tid : KEY_STREAM | (uint64_t)num(it, "stream", 0);
	size_t i;

	for (i = 0; i < c->n_tracks; i++)
		if (c->tracks[i] == key)
			return key;
	if (c->n_tracks < MAX_TRACKS)
		c->tracks[c->n_tracks++] = key;
	thread_tracks(c, key, pid, tid, str(it, "comm", "thread"));
	return key;
}

static void ann_begin(struct ctx *c, const char *name)
{
	lat_pb_begin(c->b, F_ANNOTATION);
	lat_pb_string(c->b, F_ANN_NAME, name);
}

static void ann_str(struct ctx *c, const char *name, const char *v)
{
	ann_begin(c, name);
	lat_pb_string(c->b, F_ANN_STRING, v);
	lat_pb_end(c->b);
}

static void ann_num(struct ctx *c, const char *name, double v)
{
	ann_begin(c, name);
	if (v == floor(v) && fabs(v) < 9e15)
		lat_pb_int(c->b, F_ANN_INT, (int64_t)v);
	else
		lat_pb_double(c->b, F_ANN_DOUBLE, v);
	lat_pb_end(c->b);
}

/* One track event: a slice's begin or end, or a counter's value. */
static void event_begin(struct ctx *c, uint64_t ts, uint64_t track, int type, const char *name)
{
	uint64_t iid;

	packet_begin(c, ts, SEQ_NEEDS_STATE);
	iid = name ? intern(c, name) : 0;
	lat_pb_begin(c->b, F_TRACK_EVENT);
	lat_pb_uint(c->b, F_TYPE, (uint64_t)type);
	lat_pb_uint(c->b, F_TRACK_UUID, track);
	if (iid)
		lat_pb_uint(c->b, F_NAME_IID, iid);
	else if (name)
		lat_pb_string(c->b, 23, name); /* TrackEvent.name */
}

static void event_end(struct ctx *c)
{
	lat_pb_end(c->b);
	lat_pb_end(c->b);
}

static void slice_end(struct ctx *c, uint64_t ts, uint64_t track)
{
	event_begin(c, ts, track, TYPE_SLICE_END, NULL);
	event_end(c);
}

static void counter(struct ctx *c, uint64_t ts, uint64_t key, double v)
{
	event_begin(c, ts, UUID_COUNTER(key), TYPE_COUNTER, NULL);
	lat_pb_int(c->b, F_COUNTER_VALUE, (int64_t)llround(v));
	event_end(c);
}

/* "hypervisor 12.6 us, fault 1.8 us": the breakdown, largest first. */
static void breakdown(const cJSON *bd, char *buf, size_t len)
{
	const cJSON *v, *best;
	double last = INFINITY;
	size_t used = 0;

	buf[0] = '\0';
	for (;;) {
		best = NULL;
		cJSON_ArrayForEach(v, bd)
			if (cJSON_IsNumber(v) && v->valuedouble < last &&
			    (!best || v->valuedouble > best->valuedouble))
				best = v;
		if (!best || used >= len)
			return;
		used += (size_t)snprintf(buf + used, len - used, "%s%s %.1f us", used ? ", " : "",
					 best->string, best->valuedouble / 1e3);
		last = best->valuedouble;
	}
}

/* "zero 4 (3.1 us) on anonymous ..., cow 4 (241.6 us) on ...": the
 * iteration's faults by kind, with the memory of each kind's first. */
static void fault_kinds(struct ctx *c, const cJSON *it, char *buf, size_t len)
{
	const cJSON *k, *m, *ns = get(it, "fault_kind_ns");
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(k, get(it, "fault_kinds")) {
		if (!cJSON_IsNumber(k) || used >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s %.0f (%.1f us)", used ? ", " : "",
					 k->string, k->valuedouble, num(ns, k->string, 0) / 1e3);
		cJSON_ArrayForEach(m, get(it, "fault_memory"))
			if (used < len && !strcmp(str(m, "kind", ""), k->string)) {
				used += (size_t)snprintf(buf + used, len - used, " on %s",
							 str(m, "memory", "?"));
				break;
			}
	}
	if (used)
		ann_str(c, "fault_kinds", buf);
}

/* The arguments of a slow iteration's slice. */
static void iteration_args(struct ctx *c, const cJSON *it)
{
	const cJSON *a = get(it, "fault_addresses"), *v;
	char buf[512];
	size_t used = 0;

	ann_num(c, "index", num(it, "index", 0));
	ann_num(c, "duration_ns", num(it, "duration_ns", 0));
	breakdown(get(it, "breakdown_ns"), buf, sizeof(buf));
	ann_str(c, "breakdown", buf);
	ann_num(c, "cpu", num(it, "cpu_begin", 0));
	ann_num(c, "kernel_events", num(it, "events", 0));
	ann_num(c, "faults", num(it, "faults", 0));
	buf[0] = '\0';
	cJSON_ArrayForEach(v, a)
		if (cJSON_IsString(v) && used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s",
						 used ? " " : "", v->valuestring);
	if (used)
		ann_str(c, "fault_addresses", buf);
	fault_kinds(c, it, buf, sizeof(buf));
	if (cJSON_IsObject(get(it, "preempted_by"))) {
		snprintf(buf, sizeof(buf), "pid %.0f (%s)", num(get(it, "preempted_by"), "pid", 0),
			 str(get(it, "preempted_by"), "comm", "?"));
		ann_str(c, "ran_instead", buf);
	}
	if (cJSON_IsTrue(get(it, "incomplete")))
		ann_str(c, "incomplete", "events were lost around it");
	if (num(it, "spans_dropped", 0) > 0)
		ann_num(c, "spans_dropped", num(it, "spans_dropped", 0));
}

static int cmp_span(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	if (a->begin != b->begin)
		return a->begin < b->begin ? -1 : 1;
	return a->end > b->end ? -1 : a->end < b->end; /* the longer one outside */
}

/* The iteration's spans on the trace's clock, clipped to [b, e], sorted.
 * The count; *out is NULL when there are none. */
static size_t spans_of(struct ctx *c, const cJSON *it, uint64_t b, uint64_t e, struct span **out)
{
	const cJSON *list = get(it, "spans"), *s;
	size_t n = 0, cap = (size_t)cJSON_GetArraySize(list);
	double base = num(it, "tsc_begin", 0);
	struct span *v = cap ? calloc(cap, sizeof(*v)) : NULL;

	*out = v;
	cJSON_ArrayForEach(s, list) {
		struct span p = { .rec_begin = num(s, "begin_ns", 0),
				  .rec_end = num(s, "end_ns", 0),
				  .type = str(s, "type", "?"),
				  .label = str(s, "label", "?"),
				  .cpu = num(s, "cpu", 0) };

		if (!v)
			break;
		p.begin = trace_ns(c, base) + (uint64_t)fmax(0, llround(p.rec_begin));
		p.end = trace_ns(c, base) + (uint64_t)fmax(0, llround(p.rec_end));
		p.clipped = p.begin < b || p.end > e;
		p.begin = p.begin < b ? b : p.begin > e ? e : p.begin;
		p.end = p.end > e ? e : p.end < p.begin ? p.begin : p.end;
		if (p.end > p.begin)
			v[n++] = p;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_span);
	return n;
}

/* The spans as nested slices: one that outlasts the span it begins in is
 * cut at that span's end (a trace's slices nest). */
static void write_spans(struct ctx *c, uint64_t track, struct span *v, size_t n)
{
	uint64_t stack[64];
	size_t i, depth = 0;

	for (i = 0; i < n; i++) {
		while (depth && stack[depth - 1] <= v[i].begin)
			slice_end(c, stack[--depth], track);
		if (depth && v[i].end > stack[depth - 1]) {
			v[i].end = stack[depth - 1];
			v[i].clipped = 1;
		}
		if (depth == 64 || v[i].end <= v[i].begin)
			continue;
		event_begin(c, v[i].begin, track, TYPE_SLICE_BEGIN, v[i].label);
		ann_str(c, "record", v[i].type);
		ann_num(c, "cpu", v[i].cpu);
		ann_num(c, "begin_ns", v[i].rec_begin);
		ann_num(c, "end_ns", v[i].rec_end);
		if (v[i].clipped)
			ann_str(c, "clipped", "cut to the slice it is in");
		event_end(c);
		c->st->spans++;
		c->st->clipped += v[i].clipped != 0;
		stack[depth++] = v[i].end;
	}
	while (depth)
		slice_end(c, stack[--depth], track);
}

/* One slow iteration: the counter's spike, its slice, its spans inside. */
static int write_iteration(struct ctx *c, const cJSON *it)
{
	double tsc = num(it, "tsc_begin", 0);
	uint64_t key = thread_key(c, it), b = trace_ns(c, tsc);
	uint64_t e = trace_ns(c, tsc + num(it, "duration_ticks", 0));
	struct span *v;
	size_t n;

	if (e <= b)
		e = b + 1;
	n = spans_of(c, it, b, e, &v);
	if (!v && cJSON_GetArraySize(get(it, "spans")) > 0)
		return -ENOMEM;
	counter(c, b, key, num(it, "duration_ns", 0));
	event_begin(c, b, UUID_THREAD(key), TYPE_SLICE_BEGIN, str(it, "primary", "?"));
	iteration_args(c, it);
	event_end(c);
	write_spans(c, UUID_THREAD(key), v, n);
	slice_end(c, e, UUID_THREAD(key));
	counter(c, e, key, c->p50);
	free(v);
	c->st->slow++;
	return c->b->err;
}

/* The ordinary iterations of the result's "context", in index order. */
struct cursor {
	const cJSON *win; /* the current window, NULL at the end */
	int at;		  /* position in it */
	uint64_t key;	  /* its thread's key, once found (0: not yet) */
};

/* Iterations a window holds: both arrays' (a hand-edited result may
 * have cut one). */
static int window_len(const cJSON *w)
{
	int a = cJSON_GetArraySize(get(w, "tsc_begin")),
	    b = cJSON_GetArraySize(get(w, "duration_ticks"));

	return a < b ? a : b;
}

static void cursor_skip_empty(struct cursor *k)
{
	while (k->win && k->at >= window_len(k->win)) {
		k->win = k->win->next;
		k->at = 0;
		k->key = 0;
	}
}

static double cursor_index(const struct cursor *k)
{
	return k->win ? num(k->win, "from", 0) + k->at : INFINITY;
}

/* The thread of a window's stream: a listed iteration of it, else the stream. */
static uint64_t stream_key(struct ctx *c, const cJSON *list, double stream)
{
	const cJSON *it;
	cJSON *fake;
	uint64_t key;

	cJSON_ArrayForEach(it, list)
		if (num(it, "stream", -1) == stream)
			return thread_key(c, it);
	fake = cJSON_CreateObject();
	cJSON_AddNumberToObject(fake, "stream", stream);
	key = thread_key(c, fake);
	cJSON_Delete(fake);
	return key;
}

/* One ordinary iteration: a slice named by the unit, its counter value. */
static void write_ordinary(struct ctx *c, const cJSON *list, struct cursor *k)
{
	const cJSON *t = cJSON_GetArrayItem(get(k->win, "tsc_begin"), k->at);
	const cJSON *n = cJSON_GetArrayItem(get(k->win, "duration_ticks"), k->at);
	double tsc = cJSON_IsNumber(t) ? t->valuedouble : 0,
	       d = cJSON_IsNumber(n) ? n->valuedouble : 0;
	uint64_t key = k->key ? k->key : (k->key = stream_key(c, list, num(k->win, "stream", 0)));
	uint64_t b = trace_ns(c, tsc), e = trace_ns(c, tsc + d);

	counter(c, b, key, d * 1e9 / c->tsc_hz);
	event_begin(c, b, UUID_THREAD(key), TYPE_SLICE_BEGIN, c->unit);
	ann_num(c, "index", cursor_index(k));
	ann_num(c, "duration_ns", d * 1e9 / c->tsc_hz);
	ann_str(c, "ordinary", "around one of the slowest");
	event_end(c);
	slice_end(c, e > b ? e : b + 1, UUID_THREAD(key));
	c->st->ordinary++;
}

/* The ordinary iterations before index (the one at it is drawn as slow). */
static void write_ordinary_until(struct ctx *c, const cJSON *list, struct cursor *k, double index)
{
	for (cursor_skip_empty(k); k->win && cursor_index(k) <= index; cursor_skip_empty(k)) {
		if (cursor_index(k) < index)
			write_ordinary(c, list, k);
		k->at++;
	}
}

static int cmp_desc(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? 1 : a > b ? -1 : 0;
}

/* The duration at or above which an iteration is among the max slowest. */
static double cut_of(const cJSON *list, size_t max)
{
	size_t n = (size_t)cJSON_GetArraySize(list), i = 0;
	const cJSON *it;
	double *d, cut;

	if (n <= max)
		return -1;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -1;
	cJSON_ArrayForEach(it, list)
		d[i++] = num(it, "duration_ticks", 0);
	qsort(d, n, sizeof(*d), cmp_desc);
	cut = d[max - 1];
	free(d);
	return cut;
}

static int write_iterations(struct ctx *c, const cJSON *list, const cJSON *windows, size_t max)
{
	struct cursor k = { windows ? windows->child : NULL, 0, 0 };
	double cut = max ? cut_of(list, max) : -1;
	const cJSON *it;
	int ret;

	cJSON_ArrayForEach(it, list) {
		if (num(it, "duration_ticks", 0) < cut || (max && c->st->slow == max)) {
			c->st->left_out++;
			continue;
		}
		write_ordinary_until(c, list, &k, num(it, "index", 0));
		ret = write_iteration(c, it);
		if (ret)
			return ret;
	}
	write_ordinary_until(c, list, &k, INFINITY);
	return c->b->err;
}

int lat_perfetto_trace(const cJSON *doc, size_t max_slow, struct lat_pb *b,
		       struct lat_export_stats *st)
{
	const cJSON *clock = get(doc, "clock"), *snap = get(clock, "snapshot");
	const cJSON *list = get(get(doc, "slow"), "iterations"), *it;
	struct ctx c = { .b = b, .st = st };
	int ret;

	memset(st, 0, sizeof(*st));
	st->snapshot = cJSON_IsObject(snap);
	st->runs = (size_t)num(get(doc, "repeat"), "runs", 1);
	c.tsc_hz = num(snap, "tsc_hz", num(get(doc, "environment"), "tsc_hz", 0));
	if (!(c.tsc_hz > 0))
		return -EINVAL;
	c.tsc0 = (uint64_t)num(snap, "tsc", 0);
	c.boot0 = num(snap, "boottime_ns", 0);
	c.p50 = num(get(doc, "summary"), "p50_ns", 0);
	c.unit = str(get(doc, "run"), "unit", "iteration");
	cJSON_ArrayForEach(it, list)
		st->have_spans |= cJSON_IsArray(get(it, "spans"));
	if (st->snapshot) {
		clock_packet(&c, snap);
	} else { /* an older result: the TSC's own times */
		packet_begin(&c, 0, SEQ_CLEARED);
		lat_pb_end(b);
	}
	ret = write_iterations(&c, list, get(get(doc, "context"), "windows"), max_slow);
	return ret ? ret : lat_pb_done(b);
}
