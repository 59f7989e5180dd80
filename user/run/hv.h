/* SPDX-License-Identifier: MIT */
/*
 * A run's evidence of its hypervisor's time: the probe `latctl doctor
 * --probe-hypervisor` stored, checked before the loop in a guest; else, in
 * a guest, the run's own (machine/hvprobe.h: a first touch against the guest's
 * fault handler, a short idle pass). Into the result's "hypervisor_probe"
 * and the join's input.
 */
#ifndef LATCTL_RUN_HV_H
#define LATCTL_RUN_HV_H

#include <cjson/cJSON.h>

#include "machine/hvprobe.h"
#include "join/causes.h"

struct lat_run_hv {
	cJSON *stored;	 /* the stored probe, or NULL: */
	const char *why; /* ... why */
	struct lat_hv_check check;
};

/* Before the loop: load the stored probe and, in a guest, check it (its
 * memory stays mapped until lat_run_hv_end). 0, or LAT_EXIT_USAGE (a bad
 * LATCTL_HV_CHECK_MB, said). */
int lat_run_hv_begin(struct lat_run_hv *h);
/* After the loop: free the check's memory. */
void lat_run_hv_end(struct lat_run_hv *h);
/* "hypervisor_probe" into doc (its "environment" first), and what the
 * join needs into in (in->events and in->run set). */
void lat_run_hv_add(struct lat_run_hv *h, cJSON *doc, struct lat_causes_in *in);
/* Everything it holds. */
void lat_run_hv_free(struct lat_run_hv *h);

#endif /* LATCTL_RUN_HV_H */
