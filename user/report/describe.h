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

/* The phrase for one iteration, malloc'd; NULL: no memory. */
char *lat_iter_cause(const cJSON *it);
/* To each member of extras' "slow_ops" array add its "cause": the phrase
 * of the slow iteration of iters its "index" names, or null when none does
 * (the operation was under the --slow threshold). */
void lat_describe_slow_ops(cJSON *extras, const cJSON *iters);

#endif /* LATCTL_DESCRIBE_H */
