// SPDX-License-Identifier: MIT
/*
 * The exec workload's iterations: the records its threads wrote into the
 * ring (markers), or, when it wrote none, its system calls as the backend
 * recorded them. Either way one stream per thread, in time order, with the
 * thread's id for the join.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Count the distinct pids of the streams. */
static uint64_t count_pids(const uint32_t *pid, size_t n)
{
	uint64_t d = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && pid[j] != pid[i]; j++)
			;
		d += j == i;
	}
	return d;
}

/* Stream k is thread tid of process pid: its name as its marker region
 * holds it (comm, may be NULL), else from /proc while it lives, else the
 * command's name for the command's first thread, else none. */
static void name_stream(struct lat_run *run, const struct lat_exec *ex, size_t k, uint32_t pid,
			uint32_t tid, const char *comm)
{
	char path[64], *nl;
	const char *base;
	FILE *f;

	run->stream_tid[k] = tid;
	run->stream_pid[k] = pid;
	snprintf(run->stream_comm[k], sizeof(run->stream_comm[k]), "%.*s", 15, comm ? comm : "");
	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	f = run->stream_comm[k][0] ? NULL : fopen(path, "re");
	if (f) {
		if (!fgets(run->stream_comm[k], sizeof(run->stream_comm[k]), f))
			run->stream_comm[k][0] = '\0';
		fclose(f);
		nl = strchr(run->stream_comm[k], '\n');
		if (nl)
			*nl = '\0';
	}
	if (!run->stream_comm[k][0] && tid == (uint32_t)ex->pid) {
		base = strrchr(ex->cmd[0], '/');
		snprintf(run->stream_comm[k], sizeof(run->stream_comm[k]), "%s",
			 base ? base + 1 : ex->cmd[0]);
	}
}

int lat_exec_take_markers(struct lat_run *run, struct lat_exec *ex)
{
	uint32_t k, pids[LAT_MAX_STREAMS];
	uint64_t n = lat_exec_marker_count(ex), i, m;
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
		name_stream(run, ex, streams, s->pid, s->tid, s->comm);
		pids[streams++] = s->pid;
		at += m;
	}
	run->samples[0].flags &= ~LAT_SAMPLE_F_NEWSTREAM;
	run->n = at;
	ex->threads = streams;
	ex->processes = count_pids(pids, streams);
	return 0;
}

void lat_exec_set_apart(struct lat_exec *ex, struct latmon_event *ev, size_t n)
{
	uint32_t k, taken = lat_exec_taken(ex);
	size_t i;

	for (i = 0; ex->ring && i < n; i++) {
		if (ev[i].type != LATMON_EV_FAULT)
			continue;
		for (k = 0; k < taken; k++) {
			const struct latctl_ring_slot *s = lat_exec_slot(ex, k);
			uint64_t a = ev[i].u.fault.address;

			if (s->pid == ev[i].pid && a >= s->map_addr && a - s->map_addr < s->map_bytes) {
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

/* One sample per call, a stream per thread; threads past the stream limit
 * are counted in ex. */
static void calls_to_samples(struct lat_run *run, struct lat_exec *ex,
			     const struct latmon_event *ev, const size_t *v, size_t n,
			     struct migrations *mig)
{
	uint32_t pids[LAT_MAX_STREAMS];
	size_t i, at = 0, streams = 0;

	for (i = 0; i < n; i++) {
		const struct latmon_event *e = &ev[v[i]];
		int fresh = i == 0 || e->tid != ev[v[i - 1]].tid;
		uint32_t flags = fresh && at ? LAT_SAMPLE_F_NEWSTREAM : 0;

		if (fresh && streams == LAT_MAX_STREAMS) {
			ex->dropped_streams++;
			for (; i + 1 < n && ev[v[i + 1]].tid == e->tid; i++)
				ex->dropped_iters++;
			ex->dropped_iters++;
			continue;
		}
		if (fresh) {
			name_stream(run, ex, streams, e->pid, e->tid, NULL);
			pids[streams++] = e->pid;
		}
		run->samples[at++] = (struct lat_sample){ e->tsc_begin, e->tsc_end,
							  call_cpu_begin(ev, mig, e), e->cpu,
							  flags };
	}
	run->n = at;
	ex->threads = streams;
	ex->processes = count_pids(pids, streams);
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
	calls_to_samples(run, ex, ev, v, count, &mig);
	ret = 0;
out:
	free(v);
	free(mig.v);
	return ret;
}
