// SPDX-License-Identifier: MIT
/*
 * mmap: the LKML report "mmap/munmap 20ms latencies". N worker
 * processes (default: one per online CPU) each repeat at random: map 1-20
 * anonymous pages and write the length into the first page, or unmap a
 * random live mapping. Every operation is timed; the report lists every one
 * over 1 ms and the totals of each process. Processes share nothing but the
 * kernel (mm locks, page allocator, TLB shootdowns), which is the point.
 *
 * Samples: run->samples is MAP_SHARED; process k writes its own slice
 * [k*iters, k*iters + n_k) and its totals into a shared struct; after the
 * children exit the parent packs the slices to [0, n). Stream k is worker
 * k's, joined with latmon's events of its pid (latmon follows the forks).
 */
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "lib/tsc.h"
#include "workload/workload.h"

/* Its options (mmap_opts). */
static struct mmap_cfg {
	double duration_s;	/* --duration, 0 = DEFAULT_SECONDS */
	int procs;		/* --procs, 0 = one per online CPU */
} cfg;

#define MAX_PAGES	20
#define LIVE_MAX	32768		/* live mappings per process, pre-sized */
#define BIAS_OPS	10000		/* the seed maps more than it unmaps first */
#define SLOW_NS		1e6		/* report every operation over 1 ms */
#define SLOW_LIST_MAX	50		/* ... listing at most this many */
#define DEFAULT_SECONDS	5.0

/* The most worker processes (--procs). */
#define MAX_PROCS 1024

/* flags of a sample: bit 8 unmap, pages in bits 9-13, process from bit 16 */
#define F_UNMAP		(1U << 8)
#define PAGES_SHIFT	9
#define PROC_SHIFT	16

/* One worker's results, in shared memory. */
struct mmap_proc {
	pid_t pid;
	int err;			/* -errno of a failed mmap/munmap */
	size_t n, maps, unmaps, live_end;
	uint64_t total_ticks, max_ticks;
	long minflt, nvcsw, nivcsw;	/* from wait4() */
};

struct live { void *p; size_t len; };

struct mmap_wl {
	struct lat_run *run;
	int nprocs;
	size_t per_proc, live_cap;
	double seconds;
	long pagesz;
	struct mmap_proc *procs;	/* MAP_SHARED, nprocs entries */
	const char *stop;		/* "duration" or "iters" */
};

/* Refuse a sample array larger than half of the RAM, before the core maps it. */
static int mmap_check_size(struct mmap_wl *m)
{
	double bytes = (double)m->nprocs * (double)m->per_proc * sizeof(struct lat_sample);
	double ram = (double)sysconf(_SC_PHYS_PAGES) * (double)m->pagesz;

	if (bytes <= ram / 2)
		return 0;
	fprintf(stderr, "mmap: %d processes x %zu operations need %.1f GiB of samples; lower --iters or --procs\n",
		m->nprocs, m->per_proc, bytes / (1 << 30));
	return -EINVAL;
}

static void mmap_teardown(struct lat_run *run);

/* Resolve --procs, --duration and --iters; size the shared results. */
static int mmap_prepare(struct lat_run *run)
{
	struct mmap_wl *m = calloc(1, sizeof(*m));
	int ret;

	if (!m)
		return -ENOMEM;
	run->priv = m;
	m->run = run;
	m->pagesz = sysconf(_SC_PAGESIZE);
	m->nprocs = cfg.procs > 0 ? cfg.procs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (m->nprocs > MAX_PROCS) {
		fprintf(stderr,
			"mmap: --procs %d is more than the %d worker processes it runs at most\n",
			m->nprocs, MAX_PROCS);
		return -EINVAL;
	}
	m->seconds = cfg.duration_s > 0 ? cfg.duration_s : DEFAULT_SECONDS;
	m->per_proc = run->iters;
	m->live_cap = m->per_proc < LIVE_MAX ? m->per_proc : LIVE_MAX;
	ret = mmap_check_size(m);
	if (ret)
		return ret;
	run->cap = (size_t)m->nprocs * m->per_proc;
	m->procs = mmap(NULL, m->nprocs * sizeof(*m->procs), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m->procs == MAP_FAILED) {
		m->procs = NULL;
		return -errno;
	}
	memset(m->procs, 0, m->nprocs * sizeof(*m->procs));
	return 0;
}

/* setup: prepare, or undo everything on failure (the core calls teardown only after success). */
static int mmap_setup(struct lat_run *run)
{
	int ret = mmap_prepare(run);

	if (ret)
		mmap_teardown(run);
	return ret;
}

/* Map len bytes and write the length into the first page (as in the report). */
static inline int op_map(struct live *l, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	*(size_t *)p = len;
	l->p = p;
	l->len = len;
	return 0;
}

/* Map or unmap at random, the report's mix: 1:1, more maps in the first ops. */
static inline int choose_unmap(uint64_t *seed, size_t op, size_t live, size_t cap)
{
	uint64_t r = lat_rand64(seed);
	int unmap = r & 1;

	if (unmap && op < BIAS_OPS && (r & 2))
		unmap = 0;
	if (live == 0)
		return 0;
	return unmap || live == cap;
}

/* One timed operation into s; updates the live table and the totals. */
static inline int mmap_one(struct mmap_wl *m, struct mmap_proc *pr, struct live *live,
			   uint64_t *seed, size_t op, struct lat_sample *s)
{
	uint64_t r = lat_rand64(seed);
	int ret = 0;

	if (choose_unmap(seed, op, pr->live_end, m->live_cap)) {
		struct live *l = &live[r % pr->live_end];
		size_t len = l->len;

		s->tsc_begin = lat_tsc(&s->cpu_begin);
		if (munmap(l->p, len) < 0)
			ret = -errno;
		s->tsc_end = lat_tsc(&s->cpu_end);
		s->flags |= F_UNMAP | (uint32_t)(len / m->pagesz) << PAGES_SHIFT;
		*l = live[--pr->live_end];
		pr->unmaps++;
	} else {
		size_t pages = r % MAX_PAGES + 1;

		s->tsc_begin = lat_tsc(&s->cpu_begin);
		ret = op_map(&live[pr->live_end], pages * m->pagesz);
		s->tsc_end = lat_tsc(&s->cpu_end);
		s->flags |= (uint32_t)pages << PAGES_SHIFT;
		pr->live_end += !ret;
		pr->maps++;
	}
	return ret;
}

/* A worker process: the timed loop until the deadline or per_proc ops. */
static void mmap_worker(struct mmap_wl *m, int k, struct live *live)
{
	struct mmap_proc *pr = &m->procs[k];
	struct lat_sample *s = m->run->samples + (size_t)k * m->per_proc;
	uint64_t seed = m->run->seed + (uint64_t)k, t;
	uint64_t deadline = lat_tsc(&s->cpu_begin) + (uint64_t)(m->seconds * m->run->tsc_hz);
	size_t i;

	for (i = 0; i < m->per_proc; i++) {
		s[i].flags = (uint32_t)k << PROC_SHIFT | (i ? 0 : LAT_SAMPLE_F_NEWSTREAM);
		pr->err = mmap_one(m, pr, live, &seed, i, &s[i]);
		t = s[i].tsc_end - s[i].tsc_begin;
		pr->total_ticks += t;
		pr->max_ticks = t > pr->max_ticks ? t : pr->max_ticks;
		if (pr->err || s[i].tsc_end > deadline) {
			i++;
			break;
		}
	}
	pr->n = i;
}

/* The parent's handler (undo THP, files) is not the child's: default, unless ignored. */
static void child_default_signal(int sig)
{
	struct sigaction sa;

	if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
		signal(sig, SIG_DFL);
}

/* Child side: no signal handlers of the parent, pre-sized table, wait, run. */
static void mmap_child(struct mmap_wl *m, int k, int go_fd)
{
	struct live *live;
	char c;

	child_default_signal(SIGINT);
	child_default_signal(SIGTERM);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	m->procs[k].pid = getpid();
	live = calloc(m->live_cap, sizeof(*live));
	if (!live) {
		m->procs[k].err = -ENOMEM;
		_exit(1);
	}
	memset(live, 0xff, m->live_cap * sizeof(*live));	/* pre-fault */
	if (read(go_fd, &c, 1) < 0)	/* EOF when the parent releases all */
		_exit(1);
	mmap_worker(m, k, live);
	_exit(0);	/* never the parent's atexit handlers (THP restore) */
}

/* Fork the workers; they block on go_fd until the parent closes its end. */
static int mmap_fork_all(struct mmap_wl *m, int fds[2], int *forked)
{
	*forked = 0;
	if (lat_run_streams(m->run, (size_t)m->nprocs))
		return -ENOMEM;
	for (; *forked < m->nprocs; (*forked)++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "mmap: cannot fork worker %d: %s\n", *forked, strerror(errno));
			return -errno;
		}
		if (pid == 0) {
			close(fds[1]);
			mmap_child(m, *forked, fds[0]);
		}
		m->procs[*forked].pid = pid;
		m->run->streams[*forked].tid = (uint32_t)pid; /* latmon follows the fork */
	}
	return 0;
}

/* Reap every worker and keep its fault and switch counts. */
static int mmap_wait_all(struct mmap_wl *m, int forked)
{
	int ret = 0;

	for (int k = 0; k < forked; k++) {
		struct mmap_proc *pr = &m->procs[k];
		struct rusage ru;
		int status;

		if (wait4(pr->pid, &status, 0, &ru) < 0) {
			ret = ret ? ret : -errno;
			continue;
		}
		pr->minflt = ru.ru_minflt;
		pr->nvcsw = ru.ru_nvcsw;
		pr->nivcsw = ru.ru_nivcsw;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "mmap: worker %d (pid %d) %s %d\n", k, (int)pr->pid,
				WIFEXITED(status) ? "exited with" : "killed by signal",
				WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
			ret = ret ? ret : -ECHILD;
		}
	}
	return ret;
}

/* Move each worker's slice down so the samples are [0, n). */
static size_t mmap_pack(struct mmap_wl *m)
{
	size_t n = 0;

	for (int k = 0; k < m->nprocs; k++) {
		struct lat_sample *src = m->run->samples + (size_t)k * m->per_proc;

		memmove(m->run->samples + n, src, m->procs[k].n * sizeof(*src));
		n += m->procs[k].n;
	}
	return n;
}

/* First worker error, printed once with what failed. */
static int mmap_worker_error(const struct mmap_wl *m)
{
	for (int k = 0; k < m->nprocs; k++)
		if (m->procs[k].err) {
			fprintf(stderr, "mmap: worker %d: mmap/munmap failed: %s (vm.max_map_count? memory?)\n",
				k, strerror(-m->procs[k].err));
			/* -EINVAL would tell the core "bad option" (exit 2) */
			return m->procs[k].err == -EINVAL ? -EIO : m->procs[k].err;
		}
	return 0;
}

/* Fork, release all workers at once, reap them, pack the samples. */
static int mmap_run(struct lat_run *run)
{
	struct mmap_wl *m = run->priv;
	int fds[2], forked = 0, ret;

	if (pipe(fds) < 0)
		return -errno;
	fflush(NULL);	/* no buffered output duplicated in the children */
	ret = mmap_fork_all(m, fds, &forked);
	close(fds[0]);
	for (int k = 0; ret && k < forked; k++)
		kill(m->procs[k].pid, SIGKILL);
	close(fds[1]);	/* the start signal */
	if (mmap_wait_all(m, forked) && !ret)
		ret = -ECHILD;
	if (!ret)
		ret = mmap_worker_error(m);
	run->n = ret ? 0 : mmap_pack(m);
	m->stop = "iters";
	for (int k = 0; k < m->nprocs; k++)
		if (m->procs[k].n < m->per_proc)
			m->stop = "duration";
	return ret;
}

/* One worker's totals; its samples start at first in the packed array. */
static cJSON *proc_json(const struct mmap_wl *m, int k, size_t first)
{
	const struct mmap_proc *pr = &m->procs[k];
	cJSON *o = cJSON_CreateObject();
	double total_ns = (double)pr->total_ticks * 1e9 / m->run->tsc_hz;
	size_t slow = 0;

	for (size_t i = first; i < first + pr->n; i++)
		slow += lat_sample_ns(m->run, &m->run->samples[i]) > SLOW_NS;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "process", k);
	cJSON_AddNumberToObject(o, "pid", pr->pid);
	cJSON_AddNumberToObject(o, "ops", (double)pr->n);
	cJSON_AddNumberToObject(o, "maps", (double)pr->maps);
	cJSON_AddNumberToObject(o, "unmaps", (double)pr->unmaps);
	cJSON_AddNumberToObject(o, "live_at_end", (double)pr->live_end);
	cJSON_AddNumberToObject(o, "total_ns", total_ns);
	cJSON_AddNumberToObject(o, "mean_ns", pr->n ? total_ns / (double)pr->n : 0.0);
	cJSON_AddNumberToObject(o, "max_ns", (double)pr->max_ticks * 1e9 / m->run->tsc_hz);
	cJSON_AddNumberToObject(o, "over_1ms", (double)slow);
	cJSON_AddNumberToObject(o, "minor_faults", (double)pr->minflt);
	cJSON_AddNumberToObject(o, "voluntary_switches", (double)pr->nvcsw);
	cJSON_AddNumberToObject(o, "involuntary_switches", (double)pr->nivcsw);
	return o;
}

/* A slow operation found in the pooled samples. */
struct slow_ref {
	const struct lat_sample *s;
	uint64_t ticks;
	size_t op;		/* index of the operation in its process */
	size_t index;		/* ... and in the packed samples */
};

static int by_ticks_desc(const void *a, const void *b)
{
	const struct slow_ref *x = a, *y = b;

	return x->ticks < y->ticks ? 1 : x->ticks > y->ticks ? -1 : 0;
}

static int by_start(const void *a, const void *b)
{
	const struct slow_ref *x = a, *y = b;

	return x->s->tsc_begin > y->s->tsc_begin ? 1 : x->s->tsc_begin < y->s->tsc_begin ? -1 : 0;
}

/* One operation over 1 ms: when, who, which op of that process, what, how long. */
static cJSON *slow_json(const struct mmap_wl *m, const struct slow_ref *r, uint64_t t0)
{
	int k = (int)(r->s->flags >> PROC_SHIFT);
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "t_ms", (double)(r->s->tsc_begin - t0) * 1e3 / m->run->tsc_hz);
	cJSON_AddNumberToObject(o, "process", k);
	cJSON_AddNumberToObject(o, "pid", m->procs[k].pid);
	cJSON_AddNumberToObject(o, "op", (double)r->op);
	cJSON_AddNumberToObject(o, "index", (double)r->index);
	cJSON_AddStringToObject(o, "kind", r->s->flags & F_UNMAP ? "munmap" : "mmap");
	cJSON_AddNumberToObject(o, "pages", (r->s->flags >> PAGES_SHIFT) & 0x1f);
	cJSON_AddNumberToObject(o, "ns", (double)r->ticks * 1e9 / m->run->tsc_hz);
	return o;
}

/* Every operation over 1 ms into refs (sized run->n); returns how many. */
static size_t mmap_find_slow(const struct mmap_wl *m, struct slow_ref *refs, uint64_t *t0)
{
	uint64_t limit = (uint64_t)(SLOW_NS * m->run->tsc_hz / 1e9);
	size_t count = 0, i = 0;

	*t0 = UINT64_MAX;
	for (int k = 0; k < m->nprocs; k++)
		for (size_t op = 0; op < m->procs[k].n; op++, i++) {
			const struct lat_sample *s = &m->run->samples[i];
			uint64_t t = s->tsc_end - s->tsc_begin;

			*t0 = s->tsc_begin < *t0 ? s->tsc_begin : *t0;
			if (t > limit)
				refs[count++] = (struct slow_ref){ s, t, op, i };
		}
	return count;
}

/* The count of operations over 1 ms, and the slowest SLOW_LIST_MAX in time order. */
static void mmap_add_slow(cJSON *o, const struct mmap_wl *m)
{
	struct slow_ref *refs = malloc(m->run->n * sizeof(*refs));
	cJSON *list = cJSON_AddArrayToObject(o, "slow_ops");
	size_t count, shown;
	uint64_t t0;

	if (!refs || !list)
		goto out;
	count = mmap_find_slow(m, refs, &t0);
	qsort(refs, count, sizeof(*refs), by_ticks_desc);
	shown = count < SLOW_LIST_MAX ? count : SLOW_LIST_MAX;
	qsort(refs, shown, sizeof(*refs), by_start);
	for (size_t i = 0; i < shown; i++)
		cJSON_AddItemToArray(list, slow_json(m, &refs[i], t0));
	cJSON_AddNumberToObject(o, "slow_ops_count", (double)count);
	cJSON_AddNumberToObject(o, "slow_threshold_ns", SLOW_NS);
out:
	free(refs);
}

static cJSON *mmap_extras(const struct lat_run *run)
{
	const struct mmap_wl *m = run->priv;
	cJSON *o = cJSON_CreateObject(), *procs;

	if (!o || !run->n)
		return o;
	cJSON_AddNumberToObject(o, "processes", m->nprocs);
	cJSON_AddNumberToObject(o, "duration_s", m->seconds);
	cJSON_AddNumberToObject(o, "ops_per_process_max", (double)m->per_proc);
	cJSON_AddStringToObject(o, "stopped_by", m->stop);
	cJSON_AddNumberToObject(o, "operations", (double)run->n);
	mmap_add_slow(o, m);
	procs = cJSON_AddArrayToObject(o, "per_process");
	for (size_t k = 0, first = 0; procs && k < (size_t)m->nprocs; first += m->procs[k++].n)
		cJSON_AddItemToArray(procs, proc_json(m, (int)k, first));
	return o;
}

static void mmap_print_slow(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *s;
	double count = lat_rd_num(rd, x, "slow_ops_count");

	fprintf(out, "operations over %.0f ms: %.0f of %.0f%s\n", lat_rd_num(rd, x, "slow_threshold_ns") / 1e6,
		count, lat_rd_num(rd, x, "operations"),
		count > cJSON_GetArraySize(lat_rd_array(rd, x, "slow_ops")) ?
		"; the slowest listed, in time order from the first operation" :
		count ? "; in time order from the first operation" : "");
	cJSON_ArrayForEach(s, lat_rd_array(rd, x, "slow_ops")) {
		/* null: the operation is under --slow, so no breakdown names it */
		const cJSON *cause = lat_rd_get(rd, s, "cause", cJSON_String | cJSON_NULL);

		fprintf(out, "  [%10.3f ms] <%.0f> process %.0f op %.0f: %s of %.0f pages took %.0f us\n",
			lat_rd_num(rd, s, "t_ms"), lat_rd_num(rd, s, "pid"), lat_rd_num(rd, s, "process"),
			lat_rd_num(rd, s, "op"), lat_rd_str(rd, s, "kind"), lat_rd_num(rd, s, "pages"),
			lat_rd_num(rd, s, "ns") / 1e3);
		if (cJSON_IsString(cause))
			fprintf(out, "                 %s\n", cause->valuestring);
	}
}

static void mmap_print_extras(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *p;

	fprintf(out, "%.0f processes, each at most %.0f operations or %.1f s (stopped by %s); samples of all processes pooled\n",
		lat_rd_num(rd, x, "processes"), lat_rd_num(rd, x, "ops_per_process_max"), lat_rd_num(rd, x, "duration_s"),
		lat_rd_str(rd, x, "stopped_by"));
	mmap_print_slow(x, out, rd);
	cJSON_ArrayForEach(p, lat_rd_array(rd, x, "per_process"))
		fprintf(out, "process %.0f <%.0f>: %.0f ops (%.0f maps, %.0f unmaps), total %.1f ms, mean %.2f us, max %.1f us, %.0f over 1 ms, %.0f minor faults, %.0f involuntary switches\n",
			lat_rd_num(rd, p, "process"), lat_rd_num(rd, p, "pid"), lat_rd_num(rd, p, "ops"), lat_rd_num(rd, p, "maps"),
			lat_rd_num(rd, p, "unmaps"), lat_rd_num(rd, p, "total_ns") / 1e6, lat_rd_num(rd, p, "mean_ns") / 1e3,
			lat_rd_num(rd, p, "max_ns") / 1e3, lat_rd_num(rd, p, "over_1ms"), lat_rd_num(rd, p, "minor_faults"),
			lat_rd_num(rd, p, "involuntary_switches"));
}

static void mmap_teardown(struct lat_run *run)
{
	struct mmap_wl *m = run->priv;

	if (!m)
		return;
	if (m->procs)
		munmap(m->procs, m->nprocs * sizeof(*m->procs));
	free(m);
	run->priv = NULL;
}

static const struct lat_wl_opt mmap_opts[] = {
	{ "duration", LAT_WL_OPT_DURATION, "D", "run time bound with its unit (10s, 500ms)",
	  "duration_s", offsetof(struct mmap_cfg, duration_s) },
	{ "procs", LAT_WL_OPT_COUNT, "N", "worker processes (default: one per online CPU)",
	  "procs", offsetof(struct mmap_cfg, procs) },
	{ NULL },
};

const struct workload_ops wl_mmap = {
	.name = "mmap",
	.summary = "N processes mapping 1-20 pages and unmapping at random (the LKML report \"mmap/munmap 20ms latencies\")",
	.modes = NULL,
	.unit_name = "operation",
	.default_iters = 1000000,
	.setup = mmap_setup,
	.run = mmap_run,
	.extras = mmap_extras,
	.print_extras = mmap_print_extras,
	.teardown = mmap_teardown,
	.opts = mmap_opts,
	.config = &cfg,
	.config_size = sizeof(cfg),
	.default_slow = "1ms",		/* the operations it lists */
};
