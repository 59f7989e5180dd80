/* SPDX-License-Identifier: MIT */
/*
 * The contract between latctl's core and a workload. Adding a workload is
 * adding one file user/workload/wl_NAME.c that defines one `const struct workload_ops`
 * and one line in the table in workload.c.
 *
 * Life of a run (core, cmd_run.c):
 *   parse options -> ops->setup() -> pre-fault run->samples (cap entries)
 *   -> read counters -> ops->run() [timed loop] -> read counters
 *   -> ops->extras() -> ops->teardown() -> build the JSON document
 *   -> render the text report from that document.
 * The text report is always rendered from the JSON document, so that
 * `latctl report FILE.json` prints exactly what the run printed; a workload's
 * extra report lines therefore come from ops->print_extras(extras_json), which reads it through the strict reader (rdoc.h).
 *
 * For workload authors:
 *  - ops->opts: the workload's own options (struct lat_wl_opt), values in
 *    its own config struct ops->config. The core parses them with the same
 *    strict number parsers as its own, lists them in `latctl list` and
 *    `latctl run --help`, writes them into "options" of the result, and
 *    rejects another workload's option with one clear line ("--rate does
 *    not apply to grow"). --mode is accepted when ops->modes is not NULL;
 *    the first mode in ops->modes is the default.
 *  - run->command is the COMMAND after `--` (exec only; NULL otherwise).
 *  - setup() may set run->cap (number of samples to allocate) when it is not
 *    run->iters (e.g. several processes or a --duration bound); the core then
 *    allocates and pre-faults run->samples AFTER setup().
 *  - LAT_SAMPLE_F_NEWSTREAM marks the first sample of another thread or
 *    process in the array: the core does not count a migration between it
 *    and the sample before it.
 *  - lat_sample_ns() converts one sample to nanoseconds.
 *  - setup() or run() returning -EINVAL means "bad input, already reported
 *    in one line on stderr": the core adds nothing and exits 2. Any other
 *    -errno: the core prints "latctl: NAME: setup failed: <error>", exit 1.
 */
#ifndef LATCTL_WORKLOAD_H
#define LATCTL_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "lib/rdoc.h"

#include "lib/json.h"
#include "system/thp_size.h"

/* One timed iteration. 24 bytes; the array is pre-faulted before timing. */
struct lat_sample {
	uint64_t tsc_begin;	/* serialized TSC before the iteration */
	uint64_t tsc_end;	/* serialized TSC after it */
	uint16_t cpu_begin;	/* CPU from rdtscp's aux at begin */
	uint16_t cpu_end;	/* ... and at end: differ = migration */
	uint32_t flags;		/* LAT_SAMPLE_F_* */
};

#define LAT_SAMPLE_F_REALLOC	(1U << 0)	/* grow: this push reallocated */
#define LAT_SAMPLE_F_SPECIAL	(1U << 1)	/* workload-defined marker */
#define LAT_SAMPLE_F_NEWSTREAM	(1U << 2)	/* first sample of another thread */

/* The largest count option (--threads, --procs): a workload bounds its own
 * further where it must. */
#define LAT_WL_COUNT_MAX (1 << 20)

/* How the core parses the value of a workload's own option. */
enum lat_wl_opt_type {
	LAT_WL_OPT_FLAG = 1, /* no value: int set to 1; JSON bool */
	LAT_WL_OPT_COUNT,    /* whole number 1..LAT_WL_COUNT_MAX: int; JSON number */
	LAT_WL_OPT_RATE,     /* per second, > 0 and at most 1e9: double */
	LAT_WL_OPT_DURATION, /* a time (10s, 500ms; bare = seconds): double s */
};

/* One option a workload takes (--NAME): the core parses it into the
 * workload's config struct (workload_ops.config) at offset, an int for a
 * flag or count, a double otherwise; a value never given stays 0. Two
 * workloads may declare the same name, with the same type. */
struct lat_wl_opt {
	const char *name;		/* "rate" for --rate */
	enum lat_wl_opt_type type;
	const char *arg;		/* "HZ" in the help; NULL for a flag */
	const char *help;		/* one line for --help and 'latctl list' */
	const char *json_key;		/* its key in the result's "options" */
	size_t offset;			/* offsetof(struct its_config, member) */
};

/* Distinct workload option names over all workloads. */
#define LAT_WL_OPT_MAX	32

/* One stream of samples (LAT_SAMPLE_F_NEWSTREAM boundaries): the thread
 * that made it, for the join with latmon's events, and its process and
 * name where the workload knows them (the core: latctl's own; exec: its
 * command's); 0 / "" if not. tid 0 = not a thread of this process (a forked
 * child): that stream stays unattributed. */
struct lat_stream {
	uint32_t tid;
	uint32_t pid;
	char comm[16];
};

/* What a run holds while it runs. */
struct lat_run {
	int cpu;			/* --cpu, -1 = not pinned */
	uint64_t seed;			/* --seed */
	const struct workload_ops *ops;
	const char *mode;		/* resolved mode name */
	uint64_t iters;			/* resolved iteration count */
	struct lat_sample *samples;	/* cap entries, MAP_SHARED|MAP_ANONYMOUS,
					 * pre-faulted, so forked children can
					 * fill slices of it */
	size_t cap;
	size_t n;			/* filled by ops->run() */
	double tsc_hz;
	void *priv;			/* the workload's own state */
	/*
	 * Stream k's thread, process and name, streams[0..n_streams): the core
	 * names stream 0 the thread that calls run(); a workload whose streams
	 * come from other threads names them with lat_run_stream() (before it
	 * starts them: it may move the array) or lat_run_streams().
	 */
	struct lat_stream *streams;
	size_t n_streams;		/* entries of streams (zeroed past use) */
	char *const *command;		/* exec: COMMAND [ARGS...], NULL-ended */
	int exit_status;		/* what latctl exits with after the
					 * report: 0, or the command's (exec) */
	char fail_why[192];		/* why no iteration was recorded, when
					 * the workload can tell */
	uint64_t own_minflt;		/* page faults of latctl's own making in
					 * the counted processes (exec's marker
					 * regions): kept out of the counters */
};

struct latmon_event;

struct workload_ops {
	const char *name;
	const char *summary;		/* one line for `latctl --help` */
	const char *modes;		/* "grow|reserved|touched", NULL = none */
	const char *unit_name;		/* "push", "iteration", "request", ... */
	uint64_t default_iters;
	/* Everything slow and untimed: allocate, map, pre-touch. -errno. */
	int (*setup)(struct lat_run *run);
	/* The timed loop: fill run->samples[0..n) and set run->n. No
	 * allocation, syscall or printing inside the timed part. -errno. */
	int (*run)(struct lat_run *run);
	/* Workload-specific results as a JSON object (may be NULL). */
	cJSON *(*extras)(const struct lat_run *run);
	/* Print the extra report lines from the object extras() made. */
	void (*print_extras)(const cJSON *extras, FILE *out, struct lat_rd *rd);
	/* What the first lines of the report must say from extras (exec:
	 * iterations dropped, "kept N of M"); may be NULL. */
	void (*print_head)(const cJSON *extras, FILE *out, struct lat_rd *rd);
	void (*teardown)(struct lat_run *run);
	/* After the backend stopped, with its records on the TSC: a workload
	 * whose iterations are some of them (exec's system calls) fills
	 * run->samples here; it may give a record of its own doing tid 0
	 * (then no stream's). NULL = none. -errno. */
	int (*from_events)(struct lat_run *run, struct latmon_event *ev, size_t n);
	/* Bytes the timed loop faults in at its peak, after setup (what
	 * --memcg must leave room for); NULL or 0: not known. */
	uint64_t (*memory_need)(const struct lat_run *run);
	int wants_syscalls;		/* the BPF backend records system calls */
	int other_process;		/* its iterations run in a process of its
					 * own, not latctl's */
	const char *default_slow;	/* --slow default, NULL: LAT_DEFAULT_SLOW */
	/* Its own options, ended by { NULL }; NULL = none. Their values go
	 * into *config (config_size bytes, zeroed before parsing). */
	const struct lat_wl_opt *opts;
	void *config;
	size_t config_size;
};

/* Latency of one sample in nanoseconds. */
static inline double lat_sample_ns(const struct lat_run *run,
				   const struct lat_sample *s)
{
	return (double)(s->tsc_end - s->tsc_begin) * 1e9 / run->tsc_hz;
}

/* Replace run->samples by a pre-faulted shared array of cap entries (a
 * workload that learns its sample count only in run() or from_events());
 * the contents are not kept. 0 or -ENOMEM. */
/* Stream k of run, the array grown to hold it (zeroed), or NULL. */
struct lat_stream *lat_run_stream(struct lat_run *run, size_t k);
/* Room for streams 0..n-1 at once: 0 or -ENOMEM. */
int lat_run_streams(struct lat_run *run, size_t n);
/* Stream k's thread id, 0 past the streams named. */
uint32_t lat_run_tid(const struct lat_run *run, size_t k);
void lat_run_streams_free(struct lat_run *run);
int lat_run_resize(struct lat_run *run, size_t cap);

extern const struct workload_ops *const lat_workloads[];
const struct workload_ops *lat_workload_find(const char *name);

/* Workload options (wl_opt.c): the distinct ones over all workloads, first
 * declaration of each name, in table order; NULL past the last. */
const struct lat_wl_opt *lat_wl_opt_at(size_t i);
/* 1 if --NAME takes a value (not a flag). */
int lat_wl_opt_has_value(const struct lat_wl_opt *opt);
/* Parse arg ("" for a flag) by opt's type into dst. 0 or -EINVAL, one line
 * printed. */
int lat_wl_opt_parse(const struct lat_wl_opt *opt, const char *arg, void *dst);
/* Zero ops->config and parse the given options into it; an option of
 * another workload: one line, -EINVAL. */
int lat_wl_opts_apply(const struct workload_ops *ops, const char *const wl_arg[LAT_WL_OPT_MAX]);
/* The "options of one workload" part of `run --help`; one workload's
 * option lines, each prefixed by indent (`latctl list`). */
void lat_wl_opts_usage(FILE *out);
void lat_wl_opts_print(const struct workload_ops *ops, const char *indent, FILE *out);
/* Every workload option's json_key into j: ops's value, or 0 / false. */
void lat_wl_opts_json(cJSON *j, const struct workload_ops *ops);


/* splitmix64: the fixed-seed generator of every workload (--seed), so two
 * runs with the same seed make the same choices. */
static inline uint64_t lat_rand64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

#endif /* LATCTL_WORKLOAD_H */
