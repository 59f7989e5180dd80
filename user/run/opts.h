/* SPDX-License-Identifier: MIT */
/* Command-line options of `latctl run`: struct lat_opts and its parser. */
#ifndef LATCTL_OPTS_H
#define LATCTL_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "lib/opt.h"
#include "lib/parse.h"
#include "system/mmenv.h"
#include "workload/workload.h"

#define LAT_DEFAULT_SLOW	"p99.9"
#define LAT_DEFAULT_SEED	42ULL
#define LAT_MAX_ITERS		1000000000ULL
#define LAT_MAX_REPEAT		1000ULL
#define LAT_MAX_IN		16	/* --in files */

/* The whole `run` command line; lower layers get only the parts they use. */
struct lat_opts {
	const char *workload;
	const char *mode;	/* NULL = the workload's default mode */
	uint64_t iters;		/* 0 = the workload's default */
	int cpu;		/* -1 = not pinned */
	const char *thp;	/* --thp always|madvise|never, NULL = leave */
	int no_thp;		/* --no-thp: PR_SET_THP_DISABLE */
	const char *slow;	/* --slow THRESHOLD as given, NULL = default */
	const char *json_path;	/* --json FILE */
	int quiet;
	uint64_t seed;		/* --seed, fixed default for reproducible runs */
	int vm;			/* --vm: run it in the QEMU test bed (vm.c) */
	const char *kernel;	/* --kernel SERIES for --vm, NULL = newest */
	uint64_t events;	/* --events: latmon records latctl keeps, 0 = default */
	struct lat_mm_opts mm;	/* --thp-size, --fragment, --memcg */
	const char *backend;	/* --backend auto|latmon|bpf, NULL = auto */
	uint64_t ring;		/* --ring: BPF ring buffer records, 0 = default */
	uint64_t repeat;	/* --repeat N: runs in fresh processes, 0 = one */
	/* Workload options as given, by lat_wl_opt_at() index ("" for a
	 * flag, NULL = not given); lat_wl_opts_apply() parses them into the
	 * chosen workload's config. */
	const char *wl_arg[LAT_WL_OPT_MAX];
	char **command;		/* exec: the arguments after the workload */
	const char *in[LAT_MAX_IN];	/* --in FILE: into the VM's /in */
	int n_in;
};

/* Kernel series the test bed can boot (--kernel), oldest first; the last is
 * the default. lat_vm_kernel_valid: 1 if name is one of them. */
extern const char *const lat_vm_kernels[];
int lat_vm_kernel_valid(const char *name);

void lat_opts_init(struct lat_opts *o);

/* Parse `run` options into o: run, --help printed, or a bad command line
 * (one line printed on stderr; exit 2). */
enum lat_parsed lat_opts_parse(int argc, char **argv, struct lat_opts *o);

void lat_opts_usage(FILE *out);

/* The option table of `run`: the core's options, then every workload's
 * (--vm rebuilds the guest's command line from it). */
const struct lat_cmd_opts *lat_opts_table(void);

#endif /* LATCTL_OPTS_H */
