/* SPDX-License-Identifier: MIT */
/*
 * What a slow iteration was, in one phrase, from its JSON (join_to_json):
 * "munmap 12.1 ms: blocked 71% (waiting for mmap_lock, woken by pid 812),
 * syscall 25%". Used by the ten slowest and a workload's own list of slow
 * operations (the "cause" of each, by sample index).
 */
#ifndef LATCTL_DESCRIBE_H
#define LATCTL_DESCRIBE_H

#include <stdio.h>
#include <cjson/cJSON.h>

struct lat_rd;

/* What a label's share was, after it in the breakdown: blocked " (waiting
 * for mmap_lock, woken by pid 812 (lmprocs) on CPU 1)", preemption " (by pid
 * 321 (stress-ng))", interrupt " (timer LOC x3)"; nothing if unknown. */
void lat_label_note(const cJSON *it, const char *label, FILE *out, struct lat_rd *r);
/* The breakdown of one iteration with its notes (render_causes.c). */
void lat_print_breakdown(const cJSON *it, FILE *out, struct lat_rd *r);
/* The phrase for one iteration, malloc'd; NULL: no memory. */
char *lat_iter_cause(const cJSON *it);
/* To each member of extras' "slow_ops" array add its "cause": the phrase
 * of the slow iteration of iters its "index" names, or null when none does
 * (the operation was under the --slow threshold). */
void lat_describe_slow_ops(cJSON *extras, const cJSON *iters);

#endif /* LATCTL_DESCRIBE_H */
