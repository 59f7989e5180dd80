// SPDX-License-Identifier: MIT
/*
 * lmprocs: targets that span processes and system calls, for the VM tests of
 * latmon's fork following, syscall and wait sources. Between the two sync
 * points (sync.h) it runs one of:
 *
 *   lmprocs fork --threads T [--pages N]   T threads, all alive at once,
 *       each forks a child that touches N pages and exits; prints every child's pid and its
 *       own minor faults (wait4), then the totals
 *   lmprocs contend --seconds S [--alone]  the main thread maps, touches
 *       and unmaps 16 pages in a loop while a second thread flips the
 *       protection of a region with mprotect (both take mmap_lock for
 *       writing); --alone: no second thread
 *   lmprocs getppid --calls N [--timing]   N getppid() calls, each timed
 *       with the TSC when --timing (the probe-cost benchmark)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats/stats.h"
#include "sync.h"
#include "lib/tsc.h"

#define PAGE		4096UL
#define MAX_THREADS	1024

struct procs_opts {
	unsigned long threads, pages, calls;
	double seconds;
	int alone, timing;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: lmprocs fork --threads T [--pages N]\n"
		   "       lmprocs contend --seconds S [--alone]\n"
		   "       lmprocs getppid --calls N [--timing]\n");
}

static int parse_opts(int argc, char **argv, struct procs_opts *o)
{
	static const struct option longopts[] = {
		{ "alone", no_argument, NULL, 'a' },
		{ "calls", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "pages", required_argument, NULL, 'p' },
		{ "seconds", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 'T' },
		{ "timing", no_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->pages = 16;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': o->alone = 1; break;
		case 'c': o->calls = strtoul(optarg, NULL, 0); break;
		case 'p': o->pages = strtoul(optarg, NULL, 0); break;
		case 's': o->seconds = strtod(optarg, NULL); break;
		case 'T': o->threads = strtoul(optarg, NULL, 0); break;
		case 't': o->timing = 1; break;
		case 'h': usage(stdout); exit(0);
		default: return -EINVAL;
		}
	}
	return 0;
}

/* Touch n fresh pages. */
static int touch_pages(unsigned long n)
{
	char *p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long i;

	if (p == MAP_FAILED)
		return -errno;
	for (i = 0; i < n; i++)
		p[i * PAGE] = 1;
	return 0;
}

struct forker {
	pthread_t thread;
	unsigned long pages;
	pid_t child;
	long minflt;
	int ret;
};

/* The forkers start together, once all exist: all are alive at once. */
static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int go;

static void go_wait(void)
{
	pthread_mutex_lock(&go_lock);
	while (!go)
		pthread_cond_wait(&go_cond, &go_lock);
	pthread_mutex_unlock(&go_lock);
}

static void go_all(void)
{
	pthread_mutex_lock(&go_lock);
	go = 1;
	pthread_cond_broadcast(&go_cond);
	pthread_mutex_unlock(&go_lock);
}

/* A thread that forks one child, which touches pages and exits. */
static void *forker_main(void *arg)
{
	struct forker *f = arg;
	struct rusage ru;
	int status;

	go_wait();
	f->child = fork();
	if (f->child < 0) {
		f->ret = -errno;
		return NULL;
	}
	if (f->child == 0)
		_exit(touch_pages(f->pages) ? 1 : 0);
	if (wait4(f->child, &status, 0, &ru) < 0)
		f->ret = -errno;
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		f->ret = -ECHILD;
	f->minflt = ru.ru_minflt;
	return NULL;
}

/*
 * Wait until this process has one thread left: pthread_join returns when a
 * thread's mm is released, before its exit is complete (sched_process_exit).
 */
static void wait_single_thread(void)
{
	for (int i = 0; i < 500; i++) {
		DIR *d = opendir("/proc/self/task");
		struct dirent *e;
		int n = 0;

		while (d && (e = readdir(d)))
			n += e->d_name[0] != '.';
		if (d)
			closedir(d);
		if (n <= 1)
			return;
		usleep(10000);
	}
}

static int run_fork(const struct procs_opts *o)
{
	struct forker *f = calloc(o->threads, sizeof(*f));
	unsigned long i, started = 0;
	long total = 0;
	int ret = 0;

	if (!f)
		return -ENOMEM;
	for (i = 0; i < o->threads; i++) {
		f[i].pages = o->pages;
		if (pthread_create(&f[i].thread, NULL, forker_main, &f[i]))
			break;
		started++;
	}
	go_all();
	for (i = 0; i < started; i++) {
		pthread_join(f[i].thread, NULL);
		ret = ret ? ret : f[i].ret;
		printf("lmprocs: child pid=%d minflt=%ld\n", (int)f[i].child, f[i].minflt);
		total += f[i].minflt;
	}
	wait_single_thread();
	printf("lmprocs: threads=%lu children=%lu child_minflt=%ld\n", started, started, total);
	free(f);
	return started == o->threads ? ret : -EAGAIN;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct flipper {
	char *region;
	volatile int stop;
	unsigned long flips;
};

/* Flip the protection of a region until told to stop (mmap_lock, write). */
static void *flipper_main(void *arg)
{
	struct flipper *fl = arg;

	while (!fl->stop) {
		mprotect(fl->region, 64 * PAGE, (fl->flips & 1) ? PROT_READ :
			 PROT_READ | PROT_WRITE);
		fl->flips++;
	}
	return NULL;
}

static int run_contend(const struct procs_opts *o)
{
	struct flipper fl = { 0 };
	pthread_t t;
	unsigned long rounds = 0;
	double end = now() + o->seconds;

	fl.region = mmap(NULL, 64 * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fl.region == MAP_FAILED)
		return -errno;
	if (!o->alone && pthread_create(&t, NULL, flipper_main, &fl))
		return -EAGAIN;
	while (now() < end) {
		char *p = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			break;
		for (unsigned long i = 0; i < 16; i++)
			p[i * PAGE] = 1;
		munmap(p, 16 * PAGE);
		rounds++;
	}
	fl.stop = 1;
	if (!o->alone)
		pthread_join(t, NULL);
	printf("lmprocs: rounds=%lu flips=%lu\n", rounds, fl.flips);
	return 0;
}

/* N getppid() calls, each timed when timing; prints the p50 per call. */
static int run_getppid(const struct procs_opts *o)
{
	double *ns = o->timing ? calloc(o->calls, sizeof(*ns)) : NULL;
	double hz = lat_tsc_hz();
	struct lat_summary s;
	uint16_t cpu;

	if (o->timing && !ns)
		return -ENOMEM;
	for (unsigned long i = 0; i < o->calls; i++) {
		uint64_t t0 = lat_tsc(&cpu);

		syscall(SYS_getppid);
		if (ns)
			ns[i] = (double)(lat_tsc(&cpu) - t0);
	}
	if (ns && lat_summary_compute(ns, o->calls, &s) == 0)
		printf("lmprocs: timed=%lu p50_cycles=%.0f p50_ns=%.1f p90_cycles=%.0f\n",
		       o->calls, s.p50, s.p50 * 1e9 / hz, s.p90);
	free(ns);
	return 0;
}

struct mode {
	const char *name;
	int (*run)(const struct procs_opts *o);
	int (*valid)(const struct procs_opts *o);
};

static int fork_valid(const struct procs_opts *o)
{
	return o->threads > 0 && o->threads <= MAX_THREADS;
}

static int contend_valid(const struct procs_opts *o)
{
	return o->seconds > 0;
}

static int getppid_valid(const struct procs_opts *o)
{
	return o->calls > 0;
}

static const struct mode modes[] = {
	{ "fork", run_fork, fork_valid },
	{ "contend", run_contend, contend_valid },
	{ "getppid", run_getppid, getppid_valid },
};

int main(int argc, char **argv)
{
	struct procs_opts o;
	const struct mode *m = NULL;
	int ret;

	for (size_t i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[1], modes[i].name))
			m = &modes[i];
	if (!m || parse_opts(argc - 1, argv + 1, &o) < 0 || !m->valid(&o)) {
		usage(stderr);
		return 2;
	}
	lat_tsc_hz();	/* calibrate before the recorded part */
	if (lm_sync() < 0)
		return 1;
	ret = m->run(&o);
	if (lm_sync() < 0)
		return 1;
	if (ret < 0) {
		fprintf(stderr, "lmprocs %s: %s\n", m->name, strerror(-ret));
		return 1;
	}
	return 0;
}
