// SPDX-License-Identifier: MIT
/* getopt_long parsing of `latctl run`. */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "run/opts.h"
#include "lib/opt.h"

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

/* Workload options' keys: OPT_WL + lat_wl_opt_at() index, after the
 * core's (LAT_OPT_LONG + row). */
#define OPT_WL (LAT_OPT_LONG + 64)

static void list_workloads(FILE *out)
{
	size_t i;

	for (i = 0; lat_workloads[i]; i++)
		fprintf(out, " %s", lat_workloads[i]->name);
}

/* The core's rows (at most 64), then every workload's (lat_wl_opt_at), then the end. */
static struct lat_opt run_opts[64 + LAT_WL_OPT_MAX + 1];

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
	for (i = 0; i < lat_n_run_opts; i++) {
		run_opts[i] = lat_run_opts[i].opt;
		if (!run_opts[i].key)
			run_opts[i].key = LAT_OPT_LONG + (int)i;
	}
	for (i = 0; (opt = lat_wl_opt_at(i)); i++)
		run_opts[lat_n_run_opts + i] = (struct lat_opt){
			.name = opt->name,
			.key = OPT_WL + (int)i,
			.arg = lat_wl_opt_has_value(opt) ? (opt->arg ? opt->arg : "V") : NULL
		};
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

/* The core row of a key: a short option's letter, else LAT_OPT_LONG + row. */
static const struct lat_run_opt *core_row(int c)
{
	size_t i;

	if (c >= LAT_OPT_LONG)
		return c - LAT_OPT_LONG < (int)lat_n_run_opts ? &lat_run_opts[c - LAT_OPT_LONG] :
								NULL;
	for (i = 0; i < lat_n_run_opts; i++)
		if (lat_run_opts[i].opt.key == c)
			return &lat_run_opts[i];
	return NULL;
}

/* One getopt pass over argv[0..argc): options into o. posix: stop at the
 * first argument that is no option (getopt's '+'), else take options
 * wherever they are. */
static enum lat_parsed parse_pass(int argc, char **argv, struct lat_opts *o, int posix)
{
	struct lat_cmd_opts cmd = *lat_opts_table();
	const struct lat_run_opt *r;
	struct lat_optp p;
	int c;

	cmd.posix = posix;
	lat_opt_begin(&p, &cmd);
	while ((c = lat_opt_next(&p, argc, argv)) != LAT_OPT_END) {
		if (c == LAT_OPT_DONE)
			return LAT_PARSED_HELP;
		if (c == LAT_OPT_BAD)
			return lat_opt_say(&p);
		r = c >= OPT_WL ? NULL : core_row(c);
		if (c >= OPT_WL ? parse_wl(o, c, optarg) : !r || lat_run_opt_set(r, o, optarg))
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
