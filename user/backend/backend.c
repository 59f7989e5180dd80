// SPDX-License-Identifier: MIT
/* Which backend records a run, and the labels it estimates (backend.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/backend_caps.h"
#include "backend/bpf/latbpf_user.h"

static const char *const backend_names[] = {
	[LAT_BACKEND_LATMON] = "latmon",
	[LAT_BACKEND_BPF] = "bpf",
	[LAT_BACKEND_NONE] = "none",
};

/* Labels a backend derives from estimated times, NULL-terminated. */
static const char *const bpf_estimated[] = { "fault", "thp-zero", NULL };
static const char *const none_estimated[] = { NULL };

static const char *const *estimated_of(const struct lat_session *s)
{
	return s->backend == LAT_BACKEND_BPF ? bpf_estimated : none_estimated;
}

int lat_backend_check(const char *name)
{
	if (!strcmp(name, "auto") || !strcmp(name, "latmon") || !strcmp(name, "bpf") ||
	    !strcmp(name, "none"))
		return 0;
	fprintf(stderr, "latctl: --backend '%s' is not valid; give auto, latmon, bpf or none\n", name);
	return -EINVAL;
}

/* --backend NAME was asked for and cannot record here: one line, -ENODEV. */
static int refuse(const char *name, const char *why, const char *instead)
{
	fprintf(stderr, "latctl: --backend %s cannot record here (%s); use %s\n", name, why, instead);
	return -ENODEV;
}

/* Set the backend and the sentence saying why. */
static void choose(struct lat_session *s, enum lat_backend b, const char *fmt, const char *a,
		   const char *z)
{
	s->backend = b;
	snprintf(s->why, sizeof(s->why), fmt, a, z);
}

/* auto: latmon if it records, else BPF if allowed, else none. */
static void choose_auto(struct lat_session *s, const struct lat_backend_caps *c)
{
	if (s->mon.state == LAT_MON_ON)
		choose(s, LAT_BACKEND_LATMON, "latmon is loaded%s%s", "", "");
	else if (c->bpf)
		choose(s, LAT_BACKEND_BPF, "latmon cannot record here (%s): the BPF backend on static tracepoints (%s)",
		       c->latmon_why, c->bpf_why);
	else
		choose(s, LAT_BACKEND_NONE, "latmon: %s; BPF backend not allowed: %s", s->mon.line, c->bpf_why);
}

int lat_backend_open(struct lat_session *s, const char *want, uint64_t events, uint64_t ring,
		     int syscalls)
{
	struct lat_monitor *m = &s->mon;
	struct lat_backend_caps c = { 0 };
	int ret;

	memset(s, 0, sizeof(*s));
	lat_evbuf_init(&s->buf, events);
	ret = lat_monitor_open(m, &s->buf);
	want = want ? want : "auto";
	s->asked = strcmp(want, "auto") != 0;
	if (ret)
		return ret;
	/* Only when BPF may be chosen: reading the kernel's BTF mallocs and
	 * frees megabytes, which moves glibc's mmap threshold before timing. */
	if (strcmp(want, "latmon") && !(strcmp(want, "bpf") && m->state == LAT_MON_ON))
		lat_backend_caps(&c);
	if (!strcmp(want, "latmon") && m->state != LAT_MON_ON)
		return refuse("latmon", m->line, "--backend bpf where 'latctl backends' allows it, or --vm");
	if (!strcmp(want, "bpf") && !c.bpf)
		return refuse("bpf", c.bpf_why, "--backend latmon where latmon is loaded, or --vm");
	if (!strcmp(want, "latmon"))
		choose(s, LAT_BACKEND_LATMON, "--backend latmon: latmon is loaded%s%s", "", "");
	else if (!strcmp(want, "bpf"))
		choose(s, LAT_BACKEND_BPF, "--backend bpf: %s%s", c.bpf_why, "");
	else if (!strcmp(want, "none"))
		choose(s, LAT_BACKEND_NONE, "--backend none: no kernel events are recorded%s%s", "", "");
	else
		choose_auto(s, &c);
	if (s->backend == LAT_BACKEND_NONE && m->state == LAT_MON_ON) {
		m->state = LAT_MON_FAILED;	/* loaded, but not asked for */
		snprintf(m->line, sizeof(m->line), "latmon is loaded but not used: --backend none");
	}
	if (s->backend != LAT_BACKEND_BPF)
		return 0;
	if (m->state == LAT_MON_ON) {	/* loaded, but not ours this run */
		m->state = LAT_MON_FAILED;
		snprintf(m->line, sizeof(m->line), "latmon is loaded but not used: --backend bpf");
	}
	return lat_bpf_new(&s->bpf, ring ? ring : LAT_BPF_DEFAULT_RING, syscalls);
}

int lat_backend_start(struct lat_session *s, int measured_cpu)
{
	if (s->backend != LAT_BACKEND_BPF)
		return lat_monitor_start(&s->mon, measured_cpu);
	if (!lat_bpf_start(s->bpf, &s->buf, measured_cpu))
		return 0;
	if (s->asked)		/* asked for by name: no run without it */
		return refuse("bpf", lat_bpf_error(s->bpf), "--backend latmon where latmon is loaded, or --vm");
	choose(s, LAT_BACKEND_NONE, "BPF backend: %s%s; causes not recorded", lat_bpf_error(s->bpf), "");
	return 0;
}

void lat_backend_stop(struct lat_session *s, struct lat_run *run)
{
	if (s->bpf)
		lat_bpf_stop(s->bpf, &s->buf, run);
	else
		lat_monitor_stop(&s->mon);
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
	return s->backend == LAT_BACKEND_BPF ||
	       (s->backend != LAT_BACKEND_NONE && s->mon.state == LAT_MON_ON);
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
	char line[400];
	int b = s->backend ? s->backend : LAT_BACKEND_LATMON;

	lat_backend_caps(&c);
	lat_backend_caps_line(&c, line, sizeof(line));
	cJSON_AddStringToObject(o, "name", backend_names[b]);
	cJSON_AddStringToObject(o, "why", s->why);
	cJSON_AddStringToObject(o, "capabilities", line);
	cJSON_AddItemToObject(o, "estimated_labels", names_json(estimated_of(s)));
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
	const char *const *est = estimated_of(s);
	cJSON *causes = cJSON_GetObjectItemCaseSensitive(doc, "causes");
	cJSON *slow = cJSON_GetObjectItemCaseSensitive(doc, "slow");
	cJSON *row;

	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(causes, "causes"))
		cJSON_AddBoolToObject(row, "estimated",
				      is_estimated(est, cJSON_GetStringValue(
						   cJSON_GetObjectItemCaseSensitive(row, "label"))));
	mark_iterations(cJSON_GetObjectItemCaseSensitive(slow, "iterations"), est);
}
