// SPDX-License-Identifier: MIT
/*
 * The processes the BPF programs followed (latbpf.bpf.c: a fork of a target
 * adds the child's tgid to the "followed" map, the exit of its last thread
 * removes it, a fork beyond the map's size is refused): the limit from the
 * environment, the counts and the logs of followed and refused tgids read
 * after detaching, the filter check against them, the streams of refused
 * processes marked unattributed, and the counts in the JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "backend/bpf/latbpf.h"
#include "backend/bpf/latbpf_user.h"
#include "lib/parse.h"

#define FOLLOW_MAX_LIMIT	65536

int lat_bpf_follow_max(uint32_t *max)
{
	const char *s = getenv("LATCTL_BPF_FOLLOW_MAX");
	uint64_t v = LATBPF_FOLLOW_MAX;

	if (s && lat_parse_u64(s, 1, FOLLOW_MAX_LIMIT, &v)) {
		fprintf(stderr, "latctl: LATCTL_BPF_FOLLOW_MAX '%s' is not valid; give a whole "
			"number from 1 to %d\n", s, FOLLOW_MAX_LIMIT);
		return -EINVAL;
	}
	*max = (uint32_t)v;
	return 0;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* n tgids of the log from slot base, sorted; *got how many it held. */
static uint32_t *read_log(int fd, uint32_t base, uint64_t n, size_t *got)
{
	size_t want = n < LATBPF_FOLLOW_LOG ? (size_t)n : LATBPF_FOLLOW_LOG;
	uint32_t *v = calloc(want + 1, sizeof(*v)), i, key;

	*got = 0;
	for (i = 0; v && i < want; i++) {
		key = base + i;
		if (!bpf_map_lookup_elem(fd, &key, &v[*got]))
			(*got)++;
	}
	if (v)
		qsort(v, *got, sizeof(*v), cmp_u32);
	return v;
}

void lat_bpf_follow_read(struct lat_bpf_follow *f, const struct latbpf_follow *c, int log_fd)
{
	f->live = c->live;
	f->followed = c->followed;
	f->refused = c->refused;
	f->pids = read_log(log_fd, 0, f->followed, &f->n_pids);
	f->refused_pids = read_log(log_fd, LATBPF_FOLLOW_LOG, f->refused, &f->n_refused);
}

static bool in(const uint32_t *v, size_t n, uint32_t pid)
{
	return v && bsearch(&pid, v, n, sizeof(*v), cmp_u32);
}

/* Records of processes neither latctl's nor followed (a filter bug); those
 * of a pid the full log may have missed go to f->unchecked instead. */
uint64_t lat_bpf_follow_other(struct lat_bpf_follow *f, const struct latmon_event *ev, size_t n)
{
	uint32_t self = (uint32_t)getpid();
	bool log_full = f->followed > f->n_pids;
	uint64_t other = 0;
	size_t i;

	f->unchecked = 0;
	for (i = 0; i < n; i++) {
		if (ev[i].type == LATMON_EV_LOST || ev[i].pid == self ||
		    in(f->pids, f->n_pids, ev[i].pid))
			continue;
		if (log_full)
			f->unchecked++;
		else
			other++;
	}
	return other;
}

/* A stream whose process was refused has no events: its tid becomes 0 (not
 * joined, counted as unattributed in the report). */
void lat_bpf_follow_streams(const struct lat_bpf_follow *f, struct lat_run *run)
{
	size_t k;

	for (k = 0; run && f->n_refused && k < run->n_streams; k++)
		if (run->streams[k].tid && in(f->refused_pids, f->n_refused, run->streams[k].tid))
			run->streams[k].tid = 0;
}

void lat_bpf_follow_free(struct lat_bpf_follow *f)
{
	free(f->pids);
	free(f->refused_pids);
	f->pids = f->refused_pids = NULL;
}

cJSON *lat_bpf_follow_json(const struct lat_bpf_follow *f)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "max", f->max);
	cJSON_AddNumberToObject(o, "live_at_stop", (double)f->live);
	cJSON_AddNumberToObject(o, "followed", (double)f->followed);
	cJSON_AddNumberToObject(o, "refused", (double)f->refused);
	cJSON_AddNumberToObject(o, "unchecked_records", (double)f->unchecked);
	return o;
}
