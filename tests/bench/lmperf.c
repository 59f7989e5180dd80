// SPDX-License-Identifier: MIT
/*
 * lmperf: run a command with a perf tracepoint event sampling it, every hit
 * a sample (period 1: tid, time, CPU and the raw tracepoint record) written
 * into a 2 MiB perf mmap ring that this process drains while the command
 * runs (woken at half full, else every 10 ms),
 * like `perf record -e CATEGORY:NAME -c 1`. The tracepoint id is read from
 * tracefs. Prints the command's output, then one line: samples read and
 * the samples the kernel lost (PERF_RECORD_LOST). For the backend benchmark
 * (tests/bench/bench-backends.sh).
 *
 *   lmperf CATEGORY:NAME -- CMD [ARGS...]
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define RING_PAGES	512	/* data pages (2 MiB), a power of two */

struct ring {
	struct perf_event_mmap_page *meta;
	char *data;
	size_t size;
	uint64_t samples, lost;
};

/* The tracepoint's id from tracefs, or -1. */
static long tp_id(const char *tp)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[512], cat[128];
	const char *name = strchr(tp, ':');
	long id = -1;
	size_t i;
	FILE *f;

	if (!name || name == tp || (size_t)(name - tp) >= sizeof(cat))
		return -1;
	memcpy(cat, tp, (size_t)(name - tp));
	cat[name - tp] = 0;
	for (i = 0; i < 2 && id < 0; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[i], cat, name + 1);
		f = fopen(path, "r");
		if (f && fscanf(f, "%ld", &id) != 1)
			id = -1;
		if (f)
			fclose(f);
	}
	return id;
}

/* The sampling event on pid, enabled when it execs, and its mapped ring. */
static int open_event(long id, pid_t pid, struct ring *r)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT, .size = sizeof(a), .config = (uint64_t)id,
		.sample_period = 1, .disabled = 1, .enable_on_exec = 1, .watermark = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
	};
	long page = sysconf(_SC_PAGESIZE);
	int fd;
	void *p;

	a.wakeup_watermark = (uint32_t)(RING_PAGES * page / 2);	/* wake at half full */
	fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
	if (fd < 0)
		return -1;
	r->size = (size_t)RING_PAGES * (size_t)page;
	p = mmap(NULL, r->size + (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	r->meta = p;
	r->data = (char *)p + page;
	return fd;
}

/* Read every record in the ring, counting samples and lost ones. */
static void drain(struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	struct perf_event_header h;
	uint64_t lost;

	while (tail < head) {
		memcpy(&h, r->data + tail % r->size, sizeof(h));	/* 8 bytes: never wraps */
		if (h.type == PERF_RECORD_SAMPLE)
			r->samples++;
		else if (h.type == PERF_RECORD_LOST) {
			size_t off = (tail + sizeof(h) + 8) % r->size;	/* after the id */

			memcpy(&lost, r->data + off, sizeof(lost));
			r->lost += lost;
		}
		tail += h.size ? h.size : sizeof(h);
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

/* Fork the command held at a pipe until its event is open; then run it. */
static pid_t spawn(char **argv, int *go)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds) < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		perror("lmperf: exec");
		_exit(127);
	}
	close(fds[0]);
	*go = fds[1];
	return pid;
}

/* Drain on every wakeup until the command exits; its wait status. */
static int follow(int fd, pid_t pid, struct ring *r)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int status = 0;

	for (;;) {
		poll(&p, 1, 10);
		drain(r);
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	drain(r);
	return status;
}

int main(int argc, char **argv)
{
	struct ring r = { 0 };
	long id;
	int fd, go, status;
	pid_t pid;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: lmperf CATEGORY:NAME -- CMD [ARGS...]\n");
		return 2;
	}
	id = tp_id(argv[1]);
	if (id < 0) {
		fprintf(stderr, "lmperf: no tracepoint %s in tracefs\n", argv[1]);
		return 2;
	}
	fflush(stdout);
	pid = spawn(argv + 3, &go);
	if (pid < 0 || (fd = open_event(id, pid, &r)) < 0) {
		fprintf(stderr, "lmperf: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (write(go, "g", 1) != 1)
		return 1;
	close(go);
	status = follow(fd, pid, &r);
	printf("lmperf: samples=%llu lost=%llu\n", (unsigned long long)r.samples,
	       (unsigned long long)r.lost);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
