// SPDX-License-Identifier: MIT
/*
 * `latctl run WORKLOAD`: set up, time every iteration, build the result
 * document, print the report rendered from it, write it with --json.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "backend/backend.h"
#include "lib/cleanup.h"
#include "join/causes.h"
#include "report/describe.h"
#include "system/counters.h"
#include "system/sysinfo.h"
#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "system/mmenv.h"
#include "backend/monitor.h"
#include "lib/parse.h"
#include "run/opts.h"
#include "lib/progress.h"
#include "run/deliver.h"
#include "run/hv.h"
#include "run/repeat.h"
#include "doc/result.h"
#include "system/thp.h"
#include "lib/tsc.h"
#include "run/vm.h"
#include "workload/workload.h"
#include "report/render.h"

struct run_ctx {
	struct lat_opts opts;
	struct lat_run run;
	struct lat_result_file file;
	struct lat_counters before, after;
	struct lat_session sess;
	uint64_t tsc_before, tsc_after;	/* around the counter reads */
	long long free_2m;
	double pair_ns;
	cJSON *doc;
	struct lat_run_hv hv; /* the hypervisor's evidence (run/hv.h) */
	int set_up;
	int interrupted;	/* a Ctrl-C ended the timed loop early */
};

/* Room --memcg leaves besides the loop's data: page tables, the stack,
 * libc's arenas, a huge page's worth of slack. */
#define MEMCG_MARGIN	(8ULL << 20)

/* A --memcg below what the loop faults in is refused before anything runs:
 * the cgroup's OOM killer would end the run (latctl with it). */
static int check_memcg(const struct lat_run *run, uint64_t limit)
{
	uint64_t need = run->ops->memory_need ? run->ops->memory_need(run) : 0;
	uint64_t want = (need + MEMCG_MARGIN + (1ULL << 20) - 1) >> 20;

	if (!limit || !need || limit >= want << 20)
		return 0;
	fprintf(stderr, "latctl: --memcg %lluM is too small: %s (%s%s%s--iters %llu) faults in about %llu MiB during its loop; give --memcg %lluM or more (or fewer --iters)\n",
		(unsigned long long)(limit >> 20), run->ops->name, run->mode ? "mode " : "",
		run->mode ? run->mode : "", run->mode ? ", " : "", (unsigned long long)run->iters,
		(unsigned long long)((need + (1ULL << 20) - 1) >> 20),
		(unsigned long long)want);
	return -EINVAL;
}

/* Reject options the workload does not take, and unknown modes. */
static int check_applicable(const struct workload_ops *ops, const struct lat_opts *o)
{
	if (lat_wl_opts_apply(ops, o->wl_arg))
		return -EINVAL;
	if (o->mode && !ops->modes) {
		fprintf(stderr, "latctl: %s has no modes; drop --mode\n", ops->name);
		return -EINVAL;
	}
	return 0;
}

/* The mode named by --mode, or the first of ops->modes. */
static int resolve_mode(const struct workload_ops *ops, const char *want,
			char *buf, size_t len)
{
	const char *p = ops->modes;
	size_t n;

	buf[0] = '\0';
	while (p && *p) {
		n = strcspn(p, "|");
		if (!want || (strlen(want) == n && !strncmp(p, want, n))) {
			snprintf(buf, len, "%.*s", (int)n, p);
			return 0;
		}
		p += n + (p[n] == '|');
	}
	if (!want)
		return 0;
	fprintf(stderr, "latctl: %s has no mode '%s'; modes: %s\n", ops->name, want, ops->modes);
	return -EINVAL;
}

static int pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "latctl: --cpu %d: cannot run there (%s); this machine has %ld CPUs online, numbered from 0\n",
			cpu, strerror(errno), sysconf(_SC_NPROCESSORS_ONLN));
		return -EINVAL;
	}
	return 0;
}

/* Shared anonymous sample array, written once so no fault lands in the loop. */
static int alloc_samples(struct lat_run *run)
{
	size_t bytes = run->cap * sizeof(*run->samples);

	run->samples = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run->samples == MAP_FAILED) {
		run->samples = NULL;
		fprintf(stderr, "latctl: cannot map %zu MiB for %zu samples: %s; use a smaller --iters\n",
			bytes >> 20, run->cap, strerror(errno));
		return -ENOMEM;
	}
	memset(run->samples, 0xff, bytes);
	return 0;
}

/* The core's options (their table's keys), then the workload's own. */
static cJSON *options_json(const struct lat_opts *o, const struct workload_ops *ops)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "workload", o->workload);
	lat_run_opts_json(j, o);
	lat_wl_opts_json(j, ops);
	return j;
}

/* Where the samples lie on the TSC (first begin, last end) and how many
 * streams they are in: for a timeline of concurrent streams. */
static void span_json(cJSON *j, const struct lat_run *run)
{
	uint64_t first = UINT64_MAX, last = 0;
	size_t i, streams = 1;

	for (i = 0; i < run->n; i++) {
		first = run->samples[i].tsc_begin < first ? run->samples[i].tsc_begin : first;
		last = run->samples[i].tsc_end > last ? run->samples[i].tsc_end : last;
		streams += i && (run->samples[i].flags & LAT_SAMPLE_F_NEWSTREAM);
	}
	cJSON_AddNumberToObject(j, "streams", (double)streams);
	cJSON_AddNumberToObject(j, "tsc_first", (double)first);
	cJSON_AddNumberToObject(j, "tsc_last", (double)last);
}

static cJSON *run_json(const struct lat_run *run)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "workload", run->ops->name);
	cJSON_AddItemToObject(j, "mode", run->mode[0] ? cJSON_CreateString(run->mode) : cJSON_CreateNull());
	cJSON_AddStringToObject(j, "unit", run->ops->unit_name);
	cJSON_AddNumberToObject(j, "iterations", (double)run->n);
	cJSON_AddBoolToObject(j, "pinned", run->cpu >= 0);
	cJSON_AddNumberToObject(j, "cpu_first", run->samples[0].cpu_begin);
	cJSON_AddNumberToObject(j, "cpu_last", run->samples[run->n - 1].cpu_end);
	span_json(j, run);
	return j;
}

/* Migrations inside one iteration, and between consecutive iterations. */
static void count_migrations(const struct lat_run *run, long long *within,
			     long long *between)
{
	const struct lat_sample *s = run->samples;
	size_t i;

	*within = *between = 0;
	for (i = 0; i < run->n; i++) {
		*within += s[i].cpu_begin != s[i].cpu_end;
		if (i && !(s[i].flags & LAT_SAMPLE_F_NEWSTREAM))
			*between += s[i].cpu_begin != s[i - 1].cpu_end;
	}
}

/* 1 if a --slow value is a time, not a percentile. */
static bool slow_is_time(const char *slow)
{
	struct lat_threshold t;

	return !lat_parse_threshold(slow, &t) && !t.is_percentile;
}

/* The --slow threshold in ns: a percentile of the sorted latencies or a
 * time; *at_max when it is a percentile that is the slowest latency. */
static double slow_limit(const struct lat_run *run, const char *slow, const double *sorted,
			 bool *at_max)
{
	struct lat_threshold t;
	double v;

	lat_parse_threshold(slow, &t);	/* validated by lat_opts_parse */
	if (!t.is_percentile)
		return t.value;
	v = lat_percentile_sorted(sorted, run->n, t.value);
	*at_max = run->n > 0 && v >= sorted[run->n - 1];
	return v;
}

/* The join of the samples with latmon's events: "slow" and "causes". */
static int add_causes(struct run_ctx *c, const double *sorted)
{
	const char *slow = lat_run_slow(&c->opts);
	int ret;
	struct lat_causes_in in = {
		.run = &c->run,
		.events = c->sess.buf.ev,
		.n_events = c->sess.buf.n,
		.have_events = lat_backend_recording(&c->sess),
		.threshold = slow,
		.tsc_before = c->tsc_before,
		.tsc_after = c->tsc_after,
	};

	in.limit_ns = slow_limit(&c->run, slow, sorted, &in.at_max);
	in.typical_ns = lat_percentile_sorted(sorted, c->run.n, 50);
	if (!c->opts.slow && !slow_is_time(slow) && in.limit_ns < LAT_SLOW_MEDIANS * in.typical_ns) {
		in.percentile_ns = in.limit_ns;	/* ordinary variation: no tail */
		in.limit_ns = LAT_SLOW_MEDIANS * in.typical_ns;
		in.at_max = false;
	}
	lat_run_hv_add(&c->hv, c->doc, &in);

	cJSON_AddItemToObject(c->doc, "latmon", lat_monitor_json(&c->sess.mon));
	cJSON_AddItemToObject(c->doc, "backend", lat_backend_json(&c->sess));
	ret = lat_causes_add(c->doc, &in);
	lat_backend_mark(c->doc, &c->sess);
	return ret;
}

/* Summary, histogram, counters and slow list from the samples. */
static int analyze(struct run_ctx *c)
{
	struct lat_run *run = &c->run;
	struct lat_counters d;
	struct lat_summary s;
	struct lat_hist h = { { 0 } };
	long long within, between;
	double *ns;
	size_t i;
	int ret;

	ns = malloc(run->n * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	for (i = 0; i < run->n; i++) {
		ns[i] = lat_sample_ns(run, &run->samples[i]);
		lat_hist_add(&h, ns[i]);
	}
	lat_summary_compute(ns, run->n, &s);
	lat_counters_delta(&c->before, &c->after, &d);
	d.minflt = d.minflt > (long long)run->own_minflt ? d.minflt - (long long)run->own_minflt : 0;
	count_migrations(run, &within, &between);
	cJSON_AddItemToObject(c->doc, "summary", lat_result_summary(&s));
	cJSON_AddItemToObject(c->doc, "histogram", lat_result_histogram(&h));
	cJSON_AddItemToObject(c->doc, "counters",
			      lat_result_counters(&d, within, between, c->free_2m));
	ret = add_causes(c, ns);
	free(ns);
	return ret;
}

/* Everything the user typed: options, workload, mode. LAT_EXIT_* . */
static int prepare(struct run_ctx *c, int argc, char **argv, char *mode, size_t len)
{
	const struct workload_ops *ops;
	int ret;

	lat_opts_init(&c->opts);
	ret = lat_opts_parse(argc, argv, &c->opts);
	if (ret)
		return ret == LAT_PARSED_HELP ? -1 : LAT_EXIT_USAGE;	/* -1: --help printed */
	ops = lat_workload_find(c->opts.workload);
	if (!ops) {
		fprintf(stderr, "latctl: unknown workload '%s'; 'latctl list' shows them\n",
			c->opts.workload);
		return LAT_EXIT_USAGE;
	}
	if (check_applicable(ops, &c->opts) || resolve_mode(ops, c->opts.mode, mode, len))
		return LAT_EXIT_USAGE;
	c->run.cpu = c->opts.cpu;
	c->run.seed = c->opts.seed;
	c->run.ops = ops;
	c->run.mode = mode;
	c->run.iters = c->opts.iters ? c->opts.iters : ops->default_iters;
	c->run.command = c->opts.command;
	return check_memcg(&c->run, c->opts.mm.memcg_bytes) ? LAT_EXIT_USAGE : 0;
}

/* Result file, CPU, THP: what must be right before any work is done. */
static int prepare_system(struct run_ctx *c)
{
	lat_cleanup_install();
	lat_cleanup_phase("during set-up: nothing measured; what it changed is put back");
	if (c->opts.json_path && lat_result_open(&c->file, c->opts.json_path))
		return LAT_EXIT_USAGE;
	if (pin_cpu(c->opts.cpu))
		return LAT_EXIT_USAGE;
	if (c->opts.thp && lat_thp_set(c->opts.thp))
		return LAT_EXIT_FAIL;
	if (c->opts.no_thp && lat_thp_disable_self())
		return LAT_EXIT_FAIL;
	if (lat_mm_env_prepare(&c->opts.mm))
		return LAT_EXIT_FAIL;
	return 0;
}

/* The workload's setup and the sample array. LAT_EXIT_*. */
/* Stream 0 is the thread that calls run(): this one. */
static int name_own_stream(struct lat_run *run)
{
	struct lat_stream *s = lat_run_stream(run, 0);

	if (!s) {
		fprintf(stderr, "latctl: out of memory\n");
		return -ENOMEM;
	}
	s->tid = (uint32_t)gettid();
	s->pid = (uint32_t)getpid();
	if (prctl(PR_GET_NAME, s->comm))
		s->comm[0] = '\0';
	return 0;
}

static int set_up_workload(struct run_ctx *c)
{
	struct lat_run *run = &c->run;
	int ret = run->ops->setup ? run->ops->setup(run) : 0;

	if (ret == -EINVAL)		/* bad input, reported by the workload */
		return LAT_EXIT_USAGE;
	if (ret == -ENOENT || ret == -EACCES)	/* exec's command, said as a shell */
		return ret == -ENOENT ? LAT_EXIT_NOT_FOUND : LAT_EXIT_CANNOT_RUN;
	if (ret) {
		fprintf(stderr, "latctl: %s: setup failed: %s\n", run->ops->name, strerror(-ret));
		return LAT_EXIT_FAIL;
	}
	c->set_up = 1;
	if (!run->cap)
		run->cap = run->iters;
	return alloc_samples(run) ? LAT_EXIT_FAIL : 0;
}

/*
 * On a terminal, one still line while the loop is timed (no ticker there).
 * In a --vm guest, whose output the host relays without progress lines, a
 * line of its own where the host shows progress (LATCTL_VM_GUEST=tty): the
 * user sees when Ctrl-C reaches a running loop.
 */
static void show_timing(const struct lat_run *run)
{
	const char *guest = getenv("LATCTL_VM_GUEST");
	char line[96];

	if (guest && !strcmp(guest, "tty")) {
		fprintf(stderr, "\r\033[Klatctl: in the VM: timing %s; Ctrl-C now stops it and reports\n",
			run->ops->name);
		return;
	}
	snprintf(line, sizeof(line), "timing %s (this line holds still: nothing interrupts the loop)",
		 run->ops->name);
	lat_progress_hold(line);
}


/* Workload setup, sample array, then the timed loop between two counter reads. */
static int measure(struct run_ctx *c)
{
	struct lat_run *run = &c->run;
	uint16_t cpu;
	int ret;

	ret = lat_run_hv_begin(&c->hv);
	if (ret)
		return ret;
	ret = lat_backend_open(&c->sess, c->opts.backend, c->opts.events, c->opts.ring,
			       (run->ops->wants_syscalls ? LAT_BACKEND_SYSCALLS : 0) |
				       (run->ops->other_process ? LAT_BACKEND_APART : 0));
	/* latmon's tsc_khz first */
	if (ret)
		return ret == -EINVAL ? LAT_EXIT_USAGE : LAT_EXIT_FAIL;
	run->tsc_hz = lat_tsc_hz();
	c->pair_ns = (double)lat_tsc_pair_cost() * 1e9 / run->tsc_hz;
	c->free_2m = lat_buddy_free_2m_blocks();
	ret = set_up_workload(c);
	if (ret)
		return ret;
	if (name_own_stream(run))
		return LAT_EXIT_FAIL;
	if (lat_backend_start(&c->sess, c->opts.cpu))
		return LAT_EXIT_FAIL;
	lat_cleanup_install();
	lat_cleanup_soft_stop(1);	/* Ctrl-C: stop, report what was measured */
	lat_cleanup_phase("before its report: what it changed is put back, nothing written");
	if (lat_mm_env_enter())		/* --memcg: latctl's own memory stays outside */
		return LAT_EXIT_FAIL;
	c->tsc_before = lat_tsc(&cpu);
	lat_counters_read(&c->before, c->opts.cpu); /* smaps_rollup: long with a large mapping */
	show_timing(run);		/* last: a Ctrl-C after it finds the loop running */
	ret = run->ops->run(run);
	c->interrupted = lat_stop_requested != 0;	/* later: the data is whole */
	lat_counters_read(&c->after, c->opts.cpu);
	c->tsc_after = lat_tsc(&cpu);
	lat_mm_env_leave();
	lat_run_hv_end(&c->hv);
	lat_progress_done();
	lat_backend_stop(&c->sess, run);
	if (!ret && run->ops->from_events)
		ret = run->ops->from_events(run, c->sess.buf.ev, c->sess.buf.n);
	if (ret == -EINVAL)
		return LAT_EXIT_USAGE;
	if (ret == -ENOEXEC)	/* exec's command did not start; it said why */
		return run->exit_status;
	if (!ret && run->n == 0 && c->interrupted) {
		fprintf(stderr, "latctl: interrupted before the first iteration; nothing to report\n");
		return LAT_EXIT_INTERRUPTED;
	}
	if (ret || run->n == 0) {
		fprintf(stderr, "latctl: %s: the timed run failed: %s\n", run->ops->name,
			ret ? strerror(-ret) : run->fail_why[0] ? run->fail_why : "no iteration recorded");
		/* exec: the command ran; its failure stays its own */
		return !ret && run->exit_status ? run->exit_status : LAT_EXIT_FAIL;
	}
	if (c->interrupted)
		run->exit_status = LAT_EXIT_INTERRUPTED;
	return 0;
}

/* {"signal": "SIGINT", "iterations_done", "iterations_asked"}: a Ctrl-C
 * ended the loop early; the document covers the iterations done. */
static void add_interrupted(cJSON *doc, const struct lat_run *run)
{
	cJSON *o = cJSON_AddObjectToObject(doc, "interrupted");

	cJSON_AddStringToObject(o, "signal", "SIGINT");
	cJSON_AddNumberToObject(o, "iterations_done", (double)run->n);
	cJSON_AddNumberToObject(o, "iterations_asked", (double)run->iters);
}

/* Build the document; print the report rendered from it; write --json. */
static int finish(struct run_ctx *c)
{
	cJSON *clock, *extras = NULL;

	cJSON_AddItemToObject(c->doc, "environment", lat_result_environment());
	cJSON_AddItemToObject(c->doc, "options", options_json(&c->opts, c->run.ops));
	cJSON_AddItemToObject(c->doc, "run", run_json(&c->run));
	cJSON_AddItemToObject(c->doc, "mm", lat_mm_env_json());
	clock = cJSON_AddObjectToObject(c->doc, "clock");
	cJSON_AddNumberToObject(clock, "pair_ns", c->pair_ns);
	if (analyze(c))
		return LAT_EXIT_FAIL;
	if (c->run.ops->extras)
		extras = c->run.ops->extras(&c->run);
	lat_describe_slow_ops(extras, cJSON_GetObjectItemCaseSensitive(
			      cJSON_GetObjectItemCaseSensitive(c->doc, "slow"), "iterations"));
	cJSON_AddItemToObject(c->doc, "extras", extras ? extras : cJSON_CreateNull());
	if (c->interrupted)
		add_interrupted(c->doc, &c->run);
	lat_result_finish(c->doc, c->run.exit_status);
	return lat_deliver(c->opts.json_path ? &c->file : NULL, c->doc, c->opts.quiet,
			   lat_report_stream(c->opts.workload));
}

static void cleanup(struct run_ctx *c)
{
	if (c->set_up && c->run.ops->teardown)
		c->run.ops->teardown(&c->run);
	if (c->run.samples)
		munmap(c->run.samples, c->run.cap * sizeof(*c->run.samples));
	lat_run_streams_free(&c->run);
	lat_backend_close(&c->sess);
	lat_result_abort(&c->file);
	lat_mm_env_restore();
	lat_thp_restore();
	lat_run_hv_free(&c->hv);
	cJSON_Delete(c->doc);
}

/* What a run's samples and their analysis take, at most, an iteration:
 * the sample (24 bytes) and the sorted times and slow list after the loop
 * (10M grow pushes peak at 476 MB resident: 48 bytes each). */
#define RUN_BYTES_PER_ITER	48

/* Before any work: the samples fit in the memory available and under
 * ulimit -v, else one line with what is needed. LAT_EXIT_FAIL or 0. */
static int check_memory(const struct lat_run *run)
{
	unsigned long long need = (unsigned long long)run->iters * RUN_BYTES_PER_ITER;
	unsigned long long avail = lat_meminfo_kb("MemAvailable") << 10;
	struct rlimit as;

	if (avail && need > avail) {
		fprintf(stderr, "latctl: --iters %llu needs about %.1f GiB (%d bytes an iteration); %.1f GiB is available here: give --iters %llu or fewer\n",
			(unsigned long long)run->iters, need / 1073741824.0, RUN_BYTES_PER_ITER,
			avail / 1073741824.0, avail / RUN_BYTES_PER_ITER);
		return LAT_EXIT_FAIL;
	}
	if (!getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY && need > as.rlim_cur) {
		fprintf(stderr, "latctl: --iters %llu needs about %llu MiB (%d bytes an iteration), over the address-space limit (ulimit -v) of %llu MiB: raise it or give fewer\n",
			(unsigned long long)run->iters, need >> 20, RUN_BYTES_PER_ITER,
			(unsigned long long)as.rlim_cur >> 20);
		return LAT_EXIT_FAIL;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_ctx c;
	char mode[32];
	int ret;

	memset(&c, 0, sizeof(c));
	c.sess.mon.fd = -1;
	/* before getopt permutes argv; start_time is now */
	c.doc = lat_result_new(lat_main_argc, lat_main_argv);
	ret = prepare(&c, argc, argv, mode, sizeof(mode));
	if (ret) {
		cJSON_Delete(c.doc);
		return ret < 0 ? LAT_EXIT_OK : ret;
	}
	if (!c.opts.vm && check_memory(&c.run)) {	/* --vm: the guest's to check */
		cJSON_Delete(c.doc);
		return LAT_EXIT_FAIL;
	}
	if (c.opts.repeat > 1 && !c.opts.vm) {	/* N runs of this command line */
		ret = lat_repeat_run(&c.opts, argc, argv, c.doc);
		cJSON_Delete(c.doc);
		return ret;
	}
	if (c.opts.vm) {		/* the same run in the QEMU test bed */
		ret = lat_vm_run(&c.opts, argc, argv, c.doc);
		cJSON_Delete(c.doc);
		return ret;
	}
	ret = prepare_system(&c);
	if (!ret)
		ret = measure(&c);
	if (!ret)
		ret = finish(&c);
	if (!ret)
		ret = c.run.exit_status;	/* exec: the command's, if it failed */
	cleanup(&c);
	return ret;
}
