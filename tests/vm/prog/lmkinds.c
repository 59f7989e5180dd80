// SPDX-License-Identifier: MIT
/*
 * lmkinds: page faults of known kinds between the two sync points (sync.h),
 * for the fault-kind test t-22-kinds.sh and its kprobe referee:
 *
 *   lmkinds --pages N [--file DIR]
 *
 * in order: N fresh anonymous pages read (the zero page, where the kernel
 * maps it), then written (copies of it); N fresh pages written (new
 * pages); N pages written, shared with a forked child that waits, written
 * again (copies); with --file, N pages of an unnamed file in DIR written
 * with write(2) and read through a shared mapping (page-cache pages).
 * Prints what it did as "name=value" words, the process's minor faults
 * among them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "sync.h"

#define PAGE 4096UL

static char *fresh(unsigned long n)
{
	char *p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("lmkinds: mmap");
		exit(1);
	}
	madvise(p, n * PAGE, MADV_NOHUGEPAGE);
	return p;
}

static unsigned long read_pages(const volatile char *p, unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += (unsigned char)p[i * PAGE];
	return s;
}

static void write_pages(volatile char *p, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		p[i * PAGE] = 1;
}

/* Written, shared with a child that waits, written again: copies. */
static void forked(unsigned long n)
{
	char *p = fresh(n);
	pid_t child;

	write_pages(p, n);
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	write_pages(p, n);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	munmap(p, n * PAGE);
}

/* An unnamed file in dir, filled with write(2), read through a mapping. */
static unsigned long file_pages(const char *dir, unsigned long n)
{
	static char buf[PAGE];
	int fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	unsigned long s;
	char *p;

	if (fd < 0) {
		printf("file=none ");
		return 0;
	}
	for (unsigned long i = 0; i < n; i++)
		if (write(fd, buf, PAGE) != (ssize_t)PAGE)
			exit(1);
	p = mmap(NULL, n * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		exit(1);
	madvise(p, n * PAGE, MADV_RANDOM);	/* no fault-around either side */
	s = read_pages(p, n);
	printf("file=%lu ", n);
	munmap(p, n * PAGE);
	close(fd);
	return s;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pages", required_argument, NULL, 'p' },
		{ "file", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n = 0, sink = 0;
	const char *dir = NULL;
	struct rusage r0, r1;
	char *a, *b;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'p')
			n = strtoul(optarg, NULL, 0);
		else if (c == 'f')
			dir = optarg;
		else
			return 2;
	}
	if (!n) {
		fprintf(stderr, "usage: lmkinds --pages N [--file DIR]\n");
		return 2;
	}
	a = fresh(n);
	b = fresh(n);
	if (lm_sync())
		return 1;
	getrusage(RUSAGE_SELF, &r0);
	printf("pid=%d pages=%lu ", (int)getpid(), n);
	sink += read_pages(a, n);
	write_pages(a, n);
	write_pages(b, n);
	forked(n);
	if (dir)
		sink += file_pages(dir, n);
	getrusage(RUSAGE_SELF, &r1);
	printf("minflt=%ld sink=%lu\n", r1.ru_minflt - r0.ru_minflt, sink);
	fflush(stdout);
	return lm_sync() ? 1 : 0;
}
