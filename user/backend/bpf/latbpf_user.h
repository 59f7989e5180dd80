/* SPDX-License-Identifier: MIT */
/*
 * The BPF backend seen from the monitor (monitor.h): the same record buffer,
 * the same reader design, records in include/latmon.h's format, on the TSC.
 * lat_bpf_new() before lat_monitor_start(); start, stop and close are called
 * by lat_monitor_start/stop/close when m->bpf is set. A failure switches the
 * run to no backend with the reason (the run goes on, as without latmon).
 */
#ifndef LATCTL_LATBPF_USER_H
#define LATCTL_LATBPF_USER_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "backend/monitor.h"

struct lat_ktime_map;
struct lat_rd;
struct latbpf_cpu;

/* The backend's state for a ring buffer of ring_events records; -EINVAL
 * (said on stderr) for a bad LATCTL_BPF_FOLLOW_MAX. */
int lat_bpf_new(struct lat_monitor *m, uint64_t ring_events);
/* Buffer, open -> load -> attach, reader thread, clock start point. */
int lat_bpf_start(struct lat_monitor *m, int measured_cpu);
/* Detach, final drain, loss counts, clock end point, records on the TSC,
 * fault ends bounded by the iterations. */
void lat_bpf_stop(struct lat_monitor *m);
void lat_bpf_close(struct lat_monitor *m);
cJSON *lat_bpf_json(const struct lat_monitor *m);
/* render_bpf.c: the backend's account in the report, from the "backend"
 * object of a result (what was read and lost, the clock, the estimates),
 * through the strict reader. */
void lat_bpf_render(FILE *out, struct lat_rd *r, const cJSON *backend);

/* latbpf_post.c: the steps after the drain. */
void lat_bpf_fail(struct lat_monitor *m, const char *why);
void lat_bpf_pending_lost(struct lat_monitor *m, unsigned int cpu, const struct latbpf_cpu *c);
void lat_bpf_to_tsc(struct lat_monitor *m, const struct lat_ktime_map *clock);
/* Bound open fault ends by the thread's next TSC read; returns how many were
 * open, *clipped how many that shortened. Clears the BPF-only marks. */
uint64_t lat_bpf_clip(struct lat_monitor *m, uint64_t *clipped);

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
