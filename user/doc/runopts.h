/* SPDX-License-Identifier: MIT */
/*
 * The options of `latctl run` and what a result keeps of them: struct
 * lat_opts, and one table row per core option bound to its member
 * (type, offsetof), its key in the result's "options", and whether
 * compare shows it as a difference of the runs. The parser, --help,
 * --list-opts (the completion's source), the result's "options" and
 * compare's rows all come from lat_run_opts[]: a new core option is one
 * row here and its line in latctl-run(8).
 */
#ifndef LATCTL_RUNOPTS_H
#define LATCTL_RUNOPTS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "lib/opt.h"
#include "system/mmenv.h"
#include "workload/workload.h"

#define LAT_DEFAULT_SLOW "p99.9"
#define LAT_DEFAULT_SEED 42ULL
#define LAT_MAX_ITERS 1000000000ULL
#define LAT_MAX_REPEAT 1000ULL
#define LAT_MAX_IN 16 /* --in files */

/* The whole `run` command line; lower layers get only the parts they use. */
struct lat_opts {
	const char *workload;
	const char *mode;      /* NULL = the workload's default mode */
	uint64_t iters;	       /* 0 = the workload's default */
	int cpu;	       /* -1 = not pinned */
	const char *thp;       /* --thp always|madvise|never, NULL = leave */
	int no_thp;	       /* --no-thp: PR_SET_THP_DISABLE */
	const char *slow;      /* --slow THRESHOLD as given, NULL = default */
	const char *json_path; /* --json FILE */
	int quiet;
	uint64_t seed;	       /* --seed, fixed default for reproducible runs */
	int vm;		       /* --vm: run it in the QEMU test bed (vm.c) */
	const char *kernel;    /* --kernel SERIES for --vm, NULL = newest */
	uint64_t events;       /* --events: latmon records latctl keeps, 0 = default */
	struct lat_mm_opts mm; /* --thp-size, --fragment, --memcg */
	const char *backend;   /* --backend auto|latmon|bpf, NULL = auto */
	uint64_t ring;	       /* --ring: BPF ring buffer records, 0 = default */
	uint64_t repeat;       /* --repeat N: runs in fresh processes, 0 = one */
	/* Workload options as given, by lat_wl_opt_at() index ("" for a
	 * flag, NULL = not given); lat_wl_opts_apply() parses them into the
	 * chosen workload's config. */
	const char *wl_arg[LAT_WL_OPT_MAX];
	char **command;		    /* exec: the arguments after the workload */
	const char *in[LAT_MAX_IN]; /* --in FILE: into the VM's /in */
	int n_in;
};

enum lat_ropt_type {
	LAT_ROPT_FLAG,	 /* int, set to 1 */
	LAT_ROPT_COUNT,	 /* uint64_t in [min, max] */
	LAT_ROPT_CPU,	 /* int in [min, max], -1 when not given */
	LAT_ROPT_WORD,	 /* const char *, checked by .valid */
	LAT_ROPT_CUSTOM, /* .parse does it all; with .json, the word at .offset */
};

/* What compare makes of the option's value in two results. */
enum lat_ropt_env {
	LAT_ROPT_ENV_NONE,  /* not compared (or another row shows it) */
	LAT_ROPT_ENV_VALUE, /* a row: its value as written */
	LAT_ROPT_ENV_GIVEN, /* a row: its value, "default" where 0 */
};

struct lat_run_opt {
	struct lat_opt opt; /* name, short key (0: long only), usage */
	enum lat_ropt_type type;
	size_t offset;		       /* offsetof(struct lat_opts, member) */
	uint64_t min, max;	       /* COUNT and CPU: the bounds */
	int (*valid)(const char *arg); /* WORD: 1 when good; NULL: any */
	const char *expect;	       /* WORD: the good values, for the error */
	int once;		       /* WORD: refused when given twice */
	int (*parse)(struct lat_opts *o, const char *arg); /* CUSTOM */
	const char *json;  /* its key in the result's "options"; NULL: none */
	const char *unset; /* WORD: written when not given; NULL: null */
	const char *(*value)(const struct lat_opts *o); /* written instead */
	enum lat_ropt_env env;
	const char *row; /* compare's row name; NULL: "--NAME" */
	int row_at;	 /* its place among compare's option rows, from 1 */
	int host_only;	 /* --vm: not passed to the guest's latctl */
};

extern const struct lat_run_opt lat_run_opts[];
extern const size_t lat_n_run_opts;

/* Kernel series the test bed can boot (--kernel), oldest first; the last is
 * the default. lat_vm_kernel_valid: 1 if name is one of them. */
extern const char *const lat_vm_kernels[];
int lat_vm_kernel_valid(const char *name);

void lat_opts_init(struct lat_opts *o);

/* The row's value from its argument into o: 0, or -EINVAL with one line
 * on stderr. */
int lat_run_opt_set(const struct lat_run_opt *r, struct lat_opts *o, const char *arg);

/* Every row with a JSON key into j, as "options" holds it. */
void lat_run_opts_json(cJSON *j, const struct lat_opts *o);

/* The row of an "options" key; NULL if no core option writes it. */
const struct lat_run_opt *lat_run_opt_of_json(const char *key);

/* --slow as given, else the workload's default, else LAT_DEFAULT_SLOW. */
const char *lat_run_slow(const struct lat_opts *o);

#endif /* LATCTL_RUNOPTS_H */
