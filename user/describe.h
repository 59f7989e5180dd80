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

/* " (waiting for mmap_lock, woken by pid 812 (lmprocs))" after the blocked
 * share, or nothing when the iteration's JSON says neither. */
void lat_blocked_note(const cJSON *it, FILE *out);
/* The breakdown of one iteration with its notes (render_causes.c). */
void lat_print_breakdown(const cJSON *it, FILE *out);
/* The phrase for one iteration, malloc'd; NULL: no memory. */
char *lat_iter_cause(const cJSON *it);
/* For each member of extras' "slow_ops" array with an "index" that names a
 * slow iteration of iters, add its "cause" (the phrase). */
void lat_describe_slow_ops(cJSON *extras, const cJSON *iters);

#endif /* LATCTL_DESCRIBE_H */
