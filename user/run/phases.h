/* SPDX-License-Identifier: MIT */
/*
 * One run on this machine as an ordered list of phases, each one function
 * with its own undo: settings (the result file, --cpu, THP, --memcg), the
 * hypervisor's evidence, the backend, the workload's setup, the start of
 * recording, the timed loop, and the result (analysis, join, report,
 * --json). A phase that fails stops the list; the phases done are undone
 * in reverse order, on success as on failure.
 */
#ifndef LATCTL_RUN_PHASES_H
#define LATCTL_RUN_PHASES_H

#include <cjson/cJSON.h>

#include "backend/backend.h"
#include "doc/result.h"
#include "doc/runopts.h"
#include "run/hv.h"
#include "system/counters.h"
#include "workload/workload.h"

/* One reading of the TSC and of CLOCK_BOOTTIME and CLOCK_MONOTONIC at
 * the same moment (the TSC read before and after them,
 * its midpoint kept): ties the run's times to other traces. */
struct lat_clock_snap {
	uint64_t tsc, boottime_ns, monotonic_ns;
	uint64_t spread_ticks; /* the TSC's two reads apart: the uncertainty */
};

struct lat_run_ctx {
	struct lat_opts opts;
	struct lat_run run;
	struct lat_result_file file;
	struct lat_counters before, after;
	struct lat_session sess;
	uint64_t tsc_before, tsc_after;	/* around the counter reads */
	long long free_2m;
	double pair_ns;
	struct lat_clock_snap snap; /* the TSC against the system's clocks */
	cJSON *doc;
	struct lat_run_hv hv;	/* the hypervisor's evidence (run/hv.h) */
	int set_up;
	int interrupted;	/* a Ctrl-C ended the timed loop early */
};

struct lat_run_phase {
	const char *name;
	int (*run)(struct lat_run_ctx *c);	/* 0, or the LAT_EXIT_* to end with */
	void (*undo)(struct lat_run_ctx *c);	/* NULL: nothing to undo */
};

/* The phases, in order; NULL-terminated. */
extern const struct lat_run_phase lat_run_phases[];

/* c with nothing set up. */
void lat_run_ctx_init(struct lat_run_ctx *c);

/* Every phase of c (its options parsed, its workload chosen); the exit
 * status: the first failing phase's, else the run's own. */
int lat_run_all(struct lat_run_ctx *c);

/* The phases' functions, by file. */
int lat_phase_loop(struct lat_run_ctx *c);		/* run/loop.c */
int lat_phase_workload(struct lat_run_ctx *c);
void lat_phase_workload_undo(struct lat_run_ctx *c);
int lat_phase_result(struct lat_run_ctx *c);		/* run/collect.c */

#endif /* LATCTL_RUN_PHASES_H */
