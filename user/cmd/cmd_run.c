// SPDX-License-Identifier: MIT
/*
 * `latctl run WORKLOAD`: the command line into options and a workload,
 * then --repeat's runs, --vm's guest, or the phases of one run here
 * (run/phases.c: set up, time every iteration, the result document, the
 * report, --json).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "run/opts.h"
#include "run/phases.h"
#include "run/repeat.h"
#include "run/vm.h"
#include "system/sysinfo.h"
#include "workload/workload.h"

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

/* Everything the user typed: options, workload, mode. LAT_EXIT_* . */
static int prepare(struct lat_run_ctx *c, int argc, char **argv, char *mode, size_t len)
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
	struct lat_run_ctx c;
	char mode[32];
	int ret;

	lat_run_ctx_init(&c);
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
	ret = lat_run_all(&c); /* the phases of run/phases.c */
	cJSON_Delete(c.doc);
	return ret;
}
