/* SPDX-License-Identifier: MIT */
/*
 * The event backend of a run (--backend latmon|bpf|auto): latmon, the BPF
 * backend on static tracepoints, or none; which one ran and why goes into
 * the report and the JSON ("backend"). auto: latmon when it is loaded, else
 * BPF when this kernel allows it, else none (latctl does not load modules:
 * `make load` or scripts/make-run.sh do).
 *
 * The BPF backend cannot see a fault's end or a huge page's clear; it
 * estimates them (see user/bpf/latbpf.bpf.c), and the labels built from them
 * carry "estimated" in the JSON and a mark in the text.
 */
#ifndef LATCTL_BACKEND_H
#define LATCTL_BACKEND_H

#include <cjson/cJSON.h>

#include "backend/monitor.h"
#include "workload/workload.h"

enum lat_backend {
	LAT_BACKEND_LATMON = 1,
	LAT_BACKEND_BPF,
	LAT_BACKEND_NONE,
};

#define LAT_BPF_DEFAULT_RING	65536U		/* records, 80 bytes each */
#define LAT_BPF_MAX_RING	(1U << 24)

/* --backend's value: 0, or -EINVAL for anything but auto, latmon, bpf. */
int lat_backend_check(const char *name);
/* lat_monitor_open() plus the choice; 0, -ENOMEM or -EINVAL (a bad
 * LATCTL_BPF_FOLLOW_MAX, said on stderr). */
int lat_backend_open(struct lat_monitor *m, const struct lat_opts *o);
/* The "backend" object: name, why, capabilities, estimated labels, bpf. */
cJSON *lat_backend_json(const struct lat_monitor *m);
/* Flag the estimated labels in doc's cause table and slow iterations. */
void lat_backend_mark(cJSON *doc, const struct lat_monitor *m);

#endif /* LATCTL_BACKEND_H */
