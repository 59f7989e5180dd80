// SPDX-License-Identifier: MIT
/*
 * What a page fault costs user space on this machine, by kind, without
 * any tracing: each access timed with the TSC, one per 4 KiB page of
 * fresh anonymous memory (no huge pages), pinned by the caller. Rows:
 * a pair of TSC reads; a system call round trip (getppid); a read fault
 * (of the zero page where the kernel maps it: the resident pages it
 * added, measured here, say which); the write after it (a copy-on-write
 * of the zero page, or no fault where the read mapped a page of its own);
 * a write fault on fresh memory; and a write to each page of a
 * MAP_POPULATE mapping, the first and the second time (the guest's
 * kernel mapped those pages: a first write slower than the second is a
 * cost the guest does not see, such as a hypervisor filling its own
 * page table); then the kinds the others leave out: a write to a page
 * shared with a forked child (cow), a read of a file's page found in the
 * page cache (file) and one read from storage after the file's pages were
 * dropped (file-io, at most 2048 pages), the file an unnamed one in
 * $LATCTL_FILE_DIR or /var/tmp. The faults this process took during each
 * row are shown.
 *
 *   bench_faults [PAGES]      (default 100000)
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "lib/tsc.h"

#define PAGE 4096UL

struct row {
	const char *name;
	size_t n;
	uint64_t *t; /* ticks of each access */
	long faults;
};

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static long minflt(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return r.ru_minflt + r.ru_majflt;
}

static void print_row(const struct row *r, double hz)
{
	qsort(r->t, r->n, sizeof(*r->t), cmp_u64);
	printf("  %-36s %8ld %9.0f %9.0f %9.0f\n", r->name, r->faults,
	       (double)r->t[r->n / 10] * 1e9 / hz, (double)r->t[r->n / 2] * 1e9 / hz,
	       (double)r->t[r->n * 9 / 10] * 1e9 / hz);
}

/* One access kind, n times, stride pages apart: 0 nothing, 1 getppid,
 * 2 read p, 3 write p. */
static void time_stride(struct row *r, int kind, volatile char *p, double hz, size_t stride)
{
	uint64_t a;
	uint16_t cpu;
	long f0 = minflt();
	size_t i;

	for (i = 0; i < r->n; i++) {
		a = lat_tsc(&cpu);
		if (kind == 1)
			syscall(SYS_getppid);
		else if (kind == 2)
			(void)p[i * stride * PAGE];
		else if (kind == 3)
			p[i * stride * PAGE] = 1;
		r->t[i] = lat_tsc(&cpu) - a;
	}
	r->faults = minflt() - f0;
	print_row(r, hz);
}

static void time_row(struct row *r, int kind, volatile char *p, double hz)
{
	time_stride(r, kind, p, hz, 1);
}

/* Resident pages of this process (/proc/self/statm); the zero page is
 * not counted. */
static long resident(void)
{
	long size = 0, rss = -1;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f && fscanf(f, "%ld %ld", &size, &rss) != 2)
		rss = -1;
	if (f)
		fclose(f);
	return rss;
}

static volatile char *map(size_t n, int flags)
{
	void *p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags,
		       -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "bench_faults: no memory for %zu pages\n", n);
		exit(1);
	}
	madvise(p, n * PAGE, MADV_NOHUGEPAGE);
	return p;
}

/* Written pages shared with a forked child that waits, written again. */
static void fork_row(struct row *r, double hz)
{
	volatile char *p = map(r->n, 0);
	pid_t child;

	for (size_t i = 0; i < r->n; i++)
		p[i * PAGE] = 1;
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	r->name = "write after fork (cow)";
	time_row(r, 3, p, hz);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	munmap((void *)p, r->n * PAGE);
}

/* An unnamed file of n pages, written, mapped for reading page by page
 * (MADV_RANDOM: no fault-around, no readahead); NULL where none can be made. */
static volatile char *file_map(size_t n, int *fd)
{
	const char *dir = getenv("LATCTL_FILE_DIR");
	static char buf[PAGE];
	void *p;

	*fd = open(dir && *dir ? dir : "/var/tmp", O_TMPFILE | O_RDWR, 0600);
	if (*fd < 0)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (write(*fd, buf, PAGE) != (ssize_t)PAGE)
			return NULL;
	if (fdatasync(*fd))
		return NULL;
	p = mmap(NULL, n * PAGE, PROT_READ, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, n * PAGE, MADV_RANDOM);
	return p;
}

/* file: pages in the page cache; file-io: dropped from it first; one
 * read every FILE_STRIDE pages, each past the pages the fault before
 * mapped around it (a large folio, fault-around's 64 KiB). */
#define FILE_STRIDE 16
static void file_rows(struct row *r, double hz)
{
	size_t all = r->n, n = all / FILE_STRIDE < 2048 ? all / FILE_STRIDE : 2048;
	int fd = -1;
	volatile char *p = file_map(all, &fd);

	if (!p) {
		printf("  (no file rows: no unnamed file in $LATCTL_FILE_DIR or /var/tmp)\n");
		return;
	}
	r->n = all / FILE_STRIDE;
	r->name = "file read, page cache (file)";
	time_stride(r, 2, p, hz, FILE_STRIDE);
	munmap((void *)p, all * PAGE);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	p = mmap(NULL, all * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	madvise((void *)p, all * PAGE, MADV_RANDOM);
	r->n = n;
	r->name = "file read, from storage (file-io)";
	time_stride(r, 2, p, hz, FILE_STRIDE);
	r->n = all;
	munmap((void *)p, all * PAGE);
	close(fd);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;
	double hz = lat_tsc_hz();
	struct row r = { .n = n, .t = malloc(n * sizeof(uint64_t)) };
	volatile char *p, *q;
	long rss;
	int zero;

	if (!n || !r.t || !(hz > 0)) {
		fprintf(stderr, "usage: bench_faults [PAGES] (PAGES > 0)\n");
		return 2;
	}
	memset(r.t, 0xff, n * sizeof(*r.t)); /* its own faults before the rows */
	printf("bench_faults: %zu pages a row; ns per access, the TSC pair included\n", n);
	printf("  %-36s %8s %9s %9s %9s\n", "access", "faults", "p10", "p50", "p90");
	r.name = "nothing (a pair of TSC reads)";
	time_row(&r, 0, NULL, hz);
	r.name = "system call (getppid)";
	time_row(&r, 1, NULL, hz);
	p = map(n, 0);
	rss = resident();
	r.name = "read fault";
	time_row(&r, 2, p, hz);
	rss = resident() - rss;
	zero = rss >= 0 && (size_t)rss < n / 2;
	r.name = zero ? "write after it (copy-on-write)" : "write after it (no zero page)";
	time_row(&r, 3, p, hz);
	printf("  read faults mapped %s: resident pages +%ld for %zu pages read\n",
	       zero ? "the zero page" : "a page each (no zero page on this kernel)", rss, n);
	q = map(n, 0);
	r.name = "write fault (fresh memory)";
	time_row(&r, 3, q, hz);
	munmap((void *)q, n * PAGE);
	q = map(n, MAP_POPULATE);
	r.name = "MAP_POPULATE, first write";
	time_row(&r, 3, q, hz);
	r.name = "MAP_POPULATE, second write";
	time_row(&r, 3, q, hz);
	munmap((void *)q, n * PAGE);
	fork_row(&r, hz);
	file_rows(&r, hz);
	return 0;
}
