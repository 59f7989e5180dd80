// SPDX-License-Identifier: MIT
/*
 * Cost of the BPF backend per page fault at real speed: fresh 4 KiB pages
 * and 2 MiB huge pages (MADV_HUGEPAGE; THP enabled must be always or
 * madvise) touched one by one, each touch timed with the TSC, with nothing
 * attached and with the BPF backend recording this process, interleaved over
 * R runs; prints the median over runs of each run's p50 per fault. With
 * "fork", the pages are touched by a forked child each time (a process the
 * backend follows through its map of forked processes).
 *
 *   bench_bpf [PAGES [HUGE [RUNS [fork]]]]      (defaults 50000 32 7)
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "backend/backend.h"
#include "backend/bpf/latbpf_user.h"
#include "backend/monitor.h"
#include "stats/stats.h"
#include "lib/tsc.h"

#define PAGE	4096UL
#define HUGE	(2UL << 20)

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* p50 in ns of touching n fresh regions of step bytes, one byte each. */
static double touch_p50(size_t n, size_t step, int huge, double hz)
{
	char *raw = mmap(NULL, n * step + HUGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double *ns = malloc(n * sizeof(*ns)), p50;
	char *p;
	uint64_t t0, t1;
	uint16_t cpu;
	size_t i;

	if (raw == MAP_FAILED || !ns) {
		fprintf(stderr, "bench_bpf: no memory for %zu x %zu bytes\n", n, step);
		exit(1);
	}
	memset(ns, 0, n * sizeof(*ns));
	p = (char *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
	madvise(p, n * step, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++) {
		t0 = lat_tsc(&cpu);
		p[i * step] = 1;
		t1 = lat_tsc(&cpu);
		ns[i] = (double)(t1 - t0) * 1e9 / hz;
	}
	munmap(raw, n * step + HUGE);
	qsort(ns, n, sizeof(*ns), cmp_double);
	p50 = lat_percentile_sorted(ns, n, 50);
	free(ns);
	return p50;
}

/* touch_p50() in a forked child; its result through a pipe. */
static double touch_p50_forked(size_t n, size_t step, int huge, double hz)
{
	double p50 = 0;
	int fds[2];
	pid_t pid;

	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		perror("bench_bpf: fork");
		exit(1);
	}
	if (pid == 0) {
		p50 = touch_p50(n, step, huge, hz);
		_exit(write(fds[1], &p50, sizeof(p50)) == sizeof(p50) ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], &p50, sizeof(p50)) != sizeof(p50) || waitpid(pid, NULL, 0) < 0) {
		fprintf(stderr, "bench_bpf: the child gave no result\n");
		exit(1);
	}
	close(fds[0]);
	return p50;
}

/* The BPF backend recording this process, as `latctl run --backend bpf`. */
static void bpf_on(struct lat_session *s)
{
	if (lat_backend_open(s, "bpf", 0, 0, 0) || lat_backend_start(s, sched_getcpu()) ||
	    s->ops != lat_backend_named("bpf")) {
		fprintf(stderr, "bench_bpf: %s\n", s->why);
		exit(1);
	}
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median over runs of (BPF - nothing) of kind k (0: 4 KiB, 1: 2 MiB); sorts
 * a copy, so the medians printed before stay right. */
static double paired(double v[2][2][64], int k, size_t runs)
{
	double d[64];
	size_t r;

	for (r = 0; r < runs; r++)
		d[r] = v[1][k][r] - v[0][k][r];
	return median(d, runs);
}

int main(int argc, char **argv)
{
	size_t pages = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000;
	size_t huge = argc > 2 ? strtoul(argv[2], NULL, 0) : 32;
	size_t runs = argc > 3 ? strtoul(argv[3], NULL, 0) : 7, r, k;
	int forked = argc > 4 && !strcmp(argv[4], "fork");
	double (*touch)(size_t, size_t, int, double) = forked ? touch_p50_forked : touch_p50;
	double hz = lat_tsc_hz(), v[2][2][64];
	struct lat_session m;
	const char *name[2] = { "nothing", "BPF backend" };

	if (!pages || !huge || !runs || runs > 64 || (argc > 4 && !forked))
		return 2;
	for (r = 0; r < runs; r++) {
		for (k = 0; k < 2; k++) {
			size_t b = (r + k) % 2;		/* alternate which goes first */

			if (b)
				bpf_on(&m);
			v[b][0][r] = touch(pages, PAGE, 0, hz);
			v[b][1][r] = touch(huge, HUGE, 1, hz);
			if (b)
				lat_backend_close(&m);
		}
	}
	printf("%zu runs interleaved, p50 per fault (median over runs), %zu x 4 KiB, %zu x 2 MiB%s\n",
	       runs, pages, huge, forked ? ", in a forked child" : "");
	for (k = 0; k < 2; k++) {
		double a[64], b[64];

		memcpy(a, v[k][0], sizeof(a));
		memcpy(b, v[k][1], sizeof(b));
		printf("  %-12s 4 KiB %7.0f ns   2 MiB %9.0f ns\n", name[k],
		       median(a, runs), median(b, runs));
	}
	printf("  added        4 KiB %+7.0f ns   2 MiB %+9.0f ns   (median of the runs' differences)\n",
	       paired(v, 0, runs), paired(v, 1, runs));
	return 0;
}
