// SPDX-License-Identifier: MIT
/*
 * lmtouch: fault in N fresh 4 KiB pages or M aligned 2 MiB regions and print
 * the process's own getrusage minor-fault delta, the ground truth the latmon
 * tests compare the module's fault records with. With --timing each touch is
 * timed with the TSC and the p50 per fault printed (the probe-cost benchmark).
 *
 *   lmtouch --pages N [--repeat R] [--timing] [--hop] [--threads T]
 *   lmtouch --huge M
 *
 * --hop moves the process to the next CPU every HOP_PAGES touches, so that
 * its faults land in every CPU's ring (the accounting test t-55).
 * --threads T splits the pages over T threads, thread i on CPU i mod ncpu,
 * so that faults of the target overlap (the probe-miss test t-56).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <unistd.h>
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "stats/stats.h"
#include "sync.h"
#include "lib/tsc.h"

#define PAGE		4096UL
#define HUGE_SIZE	(2UL << 20)
#define HOP_PAGES	64

struct touch_opts {
	unsigned long pages;	/* 4 KiB pages, or */
	unsigned long huge;	/* 2 MiB regions */
	unsigned long repeat;
	int timing;
	int hop;
	unsigned long threads;
};

struct touch_result {
	uintptr_t start, end;	/* the touched range of the last round */
	long minflt, majflt;	/* getrusage deltas over all rounds */
	double *ns;		/* per-touch times when timing */
	size_t nns;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: lmtouch --pages N [--repeat R] [--timing] [--hop] [--threads T] | --huge M\n"
		   "  --huge M     touch M aligned 2 MiB regions (THP must be 'always')\n"
		   "  --pages N    touch N fresh 4 KiB pages (THP disabled on them)\n"
		   "  --repeat R   do it R times on fresh mappings (default 1)\n"
		   "  --timing     time each touch, print the p50 per fault\n"
		   "  --hop        change CPU every 64 touches\n"
		   "  --threads T  split the pages over T threads on all CPUs\n"
		   "example: lmtouch --pages 1000\n");
}

static int parse_opts(int argc, char **argv, struct touch_opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "hop", no_argument, NULL, 'o' },
		{ "huge", required_argument, NULL, 'H' },
		{ "pages", required_argument, NULL, 'p' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "timing", no_argument, NULL, 't' },
		{ "threads", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	*o = (struct touch_opts){ .repeat = 1, .threads = 1 };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'H': o->huge = strtoul(optarg, NULL, 0); break;
		case 'p': o->pages = strtoul(optarg, NULL, 0); break;
		case 'r': o->repeat = strtoul(optarg, NULL, 0); break;
		case 't': o->timing = 1; break;
		case 'o': o->hop = 1; break;
		case 'T': o->threads = strtoul(optarg, NULL, 0); break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (!o->pages == !o->huge || !o->repeat || !o->threads || optind != argc ||
	    (o->threads > 1 && (o->timing || o->huge || o->pages % o->threads))) {
		fprintf(stderr, "lmtouch: give exactly one of --pages N or --huge M (N, M > 0); --threads T "
				"needs --pages a multiple of T, no --timing\n");
		return -EINVAL;
	}
	return 0;
}

/* Map len bytes aligned to align, with THP allowed or not. */
static char *map_aligned(size_t len, size_t align, int thp)
{
	char *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
	madvise((void *)a, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	return (char *)a;
}

/* Move to the CPU after the current one (no page is touched). */
static void hop_cpu(void)
{
	static long ncpu;
	cpu_set_t set;

	if (!ncpu)
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	CPU_ZERO(&set);
	CPU_SET((sched_getcpu() + 1) % ncpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* One round: touch every step-th byte of a fresh mapping. */
static int touch_round(const struct touch_opts *o, struct touch_result *r)
{
	size_t step = o->huge ? HUGE_SIZE : PAGE;
	size_t n = o->huge ? o->huge : o->pages, i;
	char *p = map_aligned(n * step, o->huge ? HUGE_SIZE : PAGE, o->huge != 0);
	uint64_t t0, t1;
	uint16_t cpu;

	if (!p)
		return -errno;
	for (i = 0; i < n; i++) {
		if (o->hop && i % HOP_PAGES == HOP_PAGES - 1)
			hop_cpu();
		t0 = lat_tsc(&cpu);
		p[i * step] = 1;
		t1 = lat_tsc(&cpu);
		if (r->ns)
			r->ns[r->nns++] = (double)(t1 - t0);
	}
	r->start = (uintptr_t)p;
	r->end = (uintptr_t)p + n * step;
	return 0;
}

/* Every round of one thread. */
static int touch_rounds(const struct touch_opts *o, struct touch_result *r)
{
	unsigned long i;
	int ret = 0;

	for (i = 0; i < o->repeat && !ret; i++)
		ret = touch_round(o, r);
	return ret;
}

struct worker {
	pthread_t thread;
	struct touch_opts opts;	/* its share of the pages */
	struct touch_result res;
	int cpu, ret;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	w->ret = touch_rounds(&w->opts, &w->res);
	return NULL;
}

/* --threads T: T workers, each on its own CPU (mod ncpu) and its share. */
static int touch_threads(const struct touch_opts *o, struct touch_result *r)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct worker *w = calloc(o->threads, sizeof(*w));
	unsigned long i, started = 0;
	int ret = 0;

	if (!w)
		return -ENOMEM;
	for (i = 0; i < o->threads; i++) {
		w[i].opts = *o;
		w[i].opts.pages = o->pages / o->threads;
		w[i].cpu = (int)(i % ncpu);
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]))
			break;
		started++;
	}
	for (i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		ret = ret ? ret : w[i].ret;
	}
	if (started) {
		r->start = w[started - 1].res.start;
		r->end = w[started - 1].res.end;
	}
	free(w);
	return started == o->threads ? ret : -EAGAIN;
}

/* All rounds between the two sync points, getrusage around them. */
static int touch_all(const struct touch_opts *o, struct touch_result *r)
{
	struct rusage before, after;
	int ret;

	if (getrusage(RUSAGE_SELF, &before) < 0 || lm_sync() < 0)
		return -errno;
	ret = o->threads > 1 ? touch_threads(o, r) : touch_rounds(o, r);
	if (getrusage(RUSAGE_SELF, &after) < 0 || lm_sync() < 0)
		return -errno;
	r->minflt = after.ru_minflt - before.ru_minflt;
	r->majflt = after.ru_majflt - before.ru_majflt;
	return ret;
}

/* p50 of the per-touch TSC deltas, in cycles and ns. */
static void print_timing(struct touch_result *r)
{
	double hz = lat_tsc_hz();
	struct lat_summary s;

	if (lat_summary_compute(r->ns, r->nns, &s) < 0)
		return;
	printf("lmtouch: timed=%zu p50_cycles=%.0f p50_ns=%.1f p90_cycles=%.0f\n",
	       r->nns, s.p50, s.p50 * 1e9 / hz, s.p90);
}

int main(int argc, char **argv)
{
	struct touch_result r = { 0 };
	struct touch_opts o;
	size_t n;
	int ret;

	if (parse_opts(argc, argv, &o) < 0)
		return 2;
	n = (o.huge ? o.huge : o.pages) * o.repeat;
	if (o.timing) {
		lat_tsc_hz();	/* calibrate before the measured part */
		r.ns = calloc(n, sizeof(*r.ns));
		if (!r.ns) {
			fprintf(stderr, "lmtouch: cannot allocate %zu timings\n", n);
			return 1;
		}
		memset(r.ns, 0, n * sizeof(*r.ns));	/* fault it in now */
	}
	ret = touch_all(&o, &r);
	if (ret < 0) {
		fprintf(stderr, "lmtouch: mmap of the test region failed: %s\n", strerror(-ret));
		return 1;
	}
	printf("lmtouch: start=0x%lx end=0x%lx touched=%zu minflt=%ld majflt=%ld\n",
	       (unsigned long)r.start, (unsigned long)r.end, n, r.minflt, r.majflt);
	if (o.timing)
		print_timing(&r);
	free(r.ns);
	return 0;
}
