// SPDX-License-Identifier: MIT
/*
 * The BPF backend after the drain: drops still pending in the kernel become
 * lost records, times move from bpf_ktime_get_ns() to the TSC, and fault
 * ends nobody saw are bounded by the thread's next rdtscp (a user-mode
 * instruction, so the fault was over by then).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/evbuf.h"
#include "backend/bpf/latbpf.h"
#include "backend/bpf/latbpf_user.h"
#include "backend/bpf/ktime_tsc.h"
#include "workload/workload.h"

void lat_bpf_pending_lost(struct lat_evbuf *m, unsigned int cpu, const struct latbpf_cpu *c)
{
	struct latmon_event *e;

	if (cpu >= m->ncpus)
		cpu = m->ncpus - 1;
	if (m->cpu_dropped[cpu]) {	/* its records end in latctl's lost count */
		m->cpu_dropped[cpu] += c->lost;
		m->dropped += c->lost;
		if (c->lost_last > m->cpu_last_tsc[cpu])
			m->cpu_last_tsc[cpu] = c->lost_last;
		return;
	}
	e = &m->ev[m->n++];
	memset(e, 0, sizeof(*e));
	e->type = LATMON_EV_LOST;
	e->size = sizeof(*e);
	e->cpu = (uint16_t)cpu;
	e->seq = c->seq;
	e->tsc_begin = c->lost_first;
	e->tsc_end = c->lost_last;
	e->u.lost.count = c->lost;
	e->u.lost.cpu = cpu;
}

void lat_bpf_to_tsc(struct lat_evbuf *m, const struct lat_ktime_map *clock)
{
	size_t i;
	unsigned int cpu;

	for (i = 0; i < m->n; i++) {
		m->ev[i].tsc_begin = lat_ktime_to_tsc(clock, m->ev[i].tsc_begin);
		m->ev[i].tsc_end = lat_ktime_to_tsc(clock, m->ev[i].tsc_end);
	}
	for (cpu = 0; cpu < m->ncpus; cpu++)
		if (m->cpu_last_tsc[cpu])
			m->cpu_last_tsc[cpu] = lat_ktime_to_tsc(clock, m->cpu_last_tsc[cpu]);
}

/* The first TSC read of samples [first, end) after t: a sample's begin, or
 * the end of the sample t falls in; UINT64_MAX if none. */
static uint64_t next_read(const struct lat_sample *s, size_t first, size_t end, uint64_t t)
{
	size_t lo = first, hi = end, mid;

	while (lo < hi) {		/* first sample beginning after t */
		mid = lo + (hi - lo) / 2;
		if (s[mid].tsc_begin > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo > first && s[lo - 1].tsc_end > t)
		return s[lo - 1].tsc_end;
	return lo < end ? s[lo].tsc_begin : UINT64_MAX;
}

struct stream {
	size_t first, end;
	uint32_t tid;
};

/* The sample streams of the run, in *n. */
static struct stream *streams_of(const struct lat_run *run, size_t *n)
{
	size_t first = 0, i, count = 1;
	struct stream *v;

	for (i = 1; run && i < run->n; i++)
		count += !!(run->samples[i].flags & LAT_SAMPLE_F_NEWSTREAM);
	v = calloc(count, sizeof(*v));
	*n = 0;
	for (i = 1; v && run && i <= run->n; i++) {
		if (i < run->n && !(run->samples[i].flags & LAT_SAMPLE_F_NEWSTREAM))
			continue;
		v[*n] = (struct stream){ first, i, lat_run_tid(run, *n) };
		(*n)++;
		first = i;
	}
	return v;
}

/* The bound for a fault of thread tid that began at t. */
static uint64_t fault_bound(const struct lat_run *run, const struct stream *v, size_t n,
			    uint32_t tid, uint64_t t)
{
	uint64_t best = UINT64_MAX, b;
	size_t k;

	for (k = 0; k < n; k++) {
		if (v[k].tid != tid)
			continue;
		b = next_read(run->samples, v[k].first, v[k].end, t);
		best = b < best ? b : best;
	}
	return best;
}

/* With LATCTL_BPF_EVENTS=FILE: the records as the join gets them (on the
 * TSC, fault ends bounded; an open end still marked LATBPF_REC_OPEN_END in
 * the reserved field) into FILE, in /dev/latmon's format, for the tests to
 * hold against latmon's (`lmtool read --events FILE` prints them). */
static void save_events(const struct lat_evbuf *m)
{
	const char *path = getenv("LATCTL_BPF_EVENTS");
	FILE *f = path && *path ? fopen(path, "w") : NULL;
	size_t put;

	if (path && *path && !f)
		fprintf(stderr, "latctl: LATCTL_BPF_EVENTS: cannot create %s\n", path);
	if (!f)
		return;
	put = fwrite(m->ev, sizeof(*m->ev), m->n, f);
	if (fclose(f) || put != m->n)
		fprintf(stderr, "latctl: LATCTL_BPF_EVENTS: cannot write %s\n", path);
}

uint64_t lat_bpf_clip(struct lat_evbuf *m, const struct lat_run *run, uint64_t *clipped)
{
	uint64_t open = 0, bound;
	size_t i, n;
	struct stream *v = streams_of(run, &n);

	*clipped = 0;
	for (i = 0; i < m->n; i++) {
		struct latmon_event *e = &m->ev[i];

		if (e->type == LATMON_EV_FAULT && e->reserved == LATBPF_REC_OPEN_END) {
			open++;
			bound = v ? fault_bound(run, v, n, e->tid, e->tsc_begin) : UINT64_MAX;
			if (bound < e->tsc_end && bound >= e->tsc_begin) {
				e->tsc_end = bound;
				(*clipped)++;
			}
		}
	}
	free(v);
	save_events(m);
	for (i = 0; i < m->n; i++)
		m->ev[i].reserved = 0;
	return open;
}
