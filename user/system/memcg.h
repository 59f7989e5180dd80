/* SPDX-License-Identifier: MIT */
/*
 * --memcg SIZE: the timed loop (this process, its threads and what it forks
 * there) in a new memory cgroup (v2) whose memory.max is SIZE and which is
 * first filled with SIZE of reclaimable memory: anonymous pages freed lazily
 * (MADV_FREE), which reclaim drops without writing them anywhere, even
 * without swap. So the workload's page faults charge a cgroup at its limit
 * and reclaim inside the fault (memcg reclaim). latctl's own memory (samples,
 * event buffer, the workload's setup) is faulted in before it joins and stays
 * charged where it was; it leaves again when the loop ends. SIZE must exceed
 * what the loop faults in, or the cgroup's OOM killer ends the run; the
 * workloads that know their need are refused before the run below it. The
 * cgroup is removed after the run (also on SIGINT/SIGTERM/SIGHUP).
 */
#ifndef LATCTL_MEMCG_H
#define LATCTL_MEMCG_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

struct lat_rd;

/* Create a new cgroup limited to limit bytes; one line and -errno on failure. */
int lat_memcg_start(uint64_t limit);

/* Join it and fill it (nothing without lat_memcg_start); one line and
 * -errno on failure. */
int lat_memcg_enter(void);

/* Back to the original cgroup, the new one kept for its counts; idempotent. */
void lat_memcg_leave(void);

/* {"limit_bytes", "filled_bytes", "max_events", "oom_events", "path"} of the
 * running cgroup (read before it is removed), or NULL if none. */
cJSON *lat_memcg_json(void);

/* Back to the original cgroup, remove the new one; idempotent. */
void lat_memcg_stop(void);

/* "memory cgroup: limit 64 MiB (filled with 64 MiB to reclaim), at its limit 312 times, OOM 0" */
void lat_memcg_print(const cJSON *o, FILE *out, struct lat_rd *r);

#endif /* LATCTL_MEMCG_H */
