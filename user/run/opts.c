// SPDX-License-Identifier: MIT
/* getopt_long parsing of `latctl run`. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/monitor.h"
#include "run/opts.h"
#include "system/thp.h"
#include "system/mmenv.h"
#include "lib/opt.h"
#include "lib/parse.h"


const char *const lat_vm_kernels[] = { "6.1", "6.12", "7.3", NULL };

int lat_vm_kernel_valid(const char *name)
{
	int i;

	for (i = 0; lat_vm_kernels[i]; i++)
		if (!strcmp(name, lat_vm_kernels[i]))
			return 1;
	return 0;
}

void lat_opts_init(struct lat_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cpu = -1;
	o->seed = LAT_DEFAULT_SEED;
}

void lat_opts_usage(FILE *out)
{
	fputs(
"usage: latctl run WORKLOAD [options]\n"
"       latctl run exec [options] [--] COMMAND [ARGS...]  (your own program;\n"
"                                   its report on stderr)\n"
"\n"
"Runs WORKLOAD, times every iteration with the serialized TSC (rdtscp), and\n"
"prints the tail: percentiles, tail ratios, a log2 histogram and what the\n"
"kernel counted meanwhile (page faults, context switches, huge pages).\n"
"With the latmon module loaded (root) it also names the cause of every slow\n"
"iteration (fault, thp-zero, preemption, interrupt, ...); without it, the BPF\n"
"backend does where the kernel allows it ('latctl backends'), else one line\n"
"says so and only migration and realloc are named.\n"
"\n"
"options (all workloads):\n", out);
	lat_opt_usage(out, lat_opts_table());
	lat_wl_opts_usage(out);
	fputs(
"\n"
"examples:\n"
"  latctl run grow --thp always --cpu 1     huge pages on: fewer, bigger faults\n"
"  latctl run grow --mode touched           memory touched before timing\n"
"  latctl run grow --no-thp --json r.json   keep the result, print it later\n"
"  latctl report r.json                     print the report of a saved run\n"
"  latctl run grow --repeat 5 --json a.json   5 runs; then latctl compare\n"
"  latctl run grow --thp always --vm --kernel 6.1   in a VM, with causes\n"
"  latctl run grow --thp always --fragment  huge-page faults that compact\n"
"  latctl run grow --thp-size 64K=always    64 KiB folios\n"
"  latctl run exec -- ./prog                your program: its latctl_begin/end\n"
"                                           iterations, else its system calls\n"
"  latctl run exec --vm --in ./prog -- prog   the same in the VM, with latmon\n"
"\n"
"exit status: 0 ok; 1 the run failed (no permission, out of memory, ...);\n"
"2 bad command line or input file. Killed by a signal: THP is restored first.\n"
"exec: the command's status when it failed (128+N: killed by signal N;\n"
"127: it could not be run).\n",
	      out);
}

enum {
	OPT_EVENTS = LAT_OPT_LONG, OPT_NO_THP, OPT_SEED, OPT_THP, OPT_KERNEL, OPT_VM,
	OPT_FRAGMENT, OPT_MEMCG, OPT_THP_SIZE, OPT_BACKEND, OPT_RING, OPT_REPEAT, OPT_IN,
	OPT_WL,		/* OPT_WL + i: workload option lat_wl_opt_at(i) */
};

static void list_kernels(FILE *out)
{
	int i;

	for (i = 0; lat_vm_kernels[i]; i++)
		fprintf(out, " %s", lat_vm_kernels[i]);
}

/* Every workload's modes, once each. */
static void list_modes(FILE *out)
{
	char seen[1024] = "|", word[64];
	const char *m, *bar;
	size_t i, len;

	for (i = 0; lat_workloads[i]; i++) {
		for (m = lat_workloads[i]->modes; m && *m; m = bar ? bar + 1 : m + len) {
			bar = strchr(m, '|');
			len = bar ? (size_t)(bar - m) : strlen(m);
			snprintf(word, sizeof(word), "|%.*s|", (int)len, m);
			if (strstr(seen, word) || strlen(seen) + len + 2 > sizeof(seen))
				continue;
			fprintf(out, " %.*s", (int)len, m);
			strcat(seen, word + 1);
		}
	}
}

static void list_workloads(FILE *out)
{
	size_t i;

	for (i = 0; lat_workloads[i]; i++)
		fprintf(out, " %s", lat_workloads[i]->name);
}

/* The core's options, alphabetical; every workload's follow (run_table). */
static const struct lat_opt core_opts[] = {
	{ "backend", OPT_BACKEND, "B", "who records the kernel events: latmon, bpf (static\n"
	  "tracepoints, no module; fault ends and huge-page\n"
	  "zeroing estimated), none, or auto (default: latmon\n"
	  "when loaded, else bpf when this kernel allows it);\n"
	  "latmon or bpf that cannot record here: exit 1", NULL, lat_backend_list },
	{ "cpu", 'c', "N", "pin to CPU N (default: not pinned)", NULL, NULL },
	{ "events", OPT_EVENTS, "N", "latmon records latctl keeps for the join (72 bytes\n"
	  "each, default 1048576); more are counted as lost", NULL, NULL },
	{ "fragment", OPT_FRAGMENT, NULL, "leave no free 2 MiB block before timing, THP defrag\n"
	  "always for the run: huge-page faults compact (root)", NULL, NULL },
	{ "help", 'h', NULL, "this text", NULL, NULL },
	{ "iters", 'i', "N", "iterations (default: the workload's, see 'latctl list')", NULL, NULL },
	{ "in", OPT_IN, "FILE", "with --vm: copy FILE (a program and the libraries it\n"
	  "needs) into the VM's /in, on PATH there; repeatable", "<file>", NULL },
	{ "json", 'j', "FILE", "also write the whole result as JSON (atomically);\n"
	  "- writes it to stdout instead of the report", "<file>", NULL },
	{ "kernel", OPT_KERNEL, "SERIES", "with --vm: Debian kernel 6.1, 6.12 or 7.3 (default 7.3)",
	  NULL, list_kernels },
	{ "memcg", OPT_MEMCG, "SIZE", "run in a new memory cgroup limited to SIZE (64M, 1G)\n"
	  "and full of memory to reclaim: faults reclaim (root)", NULL, NULL },
	{ "mode", 'm', "MODE", "the workload's mode (see 'latctl list')", NULL, list_modes },
	{ "no-thp", OPT_NO_THP, NULL, "no transparent huge pages for this process (prctl)", NULL, NULL },
	{ "quiet", 'q', NULL, "print nothing on success (use with --json)", NULL, NULL },
	{ "repeat", OPT_REPEAT, "N", "N runs, each in a fresh process, in one result: every\n"
	  "run's summary, counters and causes, pooled histogram", NULL, NULL },
	{ "ring", OPT_RING, "N", "BPF backend: ring buffer records (80 bytes each,\n"
	  "rounded up to a power of two bytes; default 65536);\n"
	  "events that find it full are counted as lost", NULL, NULL },
	{ "seed", OPT_SEED, "N", "seed of the random generators (default 42)", NULL, NULL },
	{ "slow", 's', "T", "what counts as a slow iteration: a percentile (p99.9)\n"
	  "or a time (5us, 1.5ms); default " LAT_DEFAULT_SLOW ", but the\n"
	  "workload's own where 'latctl list' shows one (mmap 1ms)", NULL, NULL },
	{ "thp", OPT_THP, "MODE", "set THP system-wide to always|madvise|never for the\n"
	  "run (root); the previous value is restored on exit,\n"
	  "on error and on SIGINT/SIGTERM/SIGHUP", "always madvise never", NULL },
	{ "thp-size", OPT_THP_SIZE, "S=MODE", "one huge-page size (mTHP, Linux 6.8+), e.g. 64K=always;\n"
	  "repeatable, restored like --thp", "16K= 32K= 64K= 128K= 256K= 512K= 1M= 2M=", NULL },
	{ "vm", OPT_VM, NULL, "run it in a QEMU VM with latmon loaded (when this\n"
	  "kernel cannot load it); the report prints here", NULL, NULL },
};

#define N_CORE (sizeof(core_opts) / sizeof(core_opts[0]))

/* The core's options, then every workload's (lat_wl_opt_at), then the end. */
static struct lat_opt run_opts[N_CORE + LAT_WL_OPT_MAX + 1];

static const struct lat_cmd_opts run_cmd = {
	.cmd = "latctl run", .opt = run_opts, .width = 23, .posix = 1,
	.list_args = list_workloads, .usage = lat_opts_usage,
};

const struct lat_cmd_opts *lat_opts_table(void)
{
	const struct lat_wl_opt *opt;
	size_t i;

	if (run_opts[0].name)
		return &run_cmd;
	memcpy(run_opts, core_opts, sizeof(core_opts));
	for (i = 0; (opt = lat_wl_opt_at(i)); i++)
		run_opts[N_CORE + i] = (struct lat_opt){
			.name = opt->name, .key = OPT_WL + (int)i,
			.arg = lat_wl_opt_has_value(opt) ? (opt->arg ? opt->arg : "V") : NULL };
	return &run_cmd;
}

/* A workload's option: its value checked by the first workload that
 * declares it (bad values say so at once), kept for lat_wl_opts_apply(). */
static int parse_wl(struct lat_opts *o, int c, const char *arg)
{
	const struct lat_wl_opt *opt = lat_wl_opt_at((size_t)(c - OPT_WL));
	double scratch[2];

	if (c < OPT_WL || !opt)
		return -EINVAL;
	if (lat_wl_opt_parse(opt, arg ? arg : "", scratch))
		return -EINVAL;
	o->wl_arg[c - OPT_WL] = arg ? arg : "";
	return 0;
}

/* Options that take a number. */
static int parse_numeric(struct lat_opts *o, int c, const char *arg)
{
	uint64_t v = 0;
	int ret;

	switch (c) {
	case 'c':
		ret = lat_opt_parse_count("--cpu", arg, 0, CPU_SETSIZE - 1, &v);
		o->cpu = (int)v;
		return ret;
	case 'i':
		return lat_opt_parse_count("--iters", arg, 1, LAT_MAX_ITERS, &o->iters);
	case OPT_SEED:
		return lat_opt_parse_count("--seed", arg, 0, UINT64_MAX, &o->seed);
	case OPT_REPEAT:
		return lat_opt_parse_count("--repeat", arg, 1, LAT_MAX_REPEAT, &o->repeat);
	case OPT_EVENTS:
		return lat_opt_parse_count("--events", arg, 16, LAT_EVBUF_MAX_EVENTS, &o->events);
	case OPT_RING:
		return lat_opt_parse_count("--ring", arg, 1, LAT_BPF_MAX_RING, &o->ring);
	}
	return parse_wl(o, c, arg);
}

/* Options that take a word. */
static int parse_word(struct lat_opts *o, int c, const char *arg)
{
	struct lat_threshold t;

	switch (c) {
	case 'j':
		if (o->json_path) {
			fprintf(stderr, "latctl run: --json given twice (%s and %s); give one file\n",
				o->json_path, arg);
			return -EINVAL;
		}
		o->json_path = arg;
		o->quiet |= !strcmp(arg, "-");	/* stdout holds the JSON alone */
		return 0;
	case 'm':
		o->mode = arg;
		return 0;
	case 's':
		o->slow = arg;
		if (lat_parse_threshold(arg, &t))
			return lat_opt_bad_value("--slow", arg, -EINVAL,
					 "a percentile such as p99.9 or a time such as 5us");
		return 0;
	case OPT_THP:
		if (o->thp) {
			fprintf(stderr, "latctl run: --thp given twice (%s and %s); give one\n", o->thp, arg);
			return -EINVAL;
		}
		o->thp = arg;
		if (!lat_thp_valid(arg))
			return lat_opt_bad_value("--thp", arg, -EINVAL, "always, madvise or never");
		return 0;
	case OPT_THP_SIZE:
		if (o->mm.n_thp_size == LAT_THP_SIZE_MAX) {
			fprintf(stderr, "latctl: --thp-size given more than %d times\n", LAT_THP_SIZE_MAX);
			return -EINVAL;
		}
		return lat_thp_size_parse(arg, &o->mm.thp_size[o->mm.n_thp_size++]);
	case OPT_MEMCG:
		return lat_mm_parse_size("--memcg", arg, &o->mm.memcg_bytes);
	case OPT_IN:
		if (o->n_in == LAT_MAX_IN) {
			fprintf(stderr, "latctl run: --in given more than %d times\n", LAT_MAX_IN);
			return -EINVAL;
		}
		if (access(arg, R_OK))
			return lat_opt_bad_value("--in", arg, -EINVAL, "a file to copy into the VM");
		o->in[o->n_in++] = arg;
		return 0;
	case OPT_BACKEND:
		o->backend = arg;
		return lat_backend_check(arg) ? -EINVAL : 0;
	case OPT_KERNEL:
		o->kernel = arg;
		if (!lat_vm_kernel_valid(arg))
			return lat_opt_bad_value("--kernel", arg, -EINVAL, "6.1, 6.12 or 7.3");
		return 0;
	}
	return parse_numeric(o, c, arg);
}

/* One getopt pass over argv[0..argc): options into o. posix: stop at the
 * first argument that is no option (getopt's '+'), else take options
 * wherever they are. */
static enum lat_parsed parse_pass(int argc, char **argv, struct lat_opts *o, int posix)
{
	struct lat_cmd_opts cmd = *lat_opts_table();
	struct lat_optp p;
	int c;

	cmd.posix = posix;
	lat_opt_begin(&p, &cmd);
	while ((c = lat_opt_next(&p, argc, argv)) != LAT_OPT_END) {
		if (c == LAT_OPT_DONE)
			return LAT_PARSED_HELP;
		if (c == LAT_OPT_BAD)
			return lat_opt_say(&p);
		if (c == 'q')
			o->quiet = 1;
		else if (c == OPT_NO_THP)
			o->no_thp = 1;
		else if (c == OPT_VM)
			o->vm = 1;
		else if (c == OPT_FRAGMENT)
			o->mm.fragment = 1;
		else if (parse_word(o, c, optarg))
			return LAT_PARSED_BAD;
	}
	return LAT_PARSED_RUN;
}

/* The workload name, then its options: anywhere for a workload of ours
 * (exactly one positional argument), up to the first argument that is no
 * option for exec, whose command is the rest (as env, strace and perf stat
 * read theirs: "latctl run exec head -n 3 f" runs head -n 3 f). */
static enum lat_parsed take_workload(int argc, char **argv, struct lat_opts *o)
{
	enum lat_parsed ret;
	int exec;

	if (optind >= argc) {
		fprintf(stderr, "latctl run: no workload given; 'latctl list' shows them\n");
		return LAT_PARSED_BAD;
	}
	argc -= optind;
	argv += optind;
	o->workload = argv[0];
	exec = !strcmp(argv[0], "exec");
	ret = parse_pass(argc, argv, o, exec);
	if (ret)
		return ret;
	if (exec && o->json_path && !strcmp(o->json_path, "-")) {
		fprintf(stderr, "latctl run: exec's program owns stdout; give --json FILE, not --json -\n");
		return LAT_PARSED_BAD;
	}
	if (exec) {
		o->command = argv + optind;
		if (!o->command[0]) {
			fprintf(stderr, "latctl run: exec needs a command: latctl run exec [OPTIONS] [--] COMMAND [ARGS...]\n");
			return LAT_PARSED_BAD;
		}
		return LAT_PARSED_RUN;
	}
	if (optind < argc) {
		fprintf(stderr, "latctl run: unexpected argument '%s'; give one workload\n",
			argv[optind]);
		return LAT_PARSED_BAD;
	}
	return LAT_PARSED_RUN;
}

enum lat_parsed lat_opts_parse(int argc, char **argv, struct lat_opts *o)
{
	enum lat_parsed ret = parse_pass(argc, argv, o, 1);

	if (ret)
		return ret;
	ret = take_workload(argc, argv, o);
	if (ret)
		return ret;
	if (o->kernel && !o->vm) {
		fprintf(stderr, "latctl run: --kernel picks the VM's kernel; add --vm\n");
		return LAT_PARSED_BAD;
	}
	if (o->n_in && !o->vm) {
		fprintf(stderr, "latctl run: --in copies a file into the VM; add --vm\n");
		return LAT_PARSED_BAD;
	}
	return LAT_PARSED_RUN;
}
