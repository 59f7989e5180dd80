/* SPDX-License-Identifier: MIT */
/*
 * latctl's side of a latmon session: GET_INFO, START for our own tgid, a
 * reader thread that copies /dev/latmon into a buffer allocated and
 * pre-faulted before timing, STOP, the final drain and GET_STATS.
 *
 * Design: the reader is a thread of the measured process, so the module
 * records its faults and switches too (same tgid) and its faults would take
 * the mmap_lock the measured thread needs. So it never allocates or faults
 * while the loop runs: its buffer (--events records) and its stack are
 * touched before START, it is pinned to another CPU than the measured one
 * when the run is pinned (--cpu; unpinned, the scheduler wakes it where it
 * is idle, which disturbs less than a fixed CPU the measured thread may move
 * to), and it sleeps in read() (the module wakes it every 10 ms).
 * When the buffer is full it keeps reading into a small scratch area and
 * counts those records per CPU as lost by latctl; after STOP it appends one
 * LATMON_EV_LOST record per such CPU so the join labels the iterations they
 * cover "incomplete".
 *
 * Without the module (no genl family or no /dev/latmon), without permission,
 * or when START fails, the run goes on without events: state says which and
 * line is the one sentence the report prints.
 */
#ifndef LATCTL_MONITOR_H
#define LATCTL_MONITOR_H

#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "latmon.h"
#include "backend/evbuf.h"
#include "backend/latmon_nl.h"


enum lat_monitor_state {
	LAT_MON_ABSENT = 1,	/* module not loaded */
	LAT_MON_NOPERM,		/* loaded, but we may not use it */
	LAT_MON_FAILED,		/* loaded, but GET_INFO/START/reading failed */
	LAT_MON_ON,		/* recording (or recorded) */
};

struct lat_monitor {
	enum lat_monitor_state state;
	char line[256];			/* why there are no causes, if not ON */
	struct latmon_nl *nl;
	struct latmon_nl_info info;
	struct latmon_nl_stats stats;
	int have_stats;
	uint32_t mask;			/* sources started */
	int fd;				/* /dev/latmon */
	struct lat_evbuf *buf;		/* what the reader fills */
	int reader_err;			/* -errno of the reader's read() */
	int running, reader_up;
	uint32_t stale_tgid;		/* a gone process's session we stopped */
	pthread_t reader;
	sem_t ready;
};

/* Connect and GET_INFO: sets state and line, and latmon's tsc_khz as the
 * TSC frequency; records go to buf. Never fails the run: 0, or -ENOMEM. */
int lat_monitor_open(struct lat_monitor *m, struct lat_evbuf *buf);
/* Buffer, /dev/latmon, START for this process, reader thread on another CPU
 * than measured_cpu (-1: not pinned, not pinned either). On failure state
 * becomes FAILED (and the run goes on): 0 or -ENOMEM. */
int lat_monitor_start(struct lat_monitor *m, int measured_cpu);
/* STOP, the final drain, GET_STATS, latctl's lost records. */
void lat_monitor_stop(struct lat_monitor *m);
void lat_monitor_close(struct lat_monitor *m);

/* The "latmon" object of the result: state, line, version, sources with
 * their misses, per-CPU counts, records read, lost by latmon and latctl. */
cJSON *lat_monitor_json(const struct lat_monitor *m);

#endif /* LATCTL_MONITOR_H */
