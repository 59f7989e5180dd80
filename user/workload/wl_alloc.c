// SPDX-License-Identifier: MIT
/*
 * alloc: what one malloc/free adds to a call (the "benchmark measured the allocator" post). Four variants, each
 * timed call by call: a short formatted string written into a new malloc'd
 * buffer (freed at the end of the call) or into a reused buffer, and a
 * 256 KiB buffer filled the same two ways. The very first 256 KiB call of
 * the process is timed alone: it gets a fresh mmap and faults every page,
 * the cost a warm benchmark never shows. --threads N runs the variants in N
 * threads, each pinned to its own CPU, released together by a barrier.
 * Allocations are counted in the workload's own allocation path with a
 * thread-local counter (never one shared atomic: that post shows that such a
 * counter is itself the contention it seems to find).
 */
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "stats/stats.h"
#include "lib/tsc.h"
#include "workload/workload.h"

/* Its options (alloc_opts). */
static struct alloc_cfg {
	int threads;		/* --threads, 0 = one */
} cfg;

#define SMALL_BYTES	64
#define BIG_BYTES	(256 << 10)
#define BIG_EVERY	100	/* big calls per variant = iters / BIG_EVERY */

enum alloc_variant { V_SMALL_NEW, V_SMALL_REUSED, V_BIG_NEW, V_BIG_REUSED, V_NR, V_FIRST = V_NR };

static const char *const variant_name[] = {
	"small, new buffer", "small, reused buffer",
	"256 KiB, new buffer", "256 KiB, reused buffer",
};

/* flags of a sample: variant in bits 8-11, thread index from bit 16 */
#define VAR_SHIFT	8
#define THREAD_SHIFT	16

struct alloc_thread {
	struct alloc *a;
	pthread_t tid;
	int idx, cpu, ret;
	size_t base;			/* first sample of this thread */
	uint64_t allocs[V_NR];		/* copied from the thread-local counter */
	long faults[V_NR];
	char small[SMALL_BYTES];
	char *big;			/* reused 256 KiB buffer */
} __attribute__((aligned(64)));

struct alloc {
	struct lat_run *run;
	int nthreads;
	size_t n_small, n_big, per_thread;
	int started;			/* threads to join */
	int ready, go;			/* the start barrier (atomics, untimed) */
	struct alloc_thread *th;
	double first_ns;
	long first_faults;
};

static __thread uint64_t alloc_count;	/* this thread's allocations */

/* The allocation path of the "new" variants: counts, then mallocs. */
static void *counted_malloc(size_t size)
{
	alloc_count++;
	return malloc(size);
}

/* Keep the compiler from eliding a buffer that nobody reads. */
static inline void use(void *p)
{
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

static inline void small_call(char *buf, uint64_t id)
{
	snprintf(buf, SMALL_BYTES, "id=%lu name=user%lu score=%lu",
		 (unsigned long)id, (unsigned long)(id % 1000), (unsigned long)(id * 7 % 101));
	use(buf);
}

static inline void big_call(char *buf, uint64_t id)
{
	uint64_t *w = (uint64_t *)buf;

	for (size_t i = 0; i < BIG_BYTES / sizeof(*w); i++)
		w[i] = id + i;
	use(buf);
}

/* One call of one variant; the timed unit. */
static inline int variant_call(struct alloc_thread *t, enum alloc_variant v, uint64_t id)
{
	char *p;

	switch (v) {
	case V_SMALL_NEW:
		if (!(p = counted_malloc(SMALL_BYTES)))
			return -ENOMEM;
		small_call(p, id);
		free(p);
		return 0;
	case V_SMALL_REUSED:
		small_call(t->small, id);
		return 0;
	case V_BIG_NEW:
	case V_FIRST:
		if (!(p = counted_malloc(BIG_BYTES)))
			return -ENOMEM;
		big_call(p, id);
		free(p);
		return 0;
	case V_BIG_REUSED:
		big_call(t->big, id);
		return 0;
	}
	return -EINVAL;
}

static long thread_faults(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

/* Time n calls of variant v into samples s; faults and allocs counted around. */
static int variant_loop(struct alloc_thread *t, enum alloc_variant v,
			struct lat_sample *s, size_t n)
{
	uint32_t flags = (uint32_t)v << VAR_SHIFT | (uint32_t)t->idx << THREAD_SHIFT;
	long f0 = thread_faults(RUSAGE_THREAD);
	uint64_t a0 = alloc_count;
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		s[i].tsc_begin = lat_tsc(&s[i].cpu_begin);
		ret = variant_call(t, v, i);
		s[i].tsc_end = lat_tsc(&s[i].cpu_end);
		s[i].flags = flags;
	}
	t->faults[v] = thread_faults(RUSAGE_THREAD) - f0;
	t->allocs[v] = alloc_count - a0;
	return ret;
}

/* A worker: pin, prepare the reused buffers, wait for all, run 4 variants. */
static void *alloc_thread_main(void *arg)
{
	struct alloc_thread *t = arg;
	struct alloc *a = t->a;
	struct lat_sample *s = a->run->samples + t->base;
	cpu_set_t set;

	a->run->streams[1 + t->idx].tid = (uint32_t)gettid(); /* for the join */
	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	t->ret = -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	t->big = malloc(BIG_BYTES);
	if (t->big)
		big_call(t->big, 0);	/* touched before timing */
	else
		t->ret = -ENOMEM;
	__atomic_add_fetch(&a->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&a->go, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
	if (a->go < 0)
		t->ret = -ECANCELED;
	for (int v = 0; v < V_NR && !t->ret; v++) {
		size_t n = v < V_BIG_NEW ? a->n_small : a->n_big;

		t->ret = variant_loop(t, v, s, n);
		s += n;
	}
	a->run->samples[t->base].flags |= LAT_SAMPLE_F_NEWSTREAM;
	free(t->big);
	return NULL;
}

static void alloc_teardown(struct lat_run *run);

/* Check --threads against the online CPUs and size the sample array. */
static int alloc_prepare(struct lat_run *run)
{
	struct alloc *a = calloc(1, sizeof(*a));
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (!a)
		return -ENOMEM;
	run->priv = a;
	a->run = run;
	a->nthreads = cfg.threads > 0 ? cfg.threads : 1;
	if (a->nthreads > online) {
		fprintf(stderr, "alloc: --threads %d but only %ld CPUs are online; use --threads %ld or fewer\n",
			a->nthreads, online, online);
		return -EINVAL;
	}
	if (a->nthreads > 1 && run->cpu >= 0) {
		fprintf(stderr, "alloc: --threads %d pins each thread to its own CPU; drop --cpu %d\n",
			a->nthreads, run->cpu);
		return -EINVAL;
	}
	a->n_small = run->iters;
	a->n_big = run->iters / BIG_EVERY ? run->iters / BIG_EVERY : 1;
	a->per_thread = 2 * a->n_small + 2 * a->n_big;
	run->cap = 1 + (size_t)a->nthreads * a->per_thread;
	a->th = aligned_alloc(64, a->nthreads * sizeof(*a->th));
	if (!a->th || lat_run_streams(run, 1 + (size_t)a->nthreads))
		return -ENOMEM;
	memset(a->th, 0, a->nthreads * sizeof(*a->th));
	return 0;
}

/* setup: prepare, or undo everything on failure (the core calls teardown only after success). */
static int alloc_setup(struct lat_run *run)
{
	int ret = alloc_prepare(run);

	if (ret)
		alloc_teardown(run);
	return ret;
}

/* The first 256 KiB call of this process, timed alone into samples[0]. */
static int alloc_first_call(struct alloc *a)
{
	struct alloc_thread t = { .a = a };
	struct lat_sample *s = &a->run->samples[0];
	long f0 = thread_faults(RUSAGE_SELF);
	int ret;

	s->tsc_begin = lat_tsc(&s->cpu_begin);
	ret = variant_call(&t, V_FIRST, 0);
	s->tsc_end = lat_tsc(&s->cpu_end);
	a->first_faults = thread_faults(RUSAGE_SELF) - f0;
	s->flags = V_FIRST << VAR_SHIFT;
	a->first_ns = lat_sample_ns(a->run, s);
	return ret;
}

/* The i-th CPU this process may run on (after the core's --cpu), or -1. */
static int nth_allowed_cpu(const cpu_set_t *set, int i)
{
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set) && i-- == 0)
			return c;
	return -1;
}

/* Assign CPUs to the threads and start them; they spin until a->go. */
static int alloc_start_threads(struct alloc *a)
{
	cpu_set_t set;
	int ret = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	if (CPU_COUNT(&set) < a->nthreads) {
		fprintf(stderr, "alloc: --threads %d but latctl may run on %d CPUs only (taskset?); use fewer threads\n",
			a->nthreads, CPU_COUNT(&set));
		return -EINVAL;
	}
	for (int i = 0; i < a->nthreads && !ret; i++) {
		struct alloc_thread *t = &a->th[i];

		t->a = a;
		t->idx = i;
		t->cpu = nth_allowed_cpu(&set, i);
		t->base = 1 + (size_t)i * a->per_thread;
		ret = -pthread_create(&t->tid, NULL, alloc_thread_main, t);
		if (ret)
			fprintf(stderr, "alloc: cannot start thread %d: %s\n", i, strerror(-ret));
		else
			a->started++;
	}
	return ret;
}

/* First call, then all threads released together; 0 or the first error. */
static int alloc_run(struct lat_run *run)
{
	struct alloc *a = run->priv;
	int ret;

	ret = alloc_first_call(a);
	if (ret)
		return ret;
	ret = alloc_start_threads(a);
	while (!ret && __atomic_load_n(&a->ready, __ATOMIC_ACQUIRE) < a->started)
		sched_yield();	/* let a worker on this CPU reach the barrier */
	__atomic_store_n(&a->go, ret ? -1 : 1, __ATOMIC_RELEASE);
	for (int i = 0; i < a->started; i++)
		pthread_join(a->th[i].tid, NULL);
	for (int i = 0; !ret && i < a->started; i++)
		ret = a->th[i].ret;
	run->n = ret ? 0 : 1 + (size_t)a->nthreads * a->per_thread;
	return ret;
}

/* Latencies of variant v over every thread (ns, unsorted); count in *n. */
static double *variant_ns(const struct alloc *a, int v, size_t *n)
{
	const struct lat_run *run = a->run;
	size_t per = v < V_BIG_NEW ? a->n_small : a->n_big;
	size_t off = v <= V_BIG_NEW ? (size_t)v * a->n_small : 2 * a->n_small + a->n_big;
	double *ns = malloc(a->nthreads * per * sizeof(*ns));

	*n = 0;
	for (int t = 0; ns && t < a->nthreads; t++)
		for (size_t i = 0; i < per; i++)
			ns[(*n)++] = lat_sample_ns(run, &run->samples[a->th[t].base + off + i]);
	return ns;
}

/* One row of the variant table: mean, p50, p99, allocs and faults per call. */
static cJSON *variant_json(const struct alloc *a, int v)
{
	cJSON *o = cJSON_CreateObject();
	struct lat_summary sum;
	uint64_t allocs = 0;
	long faults = 0;
	size_t n;
	double *ns = variant_ns(a, v, &n);

	if (!o || !ns || lat_summary_compute(ns, n, &sum) < 0)
		goto out;
	for (int t = 0; t < a->nthreads; t++) {
		allocs += a->th[t].allocs[v];
		faults += a->th[t].faults[v];
	}
	cJSON_AddStringToObject(o, "variant", variant_name[v]);
	cJSON_AddNumberToObject(o, "calls", (double)n);
	cJSON_AddNumberToObject(o, "ns_per_call", sum.mean);
	cJSON_AddNumberToObject(o, "p50_ns", sum.p50);
	cJSON_AddNumberToObject(o, "p99_ns", sum.p99);
	cJSON_AddNumberToObject(o, "allocs_per_call", (double)allocs / (double)n);
	cJSON_AddNumberToObject(o, "page_faults_per_call", (double)faults / (double)n);
out:
	free(ns);
	return o;
}

/* Mean ns per call of n samples from s. */
static double mean_ns(const struct lat_run *run, const struct lat_sample *s, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += lat_sample_ns(run, &s[i]);
	return n ? sum / (double)n : 0.0;
}

/* One thread's small-string figures, the lines of the post's thread rounds. */
static cJSON *thread_json(const struct alloc *a, const struct alloc_thread *t)
{
	const struct lat_sample *s = a->run->samples + t->base;
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "thread", t->idx);
	cJSON_AddNumberToObject(o, "cpu", t->cpu);
	cJSON_AddNumberToObject(o, "small_new_ns", mean_ns(a->run, s, a->n_small));
	cJSON_AddNumberToObject(o, "small_reused_ns", mean_ns(a->run, s + a->n_small, a->n_small));
	cJSON_AddNumberToObject(o, "small_new_allocs_per_call",
				(double)t->allocs[V_SMALL_NEW] / (double)a->n_small);
	cJSON_AddNumberToObject(o, "small_reused_allocs_per_call",
				(double)t->allocs[V_SMALL_REUSED] / (double)a->n_small);
	return o;
}

static cJSON *alloc_extras(const struct lat_run *run)
{
	const struct alloc *a = run->priv;
	cJSON *o = cJSON_CreateObject(), *arr;

	if (!o || !run->n)
		return o;
	cJSON_AddNumberToObject(o, "threads", a->nthreads);
	cJSON_AddNumberToObject(o, "small_calls_per_thread", (double)a->n_small);
	cJSON_AddNumberToObject(o, "big_calls_per_thread", (double)a->n_big);
	cJSON_AddNumberToObject(o, "first_call_ns", a->first_ns);
	cJSON_AddNumberToObject(o, "first_call_page_faults", (double)a->first_faults);
	cJSON_AddStringToObject(o, "counter", "per thread (thread-local, in the workload's allocation path)");
	arr = cJSON_AddArrayToObject(o, "variants");
	for (int v = 0; arr && v < V_NR; v++)
		cJSON_AddItemToArray(arr, variant_json(a, v));
	arr = cJSON_AddArrayToObject(o, "per_thread");
	for (int t = 0; arr && t < a->nthreads; t++)
		cJSON_AddItemToArray(arr, thread_json(a, &a->th[t]));
	return o;
}

static void alloc_print_threads(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *t;

	cJSON_ArrayForEach(t, lat_rd_array(rd, x, "per_thread"))
		fprintf(out, "thread %.0f on CPU %.0f: new buffer %.1f ns, reused buffer %.1f ns per call, %.2f and %.2f allocs per call\n",
			lat_rd_num(rd, t, "thread"), lat_rd_num(rd, t, "cpu"), lat_rd_num(rd, t, "small_new_ns"),
			lat_rd_num(rd, t, "small_reused_ns"), lat_rd_num(rd, t, "small_new_allocs_per_call"),
			lat_rd_num(rd, t, "small_reused_allocs_per_call"));
}

static void alloc_print_extras(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *v;

	fprintf(out, "the summary above mixes all variants; per variant (%.0f thread%s, %.0f small and %.0f 256 KiB calls per thread and variant):\n",
		lat_rd_num(rd, x, "threads"), lat_rd_num(rd, x, "threads") == 1 ? "" : "s",
		lat_rd_num(rd, x, "small_calls_per_thread"), lat_rd_num(rd, x, "big_calls_per_thread"));
	fprintf(out, "first call of 256 KiB, new buffer, in a fresh process: %.0f ns, %.0f page faults\n",
		lat_rd_num(rd, x, "first_call_ns"), lat_rd_num(rd, x, "first_call_page_faults"));
	fprintf(out, "%-24s %12s %10s %10s %16s %21s\n", "version", "ns per call", "p50 ns",
		"p99 ns", "allocs per call", "page faults per call");
	cJSON_ArrayForEach(v, lat_rd_array(rd, x, "variants"))
		fprintf(out, "%-24s %12.1f %10.0f %10.0f %16.2f %21.2f\n", lat_rd_str(rd, v, "variant"),
			lat_rd_num(rd, v, "ns_per_call"), lat_rd_num(rd, v, "p50_ns"), lat_rd_num(rd, v, "p99_ns"),
			lat_rd_num(rd, v, "allocs_per_call"), lat_rd_num(rd, v, "page_faults_per_call"));
	alloc_print_threads(x, out, rd);
	fprintf(out, "allocations counted %s\n", lat_rd_str(rd, x, "counter"));
}

static void alloc_teardown(struct lat_run *run)
{
	struct alloc *a = run->priv;

	if (!a)
		return;
	free(a->th);
	free(a);
	run->priv = NULL;
}

static const struct lat_wl_opt alloc_opts[] = {
	{ "threads", LAT_WL_OPT_COUNT, "N", "threads, each pinned to its own CPU (default 1)",
	  "threads", offsetof(struct alloc_cfg, threads) },
	{ NULL },
};

const struct workload_ops wl_alloc = {
	.name = "alloc",
	.summary = "formatted string and 256 KiB buffer, new vs reused allocation; --threads (the post \"the benchmark measured the allocator\")",
	.modes = NULL,
	.unit_name = "call",
	.default_iters = 100000,
	.setup = alloc_setup,
	.run = alloc_run,
	.extras = alloc_extras,
	.print_extras = alloc_print_extras,
	.teardown = alloc_teardown,
	.opts = alloc_opts,
	.config = &cfg,
	.config_size = sizeof(cfg),
};
