// SPDX-License-Identifier: MIT
/*
 * A program with latctl markers whose iterations do known work, for
 * tests/cli/wl_exec.t and the VM tests:
 *   markers_prog fault N        N iterations, each the first touch of a page
 *   markers_prog sleep N        N iterations, each a 3 ms sleep (a timer)
 *   markers_prog handoff N      N iterations, each waiting 2 ms for an
 *                               answer from a thread ("latctl-waker")
 *   markers_prog hog N          N iterations of 20 ms of work on CPU 0,
 *                               each waking a hog ("latctl-hog", SCHED_FIFO)
 *                               there at its middle for 30 ms of its own
 *   markers_prog threads T N    T threads at once, N fault iterations each
 *   markers_prog serial T N     T threads one after another, N each
 *   markers_prog fork N         N fault iterations in this process and N in
 *                               a forked child
 *   markers_prog misuse N       N iterations, then an end without a begin
 *   markers_prog endonly N      N ends, never a begin
 *                               and a begin while one is open
 * At the end it prints "minflt M" (getrusage of this process and its waited
 * children) and "iterations I".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <latctl.h>

static long n_iter;

static void touch_pages(long n)
{
	char *p = mmap(NULL, (size_t)n * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long i;

	if (p == MAP_FAILED)
		exit(1);
	madvise(p, (size_t)n * 4096, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++) {
		latctl_begin();
		p[i * 4096] = 1;
		latctl_end();
	}
	__atomic_fetch_add(&n_iter, n, __ATOMIC_RELAXED);
}

static void sleeps(long n)
{
	struct timespec ts = { 0, 3000000 };
	long i;

	for (i = 0; i < n; i++) {
		latctl_begin();
		nanosleep(&ts, NULL);
		latctl_end();
	}
	n_iter += n;
}

/* The waker of handoff(): each byte asked for is answered 2 ms later. */
static void *waker_main(void *arg)
{
	struct timespec ts = { 0, 2000000 };
	int *fd = arg;
	char c;

	prctl(PR_SET_NAME, "latctl-waker");
	while (read(fd[0], &c, 1) == 1) {
		nanosleep(&ts, NULL);
		if (write(fd[3], &c, 1) != 1)
			break;
	}
	return NULL;
}

/* n iterations that each ask a thread of this process and wait for its
 * answer: blocked, woken by that thread. */
static void handoff(long n)
{
	int fd[4];
	pthread_t th;
	char c = 0;
	long i;

	if (pipe(fd) || pipe(fd + 2) || pthread_create(&th, NULL, waker_main, fd))
		exit(1);
	for (i = 0; i < n; i++) {
		latctl_begin();
		if (write(fd[1], &c, 1) != 1 || read(fd[2], &c, 1) != 1)
			exit(1);
		latctl_end();
	}
	close(fd[1]);
	pthread_join(th, NULL);
	n_iter += n;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The same work as rounds_for's n rounds: longer when the CPU is shared. */
static void work(unsigned long n)
{
	volatile double sink = 0;

	while (n--)
		sink += now_s();
}

/* Rounds of work that take about s seconds of this thread's CPU time, so
 * as long on a busy box as on a quiet one. */
static unsigned long rounds_for(double s)
{
	double end = cpu_s() + s;
	unsigned long n = 0;

	while (cpu_s() < end) {
		work(1000);
		n += 1000;
	}
	return n;
}

#define HOG_NS	30000000LL	/* the hog's burst: longer than other tasks' turns */

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The hog: woken by a byte on fd, spins 30 ms by the clock (not by a
 * count of rounds, which a loaded box's calibration makes short), then
 * waits again. At SCHED_FIFO it preempts the program the moment the
 * program wakes it and keeps the CPU for all of it, so the longest
 * preemption of every iteration is the hog's, whatever else the box runs
 * (their turns last a few ms); where real-time is refused it runs at
 * nice -5. */
static void hog_main(int fd)
{
	struct sched_param sp = { .sched_priority = 1 };
	long long end;
	char c;

	prctl(PR_SET_NAME, "latctl-hog");
	if (sched_setscheduler(0, SCHED_FIFO, &sp) && setpriority(PRIO_PROCESS, 0, -5))
		(void)0;
	while (read(fd, &c, 1) == 1)
		for (end = mono_ns() + HOG_NS; mono_ns() < end;)
			;
	_exit(0);
}

static void beside_hog(long n)
{
	unsigned long r;
	int fd[2];
	pid_t hog;
	long i;

	pin(0);
	r = rounds_for(0.01);
	if (pipe(fd))
		exit(1);
	hog = fork();
	if (hog == 0) {
		close(fd[1]);
		hog_main(fd[0]);
	}
	close(fd[0]);
	for (i = 0; i < n; i++) {
		latctl_begin();
		work(r);		/* 10 ms, the hog's 30 ms, 10 ms */
		if (write(fd[1], "", 1) != 1)
			exit(1);
		work(r);
		latctl_end();
	}
	close(fd[1]);
	waitpid(hog, NULL, 0);
	n_iter += n;
}

static void *thread_main(void *arg)
{
	touch_pages((long)arg);
	return NULL;
}

/* t threads of n fault iterations each: all at once, or one after another
 * (each joined before the next starts). */
static void threads(int t, long n, int serial)
{
	pthread_t *th = calloc(t > 0 ? t : 1, sizeof(*th));
	int i;

	for (i = 0; th && i < t; i++) {
		pthread_create(&th[i], NULL, thread_main, (void *)n);
		if (serial)
			pthread_join(th[i], NULL);
	}
	for (i = 0; th && !serial && i < t; i++)
		pthread_join(th[i], NULL);
	free(th);
}

static void forked(long n)
{
	pid_t c = fork();

	touch_pages(n);
	if (c == 0)
		exit(0);
	waitpid(c, NULL, 0);
	n_iter += n;		/* the child's */
}

static void misuse(long n)
{
	touch_pages(n);
	latctl_end();		/* no begin */
	latctl_begin();
	latctl_begin();		/* the first is dropped */
	latctl_end();
	n_iter++;
}

/* Ends only: a program that uses the markers wrongly. */
static void ends_only(long n)
{
	for (long i = 0; i < n; i++)
		latctl_end();
}

int main(int argc, char **argv)
{
	struct rusage self, kids;
	long n = argc > 2 ? atol(argv[argc - 1]) : 1000;

	if (argc < 2)
		return fprintf(stderr,
			       "usage: markers_prog fault|sleep|handoff|hog|threads|serial|fork|misuse|endonly [T] N\n"),
		       2;
	if (!strcmp(argv[1], "fault"))
		touch_pages(n);
	else if (!strcmp(argv[1], "sleep"))
		sleeps(n);
	else if (!strcmp(argv[1], "hog"))
		beside_hog(n);
	else if (!strcmp(argv[1], "handoff"))
		handoff(n);
	else if (!strcmp(argv[1], "threads") && argc == 4)
		threads(atoi(argv[2]), n, 0);
	else if (!strcmp(argv[1], "serial") && argc == 4)
		threads(atoi(argv[2]), n, 1);
	else if (!strcmp(argv[1], "fork"))
		forked(n);
	else if (!strcmp(argv[1], "misuse"))
		misuse(n);
	else if (!strcmp(argv[1], "endonly"))
		ends_only(n);
	else
		return fprintf(stderr, "markers_prog: unknown kind %s\n", argv[1]), 2;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	printf("minflt %ld\niterations %ld\nactive %d\n", self.ru_minflt + kids.ru_minflt, n_iter,
	       latctl_active());
	return 0;
}
