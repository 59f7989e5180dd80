/* SPDX-License-Identifier: MIT */
/*
 * The memory environment of a run: --thp-size (thp_size.h), --fragment
 * (fragment.h) and --memcg (memcg.h), set up before the workload, undone
 * after it, and shown in the result as the "mm" object.
 */
#ifndef LATCTL_MMENV_H
#define LATCTL_MMENV_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "system/thp_size.h"

struct lat_rd;

/* What a run asks of the memory environment. */
struct lat_mm_opts {
	struct lat_thp_size thp_size[LAT_THP_SIZE_MAX];	/* --thp-size, in order */
	int n_thp_size;
	int fragment;		/* --fragment: no free 2 MiB block (fragment.h) */
	uint64_t memcg_bytes;	/* --memcg SIZE (memcg.h), 0 = none */
};

/* "64M", "1G", "512K" or bytes into *bytes (at least 1 MiB). One line on
 * stderr and -EINVAL when invalid. */
int lat_mm_parse_size(const char *opt, const char *arg, uint64_t *bytes);

/* Apply the options; one line and -errno on failure (then undone). */
int lat_mm_env_prepare(const struct lat_mm_opts *o);

/* Around the timed loop: into --memcg's cgroup (filled) and out again.
 * enter: one line and -errno on failure. */
int lat_mm_env_enter(void);
void lat_mm_env_leave(void);

/* The "mm" object: thp_sizes, fragment, memcg (null when not used). */
cJSON *lat_mm_env_json(void);

/* Undo everything; idempotent. */
void lat_mm_env_restore(void);

/* The report lines of an "mm" object, read strictly: thp_sizes, fragment
 * and memcg are always written, each an object or null (not in effect). */
void lat_mm_env_print(const cJSON *mm, FILE *out, struct lat_rd *r);

#endif /* LATCTL_MMENV_H */
