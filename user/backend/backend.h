/* SPDX-License-Identifier: MIT */
/*
 * The event backend of a run (--backend latmon|bpf|auto): latmon, the BPF
 * backend on static tracepoints, or none; which one ran and why goes into
 * the report and the JSON ("backend"). auto: latmon when it is loaded, else
 * BPF when this kernel allows it, else none (latctl does not load modules:
 * `make load` or scripts/make-run.sh do).
 *
 * The BPF backend cannot see a fault's end or a huge page's clear; it
 * estimates them (see bpf/latbpf.bpf.c), and the labels built from them
 * carry "estimated" in the JSON and a mark in the text.
 */
#ifndef LATCTL_BACKEND_H
#define LATCTL_BACKEND_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "backend/evbuf.h"
#include "backend/missed_in.h"
#include "backend/monitor.h"
#include "workload/workload.h"

#define LAT_BPF_DEFAULT_RING	65536U		/* records, 80 bytes each */
#define LAT_BPF_MAX_RING	(1U << 24)

struct lat_bpf;
struct lat_session;
struct lat_backend_caps;

/* One backend: its --backend name, the labels it derives from estimated
 * times, and its steps; a step left NULL does nothing. backend.c holds the
 * table (latmon, bpf, none), in auto's order of preference. */
struct lat_backend_ops {
	const char *name;
	const char *const *estimated;	/* NULL-terminated */
	bool needs_caps;		/* refused() reads lat_backend_caps */
	const char *instead;		/* what to use when it is refused */
	/* Why it cannot record here, or NULL; why() says why it can. */
	const char *(*refused)(const struct lat_session *s, const struct lat_backend_caps *c);
	const char *(*why)(const struct lat_session *s, const struct lat_backend_caps *c);
	int (*open)(struct lat_session *s, uint64_t ring, int syscalls);
	/* 0, or -1 with the reason in start_error() */
	int (*start)(struct lat_session *s, int measured_cpu);
	const char *(*start_error)(const struct lat_session *s);
	void (*stop)(struct lat_session *s, struct lat_run *run);
	bool (*recording)(const struct lat_session *s);
};

/* One run's recording: which backend and why, the buffer it fills, the
 * latmon session (also when it is not used: its state explains why) and the
 * BPF backend's state when that one records. */
struct lat_session {
	const struct lat_backend_ops *ops;
	int asked;		/* --backend NAME, not auto: no fallback */
	char why[512];
	struct lat_evbuf buf;
	struct lat_monitor mon;
	struct lat_bpf *bpf;
	struct lat_missed_in missed; /* switch-ins not reported */
};

/* The table's entry of that name (latmon, bpf, none), or NULL. */
const struct lat_backend_ops *lat_backend_named(const char *name);

/* --backend's words, " auto latmon bpf none", for the completion. */
void lat_backend_list(FILE *out);
/* --backend's value: 0, or -EINVAL for anything but auto, latmon, bpf. */
int lat_backend_check(const char *name);
/* What lat_backend_open's flags ask. The BPF backend records system calls
 * too (latmon's syscall source always does): */
#define LAT_BACKEND_SYSCALLS (1 << 0)
/* The measured threads are not latctl's: its buffer need not be faulted
 * in ahead. */
#define LAT_BACKEND_APART (1 << 1)

/* Choose the backend (want: auto, latmon, bpf; NULL = auto) for a buffer of
 * events records (0: default) and a BPF ring of ring records (0: default);
 * flags LAT_BACKEND_*.
 * 0, -ENOMEM or -EINVAL (a bad LATCTL_BPF_FOLLOW_MAX, said on stderr). */
int lat_backend_open(struct lat_session *s, const char *want, uint64_t events, uint64_t ring,
		     int flags);
/* Start recording, the reader away from measured_cpu (-1: not pinned). A
 * failure switches an auto run to no backend with the reason (0); asked
 * for by name, it is one line and -ENODEV. */
int lat_backend_start(struct lat_session *s, int measured_cpu);
/* Stop and drain; run's samples bound the BPF backend's estimated fault
 * ends, and a process it did not follow gets stream tid 0. */
void lat_backend_stop(struct lat_session *s, struct lat_run *run);
void lat_backend_close(struct lat_session *s);
/* Events are being (or were) recorded by latmon or the BPF backend. */
int lat_backend_recording(const struct lat_session *s);
/* The "backend" object: name, why, capabilities, estimated labels, bpf. */
cJSON *lat_backend_json(const struct lat_session *s);
/* Flag the estimated labels in doc's cause table and slow iterations. */
void lat_backend_mark(cJSON *doc, const struct lat_session *s);

#endif /* LATCTL_BACKEND_H */
