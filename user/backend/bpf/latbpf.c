// SPDX-License-Identifier: MIT
/*
 * The BPF backend's user side: skeleton open -> load -> attach, a reader
 * thread that drains the BPF ring buffer into the monitor's record buffer
 * (the one /dev/latmon's reader fills, so the join sees one format), then
 * detach, the final drain, the per-CPU loss counts, the clock mapping and
 * destroy. Design of the reader (pinned away, no fault while reading) as in
 * monitor.h; it sleeps LAT_BPF_POLL_NS between drains because the programs
 * submit without a wakeup (a wakeup per record costs an irq_work).
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "backend/bpf/latbpf.h"
#include "latbpf.skel.h"
#include "backend/bpf/latbpf_user.h"
#include "backend/bpf/ktime_tsc.h"
#include "lib/tsc.h"
#include "system/memmap.h"

#define LAT_BPF_POLL_NS		(10 * 1000 * 1000)
#define LAT_BPF_REC_BYTES	(sizeof(struct latmon_event) + 8)	/* + ring header */
#define LAT_BPF_STEAL_CPUS 1024 /* CPUs whose steal clock the JSON gives */

struct lat_bpf {
	struct latbpf *skel;
	struct ring_buffer *rb;
	struct lat_ktime_map clock;
	pthread_t reader;
	volatile int stop;
	int reader_up;
	uint64_t ring_events, ring_bytes;
	uint64_t short_records;		/* ring entries not whole records */
	uint64_t leftover;		/* records read from partial batches */
	uint64_t tries[LATBPF_NR_TYPES];	/* summed over CPUs after stop */
	uint64_t dropped, lost_records, pending;
	uint64_t steal_reads;			  /* steal clock readings (latbpf_steal.bpf.h) */
	uint64_t steal_records, steal_ns;	  /* steal records read, their sum */
	uint64_t steal_clock[LAT_BPF_STEAL_CPUS]; /* per CPU: the clock of its last */
	uint64_t open_ends, clipped;
	uint64_t other_process;		/* records of another process: a filter bug */
	struct lat_bpf_follow follow;	/* the processes the workload forked */
	unsigned int programs, missing;
	char missing_names[256];
	char err[200];
	struct lat_evbuf *buf;		/* what the reader fills */
	int running;
	int syscalls;			/* load latbpf_sys.bpf.h's programs */
	sem_t ready;
};

/* A power of two of at least one page holding events records. */
static uint64_t ring_bytes(uint64_t events)
{
	uint64_t want = events * LAT_BPF_REC_BYTES, b = (uint64_t)sysconf(_SC_PAGESIZE);

	while (b < want)
		b <<= 1;
	return b;
}

/* One record: kept in the buffer or counted as dropped. */
static void keep(struct lat_bpf *b, const struct latmon_event *e)
{
	b->buf->read_records++;
	if (b->buf->n < b->buf->cap)
		memcpy(&b->buf->ev[b->buf->n++], e, sizeof(*e));
	else
		lat_evbuf_drop(b->buf, e);
}

/* One ring entry: a record or a batch of them. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct lat_bpf *b = ctx;
	const struct latmon_event *e = data;
	size_t i;

	if (!size || size % sizeof(*e))
		b->short_records++;
	for (i = 0; i < size / sizeof(*e); i++)
		keep(b, &e[i]);
	return 0;
}

static void *reader_main(void *arg)
{
	struct lat_bpf *b = arg;
	struct timespec ts = { 0, LAT_BPF_POLL_NS };

	pthread_setname_np(pthread_self(), "latctl-reader");
	if (b->buf->reader_cpu >= 0)
		b->buf->reader_cpu = lat_evbuf_pin_elsewhere(b->buf->reader_cpu);
	lat_evbuf_warm_stack();
	sem_post(&b->ready);
	while (!b->stop) {
		ring_buffer__consume(b->rb);
		lat_ktime_mid(&b->clock);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* Programs whose tracepoint this kernel lacks are not loaded; named.
 * Programs already off (system calls outside exec) are not counted. */
static void skip_missing(struct lat_bpf *b)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct bpf_program *p;
	char type[128];
	size_t len;

	bpf_object__for_each_program(p, b->skel->obj) {
		const char *tp = strchr(bpf_program__section_name(p), '/');

		if (!bpf_program__autoload(p))
			continue;	/* not wanted in this run */
		b->programs++;
		snprintf(type, sizeof(type), "btf_trace_%s", tp ? tp + 1 : "");
		if (vmlinux && btf__find_by_name_kind(vmlinux, type, BTF_KIND_TYPEDEF) >= 0)
			continue;
		bpf_program__set_autoload(p, false);
		b->missing++;
		len = strlen(b->missing_names);
		snprintf(b->missing_names + len, sizeof(b->missing_names) - len, "%s%s",
			 len ? " " : "", tp ? tp + 1 : "?");
	}
	btf__free(vmlinux);
}

/* open -> load -> attach for this process; err says what failed. */
static int load_attach(struct lat_bpf *b, uint64_t ring)
{
	int ret;

	b->skel = latbpf__open();
	if (!b->skel) {
		ret = -errno;
		snprintf(b->err, sizeof(b->err), "opening the BPF object failed: %s", strerror(-ret));
		return ret;
	}
	b->skel->rodata->target_tgid = (uint32_t)getpid();
	b->skel->rodata->swap_on = lat_swap_on();
	b->skel->rodata->numa_on = lat_numa_balancing_on();
	b->ring_bytes = ring_bytes(ring);
	bpf_map__set_max_entries(b->skel->maps.rb, (uint32_t)b->ring_bytes);
	bpf_map__set_max_entries(b->skel->maps.followed, b->follow.max);
	if (!b->syscalls) {
		bpf_program__set_autoload(b->skel->progs.on_sys_enter, false);
		bpf_program__set_autoload(b->skel->progs.on_sys_exit, false);
	}
	skip_missing(b);
	b->skel->rodata->have_filemap_fault =
		bpf_program__autoload(b->skel->progs.on_filemap_fault);
	ret = latbpf__load(b->skel);
	if (ret) {
		snprintf(b->err, sizeof(b->err), "loading the BPF programs failed: %s", strerror(-ret));
		return ret;
	}
	ret = latbpf__attach(b->skel);
	if (ret)
		snprintf(b->err, sizeof(b->err), "attaching the BPF programs failed: %s", strerror(-ret));
	return ret;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN && getenv("LATCTL_BPF_DEBUG") ? vfprintf(stderr, fmt, ap) : 0;
}

/* Fail the start with the reason in b->err: -1. */
/* The descriptors the programs, maps, links and ring take, about. */
#define BPF_FDS_NEEDED	128

/* why into b->err; a low ulimit -n named, as libbpf may report its EMFILE
 * as another error. */
static int fail(struct lat_bpf *b, const char *why)
{
	struct rlimit nofile;
	size_t len;

	if (why != b->err)
		snprintf(b->err, sizeof(b->err), "%s", why);
	len = strlen(b->err);
	if (!getrlimit(RLIMIT_NOFILE, &nofile) && nofile.rlim_cur < BPF_FDS_NEEDED)
		snprintf(b->err + len, sizeof(b->err) - len,
			 " (too many open files: ulimit -n is %llu, the BPF backend needs about %d)",
			 (unsigned long long)nofile.rlim_cur, BPF_FDS_NEEDED);
	return -1;
}

int lat_bpf_start(struct lat_bpf *b, struct lat_evbuf *buf, int measured_cpu)
{
	libbpf_set_print(libbpf_quiet);
	b->buf = buf;
	if (lat_evbuf_alloc(buf))
		return fail(b, "no memory for the record buffer (--events)");
	if (load_attach(b, b->ring_events))
		return fail(b, b->err);
	b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.rb), on_record, b, NULL);
	if (!b->rb)
		return fail(b, "cannot map the BPF ring buffer");
	if (lat_ktime_begin(&b->clock, lat_tsc_hz()))
		return fail(b, "no memory for the clock checkpoints");
	buf->reader_cpu = measured_cpu;
	sem_init(&b->ready, 0, 0);
	if (pthread_create(&b->reader, NULL, reader_main, b))
		return fail(b, "cannot start the reader thread");
	b->reader_up = 1;
	sem_wait(&b->ready);
	b->running = 1;
	return 0;
}

const char *lat_bpf_error(const struct lat_bpf *b)
{
	return b->err;
}

/* The records left in each CPU's batch, numbered after the CPU's last. */
static void read_batches(struct lat_bpf *b, const struct latbpf_cpu *c, unsigned int n)
{
	struct latbpf_batch *v = calloc(n, sizeof(*v));
	uint32_t zero = 0, i;
	unsigned int cpu;

	if (!v || bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.batches), &zero, v)) {
		free(v);
		return;
	}
	for (cpu = 0; cpu < n; cpu++) {
		for (i = 0; i < v[cpu].n && i < LATBPF_BATCH; i++) {
			v[cpu].ev[i].seq = c[cpu].seq + !!c[cpu].lost + i;
			b->leftover++;
			keep(b, &v[cpu].ev[i]);
		}
	}
	free(v);
}

/* Per-CPU counters after detaching; drops still pending become lost records
 * (folded into latctl's own when its buffer dropped that CPU's records);
 * then the partial batches. */
static void read_cpus(struct lat_bpf *b)
{
	unsigned int n = (unsigned int)libbpf_num_possible_cpus(), cpu, t;
	struct latbpf_cpu *v = calloc(n, sizeof(*v));
	uint32_t zero = 0;

	if (!v || bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.cpus), &zero, v)) {
		free(v);
		return;
	}
	for (cpu = 0; cpu < n; cpu++) {
		for (t = 0; t < LATBPF_NR_TYPES; t++)
			b->tries[t] += v[cpu].tries[t];
		b->dropped += v[cpu].dropped;
		b->steal_reads += v[cpu].steal_reads;
		b->lost_records += v[cpu].lost_records;
		b->pending += v[cpu].lost;
		if (v[cpu].lost)
			lat_bpf_pending_lost(b->buf, cpu, &v[cpu]);
	}
	read_batches(b, v, n);
	free(v);
}

/* The steal records read: how many, their sum, each CPU's last clock. */
static void steal_scan(struct lat_bpf *b, const struct lat_evbuf *buf)
{
	const struct latmon_event *e;
	size_t i;

	for (i = 0; i < buf->n; i++) {
		e = &buf->ev[i];
		if (e->type != LATMON_EV_STEAL)
			continue;
		b->steal_records++;
		b->steal_ns += e->u.steal.steal_ns;
		if (e->cpu < LAT_BPF_STEAL_CPUS && e->u.steal.clock_ns > b->steal_clock[e->cpu])
			b->steal_clock[e->cpu] = e->u.steal.clock_ns;
	}
}

void lat_bpf_stop(struct lat_bpf *b, struct lat_evbuf *buf, struct lat_run *run)
{
	if (!b->running)
		return;
	b->running = 0;
	latbpf__detach(b->skel);
	b->stop = 1;
	pthread_join(b->reader, NULL);
	b->reader_up = 0;
	sem_destroy(&b->ready);
	ring_buffer__consume(b->rb);
	lat_ktime_end(&b->clock);
	read_cpus(b);
	lat_bpf_to_tsc(buf, &b->clock);
	lat_evbuf_add_own_lost(buf);
	steal_scan(b, buf);
	lat_bpf_fault_maps(buf, b->skel->rodata->have_filemap_fault);
	b->open_ends = lat_bpf_clip(buf, run, &b->clipped);
	lat_bpf_follow_read(&b->follow, &b->skel->bss->follow, bpf_map__fd(b->skel->maps.follow_log));
	b->other_process = lat_bpf_follow_other(&b->follow, buf->ev, buf->n);
	lat_bpf_follow_streams(&b->follow, run);
}

int lat_bpf_new(struct lat_bpf **bp, uint64_t ring_events, int syscalls)
{
	struct lat_bpf *b = calloc(1, sizeof(*b));

	*bp = b;
	if (!b)
		return -ENOMEM;
	b->ring_events = ring_events;
	b->syscalls = syscalls;
	return lat_bpf_follow_max(&b->follow.max);
}

void lat_bpf_close(struct lat_bpf *b, struct lat_evbuf *buf)
{
	if (!b)
		return;
	if (b->running)
		lat_bpf_stop(b, buf, NULL);
	if (b->reader_up) {
		b->stop = 1;
		pthread_join(b->reader, NULL);
	}
	ring_buffer__free(b->rb);
	lat_ktime_free(&b->clock);
	latbpf__destroy(b->skel);
	lat_bpf_follow_free(&b->follow);
	free(b);
}

/* "steal": readings, records, their sum, each CPU's steal clock at its
 * last record (the clock /proc/stat's steal column counts, in ns). */
static cJSON *steal_json(const struct lat_bpf *b)
{
	cJSON *o = cJSON_CreateObject(), *clock = cJSON_CreateObject();
	char cpu[16];
	int i;

	cJSON_AddNumberToObject(o, "reads", (double)b->steal_reads);
	cJSON_AddNumberToObject(o, "records", (double)b->steal_records);
	cJSON_AddNumberToObject(o, "recorded_ns", (double)b->steal_ns);
	for (i = 0; i < LAT_BPF_STEAL_CPUS; i++) {
		if (!b->steal_clock[i])
			continue;
		snprintf(cpu, sizeof(cpu), "%d", i);
		cJSON_AddNumberToObject(clock, cpu, (double)b->steal_clock[i]);
	}
	cJSON_AddItemToObject(o, "clock_at_last_ns", clock);
	return o;
}

/* Record counts by type: what the programs tried to write. */
static cJSON *tries_json(const struct lat_bpf *b)
{
	static const char *const names[LATBPF_NR_TYPES] = {
		[LATMON_EV_FAULT] = "fault",	 [LATMON_EV_THP_CLEAR] = "thp_clear",
		[LATMON_EV_SCHED] = "sched",	 [LATMON_EV_IRQ] = "irq",
		[LATMON_EV_MIGRATE] = "migrate", [LATMON_EV_LOST] = "lost",
		[LATMON_EV_SYSCALL] = "syscall", [LATMON_EV_WAKE] = "wake",
		[LATMON_EV_STEAL] = "steal",
	};
	cJSON *o = cJSON_CreateObject();
	int t;

	for (t = 0; t < LATBPF_NR_TYPES; t++)
		if (names[t])
			cJSON_AddNumberToObject(o, names[t], (double)b->tries[t]);
	return o;
}

cJSON *lat_bpf_json(const struct lat_bpf *b, const struct lat_evbuf *buf)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "programs", b->programs - b->missing);
	cJSON_AddStringToObject(o, "missing_tracepoints", b->missing_names);
	cJSON_AddNumberToObject(o, "ring_bytes", (double)b->ring_bytes);
	cJSON_AddNumberToObject(o, "buffer_events", (double)buf->cap);
	cJSON_AddNumberToObject(o, "records_read", (double)buf->read_records);
	cJSON_AddItemToObject(o, "tried", tries_json(b));
	cJSON_AddItemToObject(o, "steal", steal_json(b));
	cJSON_AddNumberToObject(o, "lost_in_ring", (double)b->dropped);
	cJSON_AddNumberToObject(o, "lost_records", (double)b->lost_records);
	cJSON_AddNumberToObject(o, "lost_pending_at_stop", (double)b->pending);
	cJSON_AddNumberToObject(o, "lost_by_latctl", (double)buf->dropped);
	cJSON_AddNumberToObject(o, "short_records", (double)b->short_records);
	cJSON_AddNumberToObject(o, "batch_leftover", (double)b->leftover);
	cJSON_AddNumberToObject(o, "other_process_records", (double)b->other_process);
	cJSON_AddItemToObject(o, "followed", lat_bpf_follow_json(&b->follow));
	cJSON_AddNumberToObject(o, "fault_ends_open", (double)b->open_ends);
	cJSON_AddNumberToObject(o, "fault_ends_clipped", (double)b->clipped);
	cJSON_AddItemToObject(o, "reader_cpu", buf->reader_cpu >= 0 && buf->ev ?
			      cJSON_CreateNumber(buf->reader_cpu) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "clock", lat_ktime_json(&b->clock));
	return o;
}
