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

static const char *const *estimated_of(const struct lat_monitor *m)
{
	return m->backend == LAT_BACKEND_BPF ? bpf_estimated : none_estimated;
}

int lat_backend_check(const char *name)
{
	if (!strcmp(name, "auto") || !strcmp(name, "latmon") || !strcmp(name, "bpf"))
		return 0;
	fprintf(stderr, "latctl: --backend '%s' is not valid; give auto, latmon or bpf\n", name);
	return -EINVAL;
}

/* Set the backend and the sentence saying why. */
static void choose(struct lat_monitor *m, enum lat_backend b, const char *fmt, const char *a,
		   const char *z)
{
	m->backend = b;
	snprintf(m->backend_why, sizeof(m->backend_why), fmt, a, z);
}

/* auto: latmon if it records, else BPF if allowed, else none. */
static void choose_auto(struct lat_monitor *m, const struct lat_backend_caps *c)
{
	if (m->state == LAT_MON_ON)
		choose(m, LAT_BACKEND_LATMON, "latmon is loaded%s%s", "", "");
	else if (c->bpf)
		choose(m, LAT_BACKEND_BPF, "latmon cannot record here (%s): the BPF backend on static tracepoints (%s)",
		       c->latmon_why, c->bpf_why);
	else
		choose(m, LAT_BACKEND_NONE, "latmon: %s; BPF backend not allowed: %s", m->line, c->bpf_why);
}

int lat_backend_open(struct lat_monitor *m, const struct lat_opts *o)
{
	const char *want = o->backend ? o->backend : "auto";
	struct lat_backend_caps c = { 0 };
	int ret = lat_monitor_open(m, o->events);

	if (ret)
		return ret;
	/* Only when BPF may be chosen: reading the kernel's BTF mallocs and
	 * frees megabytes, which moves glibc's mmap threshold before timing. */
	if (strcmp(want, "latmon") && !(strcmp(want, "bpf") && m->state == LAT_MON_ON))
		lat_backend_caps(&c);
	if (!strcmp(want, "latmon"))
		choose(m, m->state == LAT_MON_ON ? LAT_BACKEND_LATMON : LAT_BACKEND_NONE,
		       "--backend latmon: %s%s", m->state == LAT_MON_ON ? "latmon is loaded" : m->line, "");
	else if (!strcmp(want, "bpf"))
		choose(m, c.bpf ? LAT_BACKEND_BPF : LAT_BACKEND_NONE, "--backend bpf: %s%s",
		       c.bpf ? c.bpf_why : "this kernel does not allow it: ", c.bpf ? "" : c.bpf_why);
	else
		choose_auto(m, &c);
	if (m->backend != LAT_BACKEND_BPF)
		return 0;
	if (m->state == LAT_MON_ON) {	/* loaded, but not ours this run */
		m->state = LAT_MON_FAILED;
		snprintf(m->line, sizeof(m->line), "latmon is loaded but not used: --backend bpf");
	}
	return lat_bpf_new(m, o->ring ? o->ring : LAT_BPF_DEFAULT_RING);
}

static cJSON *names_json(const char *const *names)
{
	cJSON *a = cJSON_CreateArray();

	for (; *names; names++)
		cJSON_AddItemToArray(a, cJSON_CreateString(*names));
	return a;
}

cJSON *lat_backend_json(const struct lat_monitor *m)
{
	cJSON *o = cJSON_CreateObject();
	struct lat_backend_caps c;
	char line[400];
	int b = m->backend ? m->backend : LAT_BACKEND_LATMON;

	lat_backend_caps(&c);
	lat_backend_caps_line(&c, line, sizeof(line));
	cJSON_AddStringToObject(o, "name", backend_names[b]);
	cJSON_AddStringToObject(o, "why", m->backend_why);
	cJSON_AddStringToObject(o, "capabilities", line);
	cJSON_AddItemToObject(o, "estimated_labels", names_json(estimated_of(m)));
	cJSON_AddItemToObject(o, "bpf", m->bpf ? lat_bpf_json(m) : cJSON_CreateNull());
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

void lat_backend_mark(cJSON *doc, const struct lat_monitor *m)
{
	const char *const *est = estimated_of(m);
	cJSON *causes = cJSON_GetObjectItemCaseSensitive(doc, "causes");
	cJSON *slow = cJSON_GetObjectItemCaseSensitive(doc, "slow");
	cJSON *row;

	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(causes, "causes"))
		cJSON_AddBoolToObject(row, "estimated",
				      is_estimated(est, cJSON_GetStringValue(
						   cJSON_GetObjectItemCaseSensitive(row, "label"))));
	mark_iterations(cJSON_GetObjectItemCaseSensitive(slow, "iterations"), est);
}
