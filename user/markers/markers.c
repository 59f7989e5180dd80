// SPDX-License-Identifier: MIT
/*
 * liblatctl: latctl_begin() and latctl_end() write the calling thread's
 * iterations into the ring latctl named in LATCTL_RING (include/latctl.h
 * has the layout). Without that variable, or with a ring that does not
 * map, both return at once.
 */
#define LATCTL_NO_INLINE
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "latctl.h"

_Static_assert(sizeof(struct latctl_ring_slot) == 128, "region head: 128 bytes");
_Static_assert(sizeof(struct latctl_ring_rec) == 24, "record: 24 bytes");

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

#define EXPORT __attribute__((visibility("default")))

EXPORT volatile int latctl_on;

static struct latctl_ring_head *ring;
static uint64_t ring_bytes;
static uint64_t map_tsc; /* just before this process mapped the ring */
static int use_getcpu;

/* The calling thread's region: NULL until its first call, REFUSED when the
 * ring had none left. A forked child starts with none (at_fork_child). */
static __thread struct latctl_ring_slot *my_slot
	__attribute__((tls_model("initial-exec")));	/* one %fs load, no call */
#define REFUSED ((struct latctl_ring_slot *)1)

static inline uint64_t read_tsc(uint16_t *cpu)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	*cpu = __builtin_expect(use_getcpu, 0) ? (uint16_t)sched_getcpu() : (uint16_t)(aux & 0xfff);
	return ((uint64_t)hi << 32) | lo;
}

static struct latctl_ring_rec *records(struct latctl_ring_slot *s)
{
	return (struct latctl_ring_rec *)(s + 1);
}

/* Bytes of a region its first call faults in, and the most a later call
 * adds: the first call stays short (a page), a long run refills seldom. */
#define FIRST_BYTES 4096
#define GROW_MAX_BYTES (256u << 10)

/* Record index at which the calling thread's region needs more pages. */
static __thread uint64_t my_room __attribute__((tls_model("initial-exec")));

/* Fault in bytes [from, to) of region s and write to each page: the page
 * tables say dirty now, which some hypervisors otherwise trap at the first
 * record of every page (no page fault either way). 0 when it could not. */
static int populate(struct latctl_ring_slot *s, uint64_t from, uint64_t to)
{
	volatile char *p = (volatile char *)s;
	uint64_t off;

	if (madvise((char *)s + from, to - from, MADV_POPULATE_WRITE))
		return 0;
	for (off = from; off < to; off += 4096)
		p[off] = p[off];
	s->populated = to / 4096;
	return 1;
}

/* Fault in the next part of the calling thread's region, as large as what
 * it holds so far (at most GROW_MAX_BYTES), so that no record write faults
 * and the pages follow the records written. Where the kernel cannot
 * populate (before 5.14), the records fault as they are written. */
static void grow(struct latctl_ring_slot *s)
{
	uint64_t from = s->populated * 4096, to = from ? from * 2 : FIRST_BYTES;

	if (to - from > GROW_MAX_BYTES)
		to = from + GROW_MAX_BYTES;
	if (to > ring->slot_bytes)
		to = ring->slot_bytes;
	if (!populate(s, from, to))
		to = ring->slot_bytes;
	my_room = (to - sizeof(*s)) / sizeof(struct latctl_ring_rec);
}

/* Take the next free region for this thread and fault in its first page,
 * so that the first call stays short (async-signal-safe: an atomic add and
 * system calls). */
static struct latctl_ring_slot *take_slot(void)
{
	uint32_t k = __atomic_fetch_add(&ring->next_slot, 1, __ATOMIC_RELAXED);
	struct latctl_ring_slot *s;

	if (k >= ring->slots) {
		__atomic_fetch_add(&ring->threads_refused, 1, __ATOMIC_RELAXED);
		return my_slot = REFUSED;
	}
	s = (struct latctl_ring_slot *)((char *)ring + LATCTL_RING_HEAD + k * ring->slot_bytes);
	grow(s);
	s->tid = (uint32_t)gettid();
	s->pid = (uint32_t)getpid();
	s->map_addr = (uint64_t)(uintptr_t)ring;
	s->map_bytes = ring_bytes;
	s->map_tsc = map_tsc;
	if (prctl(PR_GET_NAME, s->comm))
		s->comm[0] = '\0';
	return my_slot = s;
}

static inline struct latctl_ring_slot *slot(void)
{
	struct latctl_ring_slot *s = my_slot;

	if (__builtin_expect(!s, 0))
		s = take_slot();
	return s == REFUSED ? NULL : s;
}

EXPORT void latctl_begin(void)
{
	struct latctl_ring_slot *s;
	uint16_t cpu;

	if (__builtin_expect(!latctl_on, 1))
		return;
	s = slot();
	if (!s)
		return;
	if (s->open)
		s->begin_twice++;
	s->open_tsc = read_tsc(&cpu);
	s->open_cpu = cpu;
	s->open = 1;
}

EXPORT void latctl_end(void)
{
	struct latctl_ring_slot *s;
	uint64_t t, n;
	uint16_t cpu;

	if (__builtin_expect(!latctl_on, 1))
		return;
	t = read_tsc(&cpu);
	s = slot();
	if (!s)
		return;
	if (!s->open) {
		s->end_without_begin++;
		return;
	}
	s->open = 0;
	n = s->count;
	if (n >= ring->capacity) {
		s->full++;
		return;
	}
	if (__builtin_expect(n >= my_room, 0))
		grow(s);
	records(s)[n] = (struct latctl_ring_rec){ s->open_tsc, t, s->open_cpu, cpu, 0 };
	__atomic_store_n(&s->count, n + 1, __ATOMIC_RELEASE);
}

EXPORT int latctl_active(void)
{
	return latctl_on;
}

static void at_fork_child(void)
{
	my_slot = NULL;
	my_room = 0;
}

/* Map the ring open on fd; -1 if it is not latctl's ring. */
static int map_fd(int fd)
{
	struct latctl_ring_head *h;
	struct stat st;
	uint16_t cpu;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size < LATCTL_RING_HEAD)
		return -1;
	map_tsc = read_tsc(&cpu);
	h = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED)
		return -1;
	if (h->magic != LATCTL_RING_MAGIC || h->version != LATCTL_RING_VERSION ||
	    LATCTL_RING_HEAD + h->slots * h->slot_bytes > (uint64_t)st.st_size) {
		munmap(h, (size_t)st.st_size);
		return -1;
	}
	ring = h;
	ring_bytes = (uint64_t)st.st_size;
	use_getcpu = !!(h->flags & LATCTL_RING_F_GETCPU);
	return 0;
}

/* The ring by the descriptor latctl left open (LATCTL_RING_FD: it survives
 * a change of user or root), else by its path (LATCTL_RING: it survives a
 * program that closes its descriptors). */
static int map_ring(const char *path)
{
	const char *fds = getenv("LATCTL_RING_FD");
	char *end;
	long n = fds && *fds ? strtol(fds, &end, 10) : -1;
	int fd;

	if (n >= 0 && n <= INT_MAX && !*end && !map_fd((int)n))
		return 0;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = map_fd(fd);
	close(fd);
	return (int)n;
}

__attribute__((constructor)) static void latctl_init(void)
{
	const char *path = getenv("LATCTL_RING");

	if (!path || !*path)
		return;
	if (map_ring(path)) {
		fprintf(stderr, "liblatctl: pid %d cannot map latctl's ring (descriptor %s, %s): its markers are not recorded\n",
			(int)getpid(), getenv("LATCTL_RING_FD") ? getenv("LATCTL_RING_FD") : "none", path);
		return;
	}
	pthread_atfork(NULL, NULL, at_fork_child);
	latctl_on = 1;
}
