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
#include "backend/reads.h"
#include "backend/bpf/latbpf.h"
#include "backend/bpf/latbpf_user.h"
#include "backend/bpf/ktime_tsc.h"
#include "system/memmap.h"
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
	struct lat_reads *reads = lat_reads_new(run);
	uint64_t open = 0, bound;
	size_t i;

	*clipped = 0;
	for (i = 0; i < m->n; i++) {
		struct latmon_event *e = &m->ev[i];

		if ((e->type == LATMON_EV_FAULT || e->type == LATMON_EV_THP_CLEAR) &&
		    e->reserved == LATBPF_REC_OPEN_END) {
			open += e->type == LATMON_EV_FAULT;
			bound = lat_reads_next(reads, e->tid, e->tsc_begin);
			if (bound < e->tsc_end && bound >= e->tsc_begin) {
				e->tsc_end = bound;
				(*clipped)++;
			}
		}
	}
	lat_reads_free(reads);
	save_events(m);
	for (i = 0; i < m->n; i++)
		m->ev[i].reserved = 0;
	return open;
}

/* The kind the BPF program told, where it depends on the mapping: a new
 * anonymous page on a private file is a copy of the file's page; a write
 * to a present page of a shared mapping is write access given back. */
static void refine_kind(struct latmon_fault *f)
{
	if (f->kind == LATMON_FK_ANON && f->map == LATMON_MAP_FILE_PRIVATE)
		f->kind = LATMON_FK_COW;
	else if (f->kind == LATMON_FK_COW && f->map == LATMON_MAP_FILE_SHARED)
		f->kind = LATMON_FK_WP;
	else if (f->kind == LATMON_FK_ZERO && f->map != LATMON_MAP_ANON &&
		 f->map != LATMON_MAP_HEAP && f->map != LATMON_MAP_STACK)
		f->kind = LATMON_FK_OTHER; /* a read of a file maps a file page */
}

void lat_bpf_fault_maps(struct lat_evbuf *m, bool file_told)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		struct latmon_event *e = &m->ev[i];
		const struct lat_mapping *map;

		if (e->type != LATMON_EV_FAULT || e->u.fault.map)
			continue;
		map = lat_memmap_find((pid_t)e->pid, e->u.fault.address, 0);
		if (!map || map->start > e->u.fault.address) {
			if (e->u.fault.kind == LATMON_FK_ANON && !file_told) {
				e->u.fault.kind = LATMON_FK_UNKNOWN; /* a private file's? */
				e->u.fault.why = LATMON_FKW_NO_VMA;
			}
			continue;
		}
		e->u.fault.map = lat_mapping_map(map);
		e->u.fault.ino = map->ino;
		refine_kind(&e->u.fault);
	}
}
