/* SPDX-License-Identifier: MIT */
/*
 * The machine, described once: hypervisor, zero page, clock, first-touch
 * and system-call cost, PMU, THP sizes, cgroups, BPF and module loading.
 * Read here only; shown by `latctl doctor`, kept in every result's
 * environment ("facts"), compared by `compare` and `check`, and read by
 * the tests that depend on one of them.
 */
#ifndef LATCTL_FACTS_H
#define LATCTL_FACTS_H

#include <stdio.h>
#include <cjson/cJSON.h>

struct lat_facts {
	char kind[256];	     /* "KVM guest", "bare metal (...)" */
	char hypervisor[64]; /* "" on bare metal */
	int zero_page;	     /* 1, 0, -1 unknown */
	char clocksource[32];
	char tsc_flags[96];
	int tsc_offered;       /* the kernel offers the TSC as a clock: 1, 0, -1 */
	double first_touch_ns; /* a fresh 4 KiB write fault, median; -1 */
	double syscall_ns;     /* getppid, median; -1 */
	int pmu;
	char thp_sizes[160]; /* "2048kB", "16kB 32kB ... 2048kB", "none" */
	const char *cgroup;
	char bpf[200];	   /* "usable", or why not */
	char modules[200]; /* "allowed", or why not */
};

/* Read and measure every fact (a few milliseconds). */
void lat_facts_read(struct lat_facts *f);
/* The facts as the environment's "facts" object. */
cJSON *lat_facts_json(const struct lat_facts *f);
/* The facts for a reader, a line each, each line starting with indent. */
void lat_facts_print(FILE *out, const struct lat_facts *f, const char *indent);

#endif /* LATCTL_FACTS_H */
