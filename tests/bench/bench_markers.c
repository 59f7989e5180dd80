// SPDX-License-Identifier: MIT
/*
 * The cost of a latctl_begin()/latctl_end() pair (include/latctl.h), in
 * one process, against latctl's clock floor (two serialized TSC reads, the
 * least any iteration can take):
 *   outside latctl  no LATCTL_RING: the inline test, no call
 *   FFI outside     the exported functions called (as ctypes does), no ring
 *   with a ring     a ring made here in the documented format (LATCTL_RING,
 *                   set before this program runs itself again), not
 *                   faulted in: liblatctl faults in its region as it goes
 *   the first pair  of a thread: it takes its region (one page faulted in)
 * Each figure is the fastest of ROUNDS rounds of N pairs, per pair. Then
 * what the pairs recorded: the median time of an empty marked iteration,
 * against the median time between two serialized reads (what latctl's own
 * loops call the cost of a pair: "clock: one pair of TSC reads costs").
 *   bench_markers [N [ROUNDS]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <latctl.h>

static double tsc_ghz;

static inline uint64_t serialized(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static double mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void calibrate(void)
{
	double t0 = mono_ns(), t1;
	uint64_t c0 = serialized(), c1;

	do
		t1 = mono_ns();
	while (t1 - t0 < 1e8);
	c1 = serialized();
	tsc_ghz = (double)(c1 - c0) / (t1 - t0);
}

typedef void (*pair_fn)(long n);

static void floor_pairs(long n)
{
	volatile uint64_t sink;

	while (n--) {
		sink = serialized();
		sink = serialized();
	}
	(void)sink;
}

static void inline_pairs(long n)
{
	while (n--) {
		latctl_begin();
		latctl_end();
	}
}

static void called_pairs(long n)
{
	void (*volatile b)(void) = (latctl_begin);
	void (*volatile e)(void) = (latctl_end);

	while (n--) {
		b();
		e();
	}
}

/* ns per pair: the fastest round. */
static double per_pair(pair_fn f, long n, int rounds)
{
	double best = 1e30, ns;
	uint64_t t0;
	int r;

	for (r = 0; r < rounds; r++) {
		t0 = serialized();
		f(n);
		ns = (double)(serialized() - t0) / tsc_ghz / (double)n;
		best = ns < best ? ns : best;
	}
	return best;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double median_ns(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), by_value);
	return (double)v[n / 2] / tsc_ghz;
}

/* The median of the empty iterations the ring holds, and of the time
 * between two serialized reads, in ns. */
static void recorded(double *empty, double *reads)
{
	const char *path = getenv("LATCTL_RING");
	FILE *f = fopen(path, "r");
	struct latctl_ring_head h;
	struct latctl_ring_slot s;
	struct latctl_ring_rec r;
	uint64_t *v = malloc(100000 * sizeof(*v)), i, n = 0;

	if (!f || !v || fread(&h, sizeof(h), 1, f) != 1 || fseek(f, LATCTL_RING_HEAD, SEEK_SET) ||
	    fread(&s, sizeof(s), 1, f) != 1)
		exit(1);
	for (i = 0; i < s.count && n < 100000 && fread(&r, sizeof(r), 1, f) == 1; i++)
		v[n++] = r.tsc_end - r.tsc_begin;
	fclose(f);
	*empty = median_ns(v, n);
	for (i = 0; i < 100000; i++) {
		uint64_t t0 = serialized();

		v[i] = serialized() - t0;
	}
	*reads = median_ns(v, 100000);
	free(v);
}

/* A ring for one thread of n * rounds records, named in LATCTL_RING. */
static int make_ring(long records)
{
	size_t slot = sizeof(struct latctl_ring_slot) + (size_t)records * sizeof(struct latctl_ring_rec);
	size_t bytes = LATCTL_RING_HEAD + ((slot + 4095) & ~4095UL);
	int fd = memfd_create("bench-ring", 0);
	struct latctl_ring_head *h;
	char path[64];

	if (fd < 0 || ftruncate(fd, (off_t)bytes))
		return -1;
	h = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED)
		return -1;
	*h = (struct latctl_ring_head){ .magic = LATCTL_RING_MAGIC,
					.version = LATCTL_RING_VERSION,
					.slots = 1,
					.slot_bytes = (slot + 4095) & ~4095UL,
					.capacity = (uint64_t)records };
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return setenv("LATCTL_RING", path, 1);
}

int main(int argc, char **argv)
{
	long n = argc > 1 && strcmp(argv[1], "--ring") ? atol(argv[1]) : 1000000;
	int rounds = argc > 2 ? atoi(argv[2]) : 7, ring = !!getenv("LATCTL_RING");
	double fl, in, pr;

	if (n < 1 || rounds < 1)
		return fprintf(stderr, "usage: bench_markers [PAIRS [ROUNDS]]\n"), 2;
	calibrate();
	fl = per_pair(floor_pairs, n, rounds);
	if (!ring) {
		printf("markers: %ld pairs x %d rounds, fastest round; TSC %.3f GHz\n", n, rounds, tsc_ghz);
		printf("clock floor (two serialized TSC reads)  %7.2f ns\n", fl);
		in = per_pair(inline_pairs, n, rounds);
		printf("outside latctl (inline test)            %7.2f ns  (%.2fx the floor)\n", in, in / fl);
		printf("outside latctl, called (FFI)            %7.2f ns\n", per_pair(called_pairs, n, rounds));
		fflush(stdout);
		if (make_ring(n * rounds + 1))
			return perror("bench_markers: ring"), 1;
		execv("/proc/self/exe", argv);
		return perror("bench_markers: exec"), 1;
	}
	if (!latctl_active())
		return fprintf(stderr, "bench_markers: the ring did not map\n"), 1;
	pr = per_pair(inline_pairs, 1, 1);
	printf("the first pair of a thread (its region) %7.2f us\n", pr / 1e3);
	pr = per_pair(inline_pairs, n, rounds);
	printf("with a ring (begin + end, one record)   %7.2f ns  (%.2fx the floor of %.2f ns)\n",
	       pr, pr / fl, fl);
	recorded(&in, &fl);
	printf("an empty marked iteration, as recorded  %7.2f ns  (median; between two reads: %.2f ns)\n",
	       in, fl);
	return 0;
}
