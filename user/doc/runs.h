/* SPDX-License-Identifier: MIT */
/*
 * The runs of a result document and the metrics compare and check read from
 * each. A `run --repeat N` document lists its runs in "repeat"."per_run";
 * any other result is one run, the document itself. Each run holds
 * "summary", "counters", "causes" and "latmon" as `run` writes them.
 */
#ifndef LATCTL_RUNS_H
#define LATCTL_RUNS_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

/* Key of the repeat section and its list of runs. */
#define LAT_REPEAT_KEY		"repeat"
#define LAT_REPEAT_RUNS_KEY	"per_run"

/* How a metric is read from one run. */
enum lat_metric_kind {
	LAT_METRIC_SUMMARY = 1,	/* summary.<key> in ns */
	LAT_METRIC_PER_ITER,	/* counters.<key> / summary.count */
	LAT_METRIC_COUNTER,	/* counters.<key> */
	LAT_METRIC_CAUSE_COUNT,	/* slow iterations the cause is present in */
	LAT_METRIC_CAUSE_SHARE,	/* share of the slow time, 0..1 */
	LAT_METRIC_CAUSE_OWN,	/* median own duration in ns */
	LAT_METRIC_FAULT,	/* causes.fault_ns.<key>: every fault of the loop */
	LAT_METRIC_FAULT_KIND,	/* causes.fault_kinds.<kind>.<stat>, key "kind:stat":
				 * the faults of one kind ("fault.cow:p50") */
};

struct lat_metric {
	const char *name;	/* "p99.9", "faults/iter", "share:fault" */
	enum lat_metric_kind kind;
	const char *key;	/* summary or counters key; cause label;
				 * "cow:p50" for a fault kind's */
	const char *unit;	/* "ns", "", "%" */
	int lower_worse;	/* a loss is a regression (huge pages) */
};

/* The fixed metrics (p50 ... huge pages), in table order. */
extern const struct lat_metric lat_metrics[];
extern const size_t lat_n_metrics;

/* Number of runs in doc, and run i (0-based). */
size_t lat_runs_count(const cJSON *doc);
const cJSON *lat_run_at(const cJSON *doc, size_t i);

/* The metric "p99.9", "count:fault", "share:thp-zero" or "own:fault";
 * 0 or -EINVAL (unknown name). label_buf holds the cause label. */
int lat_metric_parse(const char *name, struct lat_metric *m, char *label_buf, size_t len);
/* The same for a name a user gave: a cause metric must name a label the
 * join gives ("count:fualt" is refused); -EINVAL with one line in why. */
int lat_metric_given(const char *name, struct lat_metric *m, char *label_buf, size_t len,
		     char *why, size_t wlen);

/* Every metric name a shell word can give, " p50 ... own:wait", for the
 * completion. */
void lat_metric_list(FILE *out);

/* Value of m in one run; NaN when the run has no such value (a cause's own
 * duration in a run where it never occurred). */
double lat_metric_value(const cJSON *run, const struct lat_metric *m);

/* Events one run lost or left incomplete (latmon's and latctl's losses, the
 * join's lost records and incomplete iterations); 0 when none. */
double lat_run_lost(const cJSON *run);

/* Values of m over every run of doc into vals (malloc'd, NaNs left out). */
size_t lat_metric_values(const cJSON *doc, const struct lat_metric *m, double **vals);

/* Append to list (strings) the fault kinds any run of doc has faults of
 * (causes.fault_kinds), each once. */
void lat_runs_fault_kinds(const cJSON *doc, cJSON *list);

/* Cause labels that occur in any run of doc, added to list (no duplicates). */
void lat_runs_cause_labels(const cJSON *doc, cJSON *list);

/* Check the keys compare and check read in every run of doc; one line on
 * stderr naming the first missing or mistyped key: -EINVAL. */
int lat_runs_check(const cJSON *doc, const char *path);

/* Read and check a result file: lat_result_read, then lat_runs_check; one
 * line on stderr when either refuses it. The whole document through the
 * report's reader: lat_runs_load (report/render.h). */
int lat_runs_read(const char *path, cJSON **doc);

/* 1 with *i < *j when paths[*i] and paths[*j] name one file (a file given
 * twice would have its runs count as independent twice); else 0. */
int lat_paths_twice(const char *const *paths, size_t n, size_t *i, size_t *j);

#endif /* LATCTL_RUNS_H */
