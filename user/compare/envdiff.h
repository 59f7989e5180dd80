/* SPDX-License-Identifier: MIT */
/*
 * The environment of result documents side by side: kernel and its command
 * line, THP and mTHP, CPU, microcode, governor, SMT, isolated CPUs,
 * mitigations, latmon, and the run's own options. Each row says whether it
 * belongs to the kernel under test (a bisect changes it on purpose) or to
 * the machine and the run (a difference there makes a comparison unfair).
 * THP and mTHP settings count as the kernel's: its configuration and
 * command line set their defaults. The lab device a job ran on (set by a
 * lab's bisect step) is said, not a reason to refuse: devices of one type
 * are the same machine.
 */
#ifndef LATCTL_ENVDIFF_H
#define LATCTL_ENVDIFF_H

#include <stdio.h>
#include <cjson/cJSON.h>

enum lat_env_side {
	LAT_ENV_KERNEL = 1, /* the kernel under test and its settings */
	LAT_ENV_MACHINE,    /* CPU, firmware, tuning of the machine */
	LAT_ENV_RUN,	    /* the workload and options of the run */
	LAT_ENV_DEVICE,	    /* the lab's device that ran it */
};

struct lat_env_row {
	const char *name;
	enum lat_env_side side;
	/* The row's value in doc as text ("none" when absent). */
	const char *(*get)(const cJSON *doc, const struct lat_env_row *row, char *buf, size_t len);
	const char *section, *key;	/* what get reads */
};

/* 1 when the row differs between any of docs[0..n). */
int lat_env_row_differs(const struct lat_env_row *row, const cJSON *const *docs, size_t n);

/* The first row of a side in sides (a mask of 1 << side) that differs,
 * NULL when none does. */
const struct lat_env_row *lat_env_first_difference(const cJSON *const *docs, size_t n,
						   unsigned int sides);

/* How many rows of a side in sides differ. */
size_t lat_env_count_differences(const cJSON *const *docs, size_t n, unsigned int sides);

/* How many rows of the machine's facts (machine/facts.h) differ between
 * docs[0..n), their names into buf ("zero page, first touch"). */
size_t lat_env_facts_differ(const cJSON *const *docs, size_t n, char *buf, size_t len);

/* The distinct devices of docs[0..n) into buf ("qemu-01, qemu-02"),
 * "" when none names one. */
void lat_env_devices(const cJSON *const *docs, size_t n, char *buf, size_t len);

/* The rows side by side in 80 columns, '*' before those that differ
 * (the device's only where a document names one).
 * Returns the number of rows that differ. */
size_t lat_env_print(FILE *out, const cJSON *const *docs, const char *const *names, size_t n);

/* The rows as a JSON array [{name, side, values: [...], differs}]. */
cJSON *lat_env_json(const cJSON *const *docs, size_t n);

#endif /* LATCTL_ENVDIFF_H */
