/* SPDX-License-Identifier: MIT */
/*
 * The BPF backend (backend.h dispatches to it): programs on static
 * tracepoints write records in include/latmon.h's format into a ring
 * buffer; a reader thread copies them into the run's record buffer (evbuf.h),
 * with the same design as latmon's reader; after the drain their times move
 * to the TSC and fault ends are bounded by the iterations.
 */
#ifndef LATCTL_LATBPF_USER_H
#define LATCTL_LATBPF_USER_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "backend/evbuf.h"
#include "workload/workload.h"

struct lat_bpf;
struct lat_ktime_map;
struct latbpf_cpu;

/* The backend's state for a ring buffer of ring_events records, system
 * calls recorded when syscalls is 1; -ENOMEM, or -EINVAL (said on stderr)
 * for a bad LATCTL_BPF_FOLLOW_MAX. */
int lat_bpf_new(struct lat_bpf **b, uint64_t ring_events, int syscalls);
/* Buffer, open -> load -> attach, reader thread, clock start point. 0, or -1
 * with the reason in lat_bpf_error(). */
int lat_bpf_start(struct lat_bpf *b, struct lat_evbuf *buf, int measured_cpu);
const char *lat_bpf_error(const struct lat_bpf *b);
/* Detach, final drain, loss counts, clock end point, records on the TSC,
 * fault ends bounded by run's iterations (run may be NULL). */
void lat_bpf_stop(struct lat_bpf *b, struct lat_evbuf *buf, struct lat_run *run);
void lat_bpf_close(struct lat_bpf *b, struct lat_evbuf *buf);
cJSON *lat_bpf_json(const struct lat_bpf *b, const struct lat_evbuf *buf);

/* latbpf_caps.c: why this kernel refuses the programs (root, kernel BTF,
 * ring buffer, task storage, a tp_btf program that loads), or NULL; buf
 * holds a reason that needs formatting. */
const char *lat_bpf_blocker(char *buf, size_t len);
/* Whether tracepoint and raw tracepoint programs load: 1 or 0 each. */
void lat_bpf_prog_types(int *tracepoint, int *raw_tracepoint);
/* libbpf prints nothing (a probe's refusal is an answer, not noise). */
void lat_bpf_quiet(void);
/* Why this latctl has no BPF backend ("built without it: no clang ..."),
 * or NULL when it has one. latbpf_none.c is the backend of such a build:
 * every entry point above says that reason. */
const char *lat_bpf_missing(void);

/* latbpf_post.c: the steps after the drain. */
void lat_bpf_pending_lost(struct lat_evbuf *buf, unsigned int cpu, const struct latbpf_cpu *c);
void lat_bpf_to_tsc(struct lat_evbuf *buf, const struct lat_ktime_map *clock);
/* Bound open fault ends (and the huge-page clears they hold) by the
 * thread's next TSC read in run's samples; returns how many faults were
 * open, *clipped how many records that shortened. Clears the BPF-only
 * marks. */
/* Each fault's mapping from the run's snapshot (system/memmap.h), and the
 * kinds that depend on it; file_told: the program saw mm_filemap_fault, so
 * a new anonymous page it did not call a copy is anonymous memory's. */
void lat_bpf_fault_maps(struct lat_evbuf *buf, bool file_told);

uint64_t lat_bpf_clip(struct lat_evbuf *buf, const struct lat_run *run, uint64_t *clipped);

/* latbpf_follow.c: the processes the programs followed. */
struct latbpf_follow;
struct lat_bpf_follow {
	uint32_t max;			/* the followed map's size: at once */
	uint64_t live, followed, refused;
	uint32_t *pids, *refused_pids;	/* from the logs, sorted */
	size_t n_pids, n_refused;
	uint64_t unchecked;		/* records of pids past the full log */
};
/* The limit: LATCTL_BPF_FOLLOW_MAX or LATBPF_FOLLOW_MAX; -EINVAL with a
 * line on stderr when the variable is not a number in range. */
int lat_bpf_follow_max(uint32_t *max);
/* Counts from the programs' global c, logs from the follow_log map. */
void lat_bpf_follow_read(struct lat_bpf_follow *f, const struct latbpf_follow *c, int log_fd);
uint64_t lat_bpf_follow_other(struct lat_bpf_follow *f, const struct latmon_event *ev, size_t n);
void lat_bpf_follow_streams(const struct lat_bpf_follow *f, struct lat_run *run);
void lat_bpf_follow_free(struct lat_bpf_follow *f);
cJSON *lat_bpf_follow_json(const struct lat_bpf_follow *f);

#endif /* LATCTL_LATBPF_USER_H */
