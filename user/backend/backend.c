// SPDX-License-Identifier: MIT
/* Which backend records a run, and the labels it estimates (backend.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/backend_caps.h"
#include "backend/bpf/latbpf_user.h"

/* Labels a backend derives from estimated times, NULL-terminated. */
static const char *const bpf_estimated[] = { "fault", "thp-zero", "steal", "hypervisor", NULL };
static const char *const latmon_estimated[] = { "hypervisor", "smi", NULL };
static const char *const none_estimated[] = { NULL };

/* latmon: the module's session (monitor.c). */
static const char *latmon_refused(const struct lat_session *s, const struct lat_backend_caps *c)
{
	(void)c;
	return s->mon.state == LAT_MON_ON ? NULL : s->mon.line;
}

static const char *latmon_why(const struct lat_session *s, const struct lat_backend_caps *c)
{
	(void)s, (void)c;
	return "latmon is loaded";
}

static int latmon_start(struct lat_session *s, int measured_cpu)
{
	return lat_monitor_start(&s->mon, measured_cpu);
}

static void latmon_stop(struct lat_session *s, struct lat_run *run)
{
	(void)run;
	lat_monitor_stop(&s->mon);
}

static bool latmon_recording(const struct lat_session *s)
{
	return s->mon.state == LAT_MON_ON;
}

/* bpf: programs on static tracepoints (bpf/latbpf_user.h). */
static const char *bpf_refused(const struct lat_session *s, const struct lat_backend_caps *c)
{
	(void)s;
	return c->bpf ? NULL : c->bpf_why;
}

static const char *bpf_why(const struct lat_session *s, const struct lat_backend_caps *c)
{
	(void)s;
	return c->bpf_why;
}

static int bpf_open(struct lat_session *s, uint64_t ring, int syscalls)
{
	return lat_bpf_new(&s->bpf, ring ? ring : LAT_BPF_DEFAULT_RING, syscalls);
}

static int bpf_start(struct lat_session *s, int measured_cpu)
{
	return lat_bpf_start(s->bpf, &s->buf, measured_cpu) ? -1 : 0;
}

static void bpf_stop(struct lat_session *s, struct lat_run *run)
{
	lat_bpf_stop(s->bpf, &s->buf, run);
}

static const char *bpf_start_error(const struct lat_session *s)
{
	return lat_bpf_error(s->bpf);
}

static bool always(const struct lat_session *s)
{
	(void)s;
	return true;
}

/* none: nothing recorded. */
static const char *none_refused(const struct lat_session *s, const struct lat_backend_caps *c)
{
	(void)s, (void)c;
	return NULL;
}

static const char *none_why(const struct lat_session *s, const struct lat_backend_caps *c)
{
	(void)s, (void)c;
	return "no kernel events are recorded";
}

static bool never(const struct lat_session *s)
{
	(void)s;
	return false;
}

static const struct lat_backend_ops backend_latmon = {
	.name = "latmon",
	.estimated = latmon_estimated,
	.instead = "--backend bpf where 'latctl backends' allows it, or --vm",
	.refused = latmon_refused,
	.why = latmon_why,
	.start = latmon_start,
	.stop = latmon_stop,
	.recording = latmon_recording,
};

static const struct lat_backend_ops backend_bpf = {
	.name = "bpf", .estimated = bpf_estimated, .needs_caps = true,
	.instead = "--backend latmon where latmon is loaded, or --vm",
	.refused = bpf_refused, .why = bpf_why, .open = bpf_open, .start = bpf_start,
	.start_error = bpf_start_error, .stop = bpf_stop, .recording = always,
};

static const struct lat_backend_ops backend_none = {
	.name = "none", .estimated = none_estimated,
	.refused = none_refused, .why = none_why, .recording = never,
};

/* --backend's names, in auto's order of preference. */
static const struct lat_backend_ops *const backends[] = {
	&backend_latmon, &backend_bpf, &backend_none,
};

#define N_BACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct lat_backend_ops *lat_backend_named(const char *name)
{
	size_t i;

	for (i = 0; i < N_BACKENDS; i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

void lat_backend_list(FILE *out)
{
	size_t i;

	fputs(" auto", out);
	for (i = 0; i < N_BACKENDS; i++)
		fprintf(out, " %s", backends[i]->name);
}

int lat_backend_check(const char *name)
{
	if (!strcmp(name, "auto") || lat_backend_named(name))
		return 0;
	fprintf(stderr, "latctl: --backend '%s' is not valid; give auto, latmon, bpf or none\n", name);
	return -EINVAL;
}

/* --backend NAME was asked for and cannot record here: one line, -ENODEV. */
static int refuse(const struct lat_backend_ops *b, const char *why)
{
	fprintf(stderr, "latctl: --backend %s cannot record here (%s); use %s\n", b->name, why,
		b->instead);
	return -ENODEV;
}

/* auto: the first backend that records here; none says why neither does. */
static void choose_auto(struct lat_session *s, const struct lat_backend_caps *c)
{
	s->ops = &backend_none;
	if (!latmon_refused(s, c)) {
		s->ops = &backend_latmon;
		snprintf(s->why, sizeof(s->why), "latmon is loaded");
	} else if (!bpf_refused(s, c)) {
		s->ops = &backend_bpf;
		snprintf(s->why, sizeof(s->why),
			 "latmon cannot record here (%s): the BPF backend on static tracepoints (%s)",
			 c->latmon_why, c->bpf_why);
	} else {
		snprintf(s->why, sizeof(s->why), "latmon: %s; BPF backend not allowed: %s",
			 s->mon.line, c->bpf_why);
	}
}

int lat_backend_open(struct lat_session *s, const char *want, uint64_t events, uint64_t ring,
		     int flags)
{
	const struct lat_backend_ops *asked;
	struct lat_monitor *m = &s->mon;
	struct lat_backend_caps c = { 0 };
	const char *why;
	int ret;

	memset(s, 0, sizeof(*s));
	lat_evbuf_init(&s->buf, events);
	s->buf.fault_ahead = !(flags & LAT_BACKEND_APART);
	ret = lat_monitor_open(m, &s->buf);
	want = want ? want : "auto";
	asked = lat_backend_named(want);
	s->asked = asked != NULL;
	if (ret)
		return ret;
	/* Only when BPF may be chosen: reading the kernel's BTF mallocs and
	 * frees megabytes, which moves glibc's mmap threshold before timing. */
	if (asked ? asked->needs_caps : m->state != LAT_MON_ON)
		lat_backend_caps(&c);
	if (asked) {
		why = asked->refused(s, &c);
		if (why)
			return refuse(asked, why);
		s->ops = asked;
		snprintf(s->why, sizeof(s->why), "--backend %s: %s", asked->name, asked->why(s, &c));
	} else {
		choose_auto(s, &c);
	}
	if (s->ops != &backend_latmon && m->state == LAT_MON_ON) {
		m->state = LAT_MON_FAILED;	/* loaded, but not ours this run */
		snprintf(m->line, sizeof(m->line), "latmon is loaded but not used: --backend %s",
			 s->ops->name);
	}
	return s->ops->open ? s->ops->open(s, ring, !!(flags & LAT_BACKEND_SYSCALLS)) : 0;
}

int lat_backend_start(struct lat_session *s, int measured_cpu)
{
	const struct lat_backend_ops *b = s->ops;

	if (!b || !b->start || !b->start(s, measured_cpu))
		return 0;
	if (s->asked)		/* asked for by name: no run without it */
		return refuse(b, b->start_error(s));
	snprintf(s->why, sizeof(s->why), "BPF backend: %s; causes not recorded", b->start_error(s));
	s->ops = &backend_none;
	return 0;
}

void lat_backend_stop(struct lat_session *s, struct lat_run *run)
{
	if (s->ops && s->ops->stop)
		s->ops->stop(s, run);
	lat_missed_in_bound(&s->buf, run, &s->missed);
}

void lat_backend_close(struct lat_session *s)
{
	lat_bpf_close(s->bpf, &s->buf);
	s->bpf = NULL;
	lat_monitor_close(&s->mon);
	lat_evbuf_free(&s->buf);
}

int lat_backend_recording(const struct lat_session *s)
{
	return s->ops && s->ops->recording(s);
}

/* The backend's estimated labels; the switch labels too when a switch-in
 * went unreported (its end is then the thread's next sign of running). */
static const char *const *estimated_of(const struct lat_session *s, const char **v, size_t cap)
{
	const char *const *est = s->ops ? s->ops->estimated : none_estimated;
	size_t n = 0;

	if (!s->missed.count)
		return est;
	for (; *est && n + 3 < cap; est++)
		v[n++] = *est;
	v[n++] = "preemption";
	v[n++] = "blocked";
	v[n] = NULL;
	return v;
}

static cJSON *names_json(const char *const *names)
{
	cJSON *a = cJSON_CreateArray();

	for (; *names; names++)
		cJSON_AddItemToArray(a, cJSON_CreateString(*names));
	return a;
}

cJSON *lat_backend_json(const struct lat_session *s)
{
	cJSON *o = cJSON_CreateObject();
	struct lat_backend_caps c;
	const char *v[16];
	char line[400];

	lat_backend_caps(&c);
	lat_backend_caps_line(&c, line, sizeof(line));
	cJSON_AddStringToObject(o, "name", s->ops ? s->ops->name : "latmon");
	cJSON_AddStringToObject(o, "why", s->why);
	cJSON_AddStringToObject(o, "capabilities", line);
	cJSON_AddItemToObject(o, "estimated_labels", names_json(estimated_of(s, v, 16)));
	cJSON_AddNumberToObject(o, "switch_ins_missed", (double)s->missed.count);
	cJSON_AddNumberToObject(o, "switch_ins_bounded", (double)s->missed.bounded);
	cJSON_AddItemToObject(o, "bpf", s->bpf ? lat_bpf_json(s->bpf, &s->buf) : cJSON_CreateNull());
	return o;
}

static bool is_estimated(const char *const *est, const char *label)
{
	for (; label && *est; est++)
		if (!strcmp(*est, label))
			return true;
	return false;
}

/* Each slow iteration: the estimated labels of its breakdown. */
static void mark_iterations(cJSON *iters, const char *const *est)
{
	cJSON *it, *part, *list;

	cJSON_ArrayForEach(it, iters) {
		list = cJSON_CreateArray();
		cJSON_ArrayForEach(part, cJSON_GetObjectItemCaseSensitive(it, "breakdown_ticks"))
			if (is_estimated(est, part->string) && part->valuedouble > 0)
				cJSON_AddItemToArray(list, cJSON_CreateString(part->string));
		cJSON_AddItemToObject(it, "estimated_labels", list);
	}
}

void lat_backend_mark(cJSON *doc, const struct lat_session *s)
{
	const char *v[16];
	const char *const *est = estimated_of(s, v, 16);
	cJSON *causes = cJSON_GetObjectItemCaseSensitive(doc, "causes");
	cJSON *slow = cJSON_GetObjectItemCaseSensitive(doc, "slow");
	cJSON *row;

	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(causes, "causes"))
		cJSON_AddBoolToObject(row, "estimated",
				      is_estimated(est, cJSON_GetStringValue(
						   cJSON_GetObjectItemCaseSensitive(row, "label"))));
	mark_iterations(cJSON_GetObjectItemCaseSensitive(slow, "iterations"), est);
}
