/* SPDX-License-Identifier: MIT */
/*
 * The text report, rendered from a result document only, so `latctl report
 * FILE.json` prints exactly what the run printed. Every key is read through
 * the strict reader (lib/rdoc.h): nothing is printed unless the whole
 * document renders. render.c drives the sections below, one file each.
 */
#ifndef LATCTL_RENDER_H
#define LATCTL_RENDER_H

#include <stdio.h>
#include <cjson/cJSON.h>

struct lat_rd;

/* The text report of a document. origin names it in error messages.
 * Nothing is printed unless the whole document renders: -EINVAL. */
int lat_result_render(const cJSON *doc, FILE *out, const char *origin);

/* The same reading without printing: 0, or -EINVAL with the line on stderr. */
int lat_result_check(const cJSON *doc, const char *origin);
/* A result file for compare, check and plot: lat_runs_read (each run's keys),
 * then the whole document as the report reads it. 0 or -errno, one line. */
int lat_runs_load(const char *path, cJSON **doc);

/* render_causes.c: the cause table and the ten slowest iterations with
 * their breakdown, from the "causes" object and the "slow" array (either may
 * be NULL), read through r (the first bad key in r->bad); the labels named
 * in the array estimated (may be NULL) are marked "~". join_print is the
 * same without the strict reader, for tests and benchmarks. */
void lat_render_causes(FILE *out, struct lat_rd *r, const cJSON *causes, const cJSON *iters,
		       const cJSON *estimated);
void join_print(const cJSON *causes, const cJSON *iters, FILE *out);

/* render_repeat.c: the per-run spread of a --repeat document (median and
 * range of p50..max); nothing for a single run. */
/* The fault row split by kind (causes.fault_kinds), after the cause table. */
void lat_kinds_render(FILE *out, struct lat_rd *r, const cJSON *causes, const cJSON *iters);

void lat_repeat_render(FILE *out, const cJSON *doc, struct lat_rd *r);

/* render_hist.c: the "histogram" of the document (run 1's of a --repeat),
 * and every run's iterations pooled (repeat.histogram; nothing without). */
void lat_hist_render_run(FILE *out, struct lat_rd *r, const cJSON *doc, const char *units);
void lat_hist_render_pooled(FILE *out, const cJSON *doc, struct lat_rd *rd);

/* render_bpf.c: the BPF backend's account, from the "backend" object (what
 * was read and lost, the clock, the estimates). */
void lat_bpf_render(FILE *out, struct lat_rd *r, const cJSON *backend);

/* Under the cause table, when some slow time is unexplained: what the
 * backend watched and did not see then, what it did not watch, and in a
 * guest the hypervisor's time and the loop's steal (render_unexplained.c). */
void lat_unexplained_render(FILE *out, struct lat_rd *r, const cJSON *doc, const cJSON *causes);
/* "on CPU 1", or "on all CPUs together" of the counters' steal_cpu. */
void lat_steal_where(char *buf, size_t len, const cJSON *counters);

/* render_procs.c: what latmon followed (the "threads" of the "latmon"
 * object), and each measured stream's own fault events ("stream_faults" of
 * "causes") when the streams are other processes. */
void lat_procs_render(const cJSON *latmon, FILE *out, struct lat_rd *r);
void lat_stream_faults_render(const cJSON *causes, FILE *out, struct lat_rd *r);

#endif /* LATCTL_RENDER_H */
