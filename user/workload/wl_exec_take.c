// SPDX-License-Identifier: MIT
/*
 * The exec workload's iterations: the records its threads wrote into the
 * ring (markers), or, when it wrote none, its system calls as the backend
 * recorded them. Either way one stream per thread, in time order, with the
 * thread's id for the join.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/tsc.h"
#include "workload/wl_exec.h"

/* Records of region s that are complete. */
static uint64_t recs_of(const struct lat_exec *ex, const struct latctl_ring_slot *s)
{
	uint64_t n = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);

	return n < ex->ring->capacity ? n : ex->ring->capacity;
}

uint64_t lat_exec_marker_count(const struct lat_exec *ex)
{
	uint64_t n = 0;
	uint32_t k;

	for (k = 0; ex->ring && k < lat_exec_taken(ex); k++)
		n += recs_of(ex, lat_exec_slot(ex, k));
	return n;
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct process ids of the first n streams. */
static uint64_t count_pids(const struct lat_run *run, size_t n)
{
	uint32_t *pid = malloc((n ? n : 1) * sizeof(*pid));
	uint64_t d = 0;
	size_t i;

	if (!pid)
		return 0;
	for (i = 0; i < n; i++)
		pid[i] = run->streams[i].pid;
	qsort(pid, n, sizeof(*pid), by_u32);
	for (i = 0; i < n; i++)
		d += i == 0 || pid[i] != pid[i - 1];
	free(pid);
	return d;
}

/* Stream k is thread tid of process pid: its name as its marker region
 * holds it (comm, may be NULL), else from /proc while it lives, else the
 * command's name for the command's first thread, else none. 0 or -ENOMEM. */
static int name_stream(struct lat_run *run, const struct lat_exec *ex, size_t k, uint32_t pid,
		       uint32_t tid, const char *comm)
{
	struct lat_stream *st = lat_run_stream(run, k);
	char path[64], *nl;
	const char *base;
	FILE *f;

	if (!st)
		return -ENOMEM;
	st->tid = tid;
	st->pid = pid;
	snprintf(st->comm, sizeof(st->comm), "%.*s", 15, comm ? comm : "");
	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	f = st->comm[0] ? NULL : fopen(path, "re");
	if (f) {
		if (!fgets(st->comm, sizeof(st->comm), f))
			st->comm[0] = '\0';
		fclose(f);
		nl = strchr(st->comm, '\n');
		if (nl)
			*nl = '\0';
	}
	if (!st->comm[0] && tid == (uint32_t)ex->pid) {
		base = strrchr(ex->cmd[0], '/');
		snprintf(st->comm, sizeof(st->comm), "%s", base ? base + 1 : ex->cmd[0]);
	}
	return 0;
}

int lat_exec_take_markers(struct lat_run *run, struct lat_exec *ex)
{
	uint64_t n = lat_exec_marker_count(ex), i, m;
	uint32_t k;
	size_t at = 0, streams = 0;

	ex->source = "markers";
	if (n == 0)
		return 0;
	if (lat_run_resize(run, n))
		return -ENOMEM;
	for (k = 0; k < lat_exec_taken(ex); k++) {
		const struct latctl_ring_slot *s = lat_exec_slot(ex, k);
		const struct latctl_ring_rec *r = (const void *)(s + 1);

		m = recs_of(ex, s);
		if (m == 0)
			continue;
		for (i = 0; i < m; i++)
			memcpy(&run->samples[at + i], &r[i], sizeof(r[i]));
		run->samples[at].flags |= LAT_SAMPLE_F_NEWSTREAM;
		if (name_stream(run, ex, streams++, s->pid, s->tid, s->comm))
			return -ENOMEM;
		at += m;
	}
	run->samples[0].flags &= ~LAT_SAMPLE_F_NEWSTREAM;
	run->n = at;
	ex->threads = streams;
	ex->processes = count_pids(run, streams);
	return 0;
}

/* Slack before a region's map_tsc: 10 times the BPF backend's stated error
 * in mapping its clock to the TSC (LAT_KTIME_BOUND_NS, 1 us). */
#define MAP_SLACK_S 10e-6

/* A fault of region s's process on its mapping of the ring since it mapped
 * it; an earlier fault at those addresses is the process's own (the forked
 * child's before exec, a mapping the loader had there). */
static bool on_ring(const struct latctl_ring_slot *s, const struct latmon_event *e,
		    uint64_t slack)
{
	uint64_t a = e->u.fault.address;

	return s->pid == e->pid && a >= s->map_addr && a - s->map_addr < s->map_bytes &&
	       e->tsc_begin + slack >= s->map_tsc;
}

void lat_exec_set_apart(struct lat_exec *ex, struct latmon_event *ev, size_t n)
{
	uint64_t slack = (uint64_t)(lat_tsc_hz() * MAP_SLACK_S);
	uint32_t k, taken = lat_exec_taken(ex);
	size_t i;

	for (i = 0; ex->ring && i < n; i++) {
		if (ev[i].type != LATMON_EV_FAULT)
			continue;
		for (k = 0; k < taken; k++) {
			if (on_ring(lat_exec_slot(ex, k), &ev[i], slack)) {
				ev[i].tid = 0;
				ex->ring_faults++;
				break;
			}
		}
	}
}

/* Indices of the records of type of the command: other processes than
 * latctl's. */
static size_t *command_records(const struct latmon_event *ev, size_t n, uint16_t type,
			       size_t *count)
{
	size_t *v = malloc((n ? n : 1) * sizeof(*v)), i;
	uint32_t self = (uint32_t)getpid();

	*count = 0;
	for (i = 0; v && i < n; i++)
		if (ev[i].type == type && ev[i].pid != self && ev[i].tsc_end >= ev[i].tsc_begin)
			v[(*count)++] = i;
	return v;
}

static const struct latmon_event *sort_ev;

/* By thread, then by entry. */
static int by_tid_time(const void *a, const void *b)
{
	const struct latmon_event *x = &sort_ev[*(const size_t *)a], *y = &sort_ev[*(const size_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->tsc_begin < y->tsc_begin ? -1 : x->tsc_begin > y->tsc_begin;
}

/* The migrations of the command's threads, by thread and time, and a
 * cursor over them that calls (in the same order) move forward. */
struct migrations {
	size_t *v;
	size_t n, at;
};

/* The CPU call e began on: a call's record has the CPU it ended on, so a
 * migration of its thread inside it gives the one it left. */
static uint16_t call_cpu_begin(const struct latmon_event *ev, struct migrations *m,
			       const struct latmon_event *e)
{
	const struct latmon_event *g;

	for (; m->at < m->n; m->at++) {
		g = &ev[m->v[m->at]];
		if (g->tid > e->tid || (g->tid == e->tid && g->tsc_begin >= e->tsc_begin))
			break;
	}
	if (m->at < m->n) {
		g = &ev[m->v[m->at]];
		if (g->tid == e->tid && g->tsc_begin <= e->tsc_end)
			return (uint16_t)g->u.migrate.from_cpu;
	}
	return e->cpu;
}

/* One sample per call, a stream per thread: 0 or -ENOMEM. */
static int calls_to_samples(struct lat_run *run, struct lat_exec *ex, const struct latmon_event *ev,
			    const size_t *v, size_t n, struct migrations *mig)
{
	size_t i, at = 0, streams = 0;

	for (i = 0; i < n; i++) {
		const struct latmon_event *e = &ev[v[i]];
		int fresh = i == 0 || e->tid != ev[v[i - 1]].tid;
		uint32_t flags = fresh && at ? LAT_SAMPLE_F_NEWSTREAM : 0;

		if (fresh && name_stream(run, ex, streams++, e->pid, e->tid, NULL))
			return -ENOMEM;
		run->samples[at++] = (struct lat_sample){ e->tsc_begin, e->tsc_end,
							  call_cpu_begin(ev, mig, e), e->cpu,
							  flags };
	}
	run->n = at;
	ex->threads = streams;
	ex->processes = count_pids(run, streams);
	return 0;
}

int lat_exec_take_syscalls(struct lat_run *run, struct lat_exec *ex,
			   const struct latmon_event *ev, size_t n)
{
	size_t count, *v = command_records(ev, n, LATMON_EV_SYSCALL, &count);
	struct migrations mig = { 0 };
	int ret = -ENOMEM;

	ex->source = "syscalls";
	mig.v = command_records(ev, n, LATMON_EV_MIGRATE, &mig.n);
	if (!v || !mig.v || (count && lat_run_resize(run, count)))
		goto out;
	sort_ev = ev;
	qsort(v, count, sizeof(*v), by_tid_time);
	qsort(mig.v, mig.n, sizeof(*mig.v), by_tid_time);
	ret = calls_to_samples(run, ex, ev, v, count, &mig);
out:
	free(v);
	free(mig.v);
	return ret;
}
