// SPDX-License-Identifier: MIT
/* The record buffer both backends fill (evbuf.h). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/evbuf.h"

#define STACK_WARM (64 * 1024)

void lat_evbuf_init(struct lat_evbuf *b, uint64_t events)
{
	memset(b, 0, sizeof(*b));
	b->reader_cpu = -1;
	b->fault_ahead = 1;
	b->cap = events ? events : LAT_EVBUF_DEFAULT_EVENTS;
}

/* The record buffer (written now if fault_ahead) and the per-CPU drop
 * counts. */
int lat_evbuf_alloc(struct lat_evbuf *b)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);

	b->ncpus = conf > 0 ? (unsigned int)conf : 1;
	b->n_lost_slots = 2 * b->ncpus;	/* latctl's, and the BPF backend's pending */
	b->map_bytes = (b->cap + b->n_lost_slots) * sizeof(*b->ev);
	b->ev = mmap(NULL, b->map_bytes, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->ev == MAP_FAILED) {
		b->ev = NULL;
		return -ENOMEM;
	}
	/* no huge pages: they belong to the workload, as does AnonHugePages */
	madvise(b->ev, b->map_bytes, MADV_NOHUGEPAGE);
	if (b->fault_ahead)
		memset(b->ev, 0, b->map_bytes);
	b->cpu_dropped = malloc(b->ncpus * sizeof(*b->cpu_dropped));
	b->cpu_last_tsc = malloc(b->ncpus * sizeof(*b->cpu_last_tsc));
	if (!b->cpu_dropped || !b->cpu_last_tsc)
		return -ENOMEM;
	memset(b->cpu_dropped, 0, b->ncpus * sizeof(*b->cpu_dropped));
	memset(b->cpu_last_tsc, 0, b->ncpus * sizeof(*b->cpu_last_tsc));
	memset(b->scratch, 0, sizeof(b->scratch));
	return 0;
}

/* Pin the calling thread to the first CPU other than avoid that takes it. */
int lat_evbuf_pin_elsewhere(int avoid)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int cpu;

	for (cpu = 0; n > 1 && cpu < CPU_SETSIZE; cpu++) {
		if (cpu == avoid)
			continue;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (!sched_setaffinity(0, sizeof(set), &set))
			return cpu;
	}
	return -1;
}

/* Touch STACK_WARM bytes of stack, so reading never faults it in. */
void __attribute__((noinline)) lat_evbuf_warm_stack(void)
{
	volatile char buf[STACK_WARM];
	size_t i;

	for (i = 0; i < sizeof(buf); i += 4096)
		buf[i] = 0;
}

/* Make the per-CPU tables hold CPU cpu (a CPU id past the configured
 * count: the tables follow what arrives). 0 or -ENOMEM. */
static int cover_cpu(struct lat_evbuf *b, unsigned int cpu)
{
	unsigned int n = b->ncpus, i;
	uint64_t *d, *t;

	if (cpu < n)
		return 0;
	while (n <= cpu)
		n *= 2;
	d = realloc(b->cpu_dropped, n * sizeof(*d));
	if (d)
		b->cpu_dropped = d;
	t = d ? realloc(b->cpu_last_tsc, n * sizeof(*t)) : NULL;
	if (!t)
		return -ENOMEM;
	b->cpu_last_tsc = t;
	for (i = b->ncpus; i < n; i++)
		d[i] = t[i] = 0;
	b->ncpus = n;
	return 0;
}

/* A record that did not fit: counted per CPU as lost by latctl. */
void lat_evbuf_drop(struct lat_evbuf *b, const struct latmon_event *e)
{
	uint64_t n = e->type == LATMON_EV_LOST ? e->u.lost.count : 1;

	b->dropped += n;
	if (cover_cpu(b, e->cpu))
		return;		/* counted in dropped, not per CPU */
	b->cpu_dropped[e->cpu] += n;
	if (e->tsc_end > b->cpu_last_tsc[e->cpu])
		b->cpu_last_tsc[e->cpu] = e->tsc_end;
}

/* After the drain: one lost record per CPU where latctl's buffer dropped. */
void lat_evbuf_add_own_lost(struct lat_evbuf *b)
{
	uint64_t *next = calloc(b->ncpus, sizeof(*next));
	size_t i;
	unsigned int cpu;

	for (i = 0; next && i < b->n; i++)
		if (b->ev[i].cpu < b->ncpus && b->ev[i].seq + 1 > next[b->ev[i].cpu])
			next[b->ev[i].cpu] = b->ev[i].seq + 1;
	for (cpu = 0; cpu < b->ncpus && b->n < b->cap + b->n_lost_slots; cpu++) {
		struct latmon_event *e = &b->ev[b->n];

		if (!b->cpu_dropped[cpu])
			continue;
		memset(e, 0, sizeof(*e));
		e->type = LATMON_EV_LOST;
		e->size = sizeof(*e);
		e->cpu = cpu;
		e->pid = e->tid = (uint32_t)getpid();
		e->seq = next ? next[cpu] : 0;
		e->tsc_begin = e->tsc_end = b->cpu_last_tsc[cpu];
		e->u.lost.count = b->cpu_dropped[cpu];
		e->u.lost.cpu = cpu;
		b->n++;
	}
	free(next);
}

void lat_evbuf_free(struct lat_evbuf *b)
{
	if (b->ev)
		munmap(b->ev, b->map_bytes);
	free(b->cpu_dropped);
	free(b->cpu_last_tsc);
	b->ev = NULL;
	b->cpu_dropped = b->cpu_last_tsc = NULL;
}
