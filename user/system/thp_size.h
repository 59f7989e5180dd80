/* SPDX-License-Identifier: MIT */
/*
 * Per-size transparent huge pages (mTHP, Linux 6.8+): --thp-size SIZE=MODE
 * writes <thp dir>/hugepages-<N>kB/enabled for the run (restored after, see
 * sysset.h), and the report shows the setting of every size in effect.
 */
#ifndef LATCTL_THP_SIZE_H
#define LATCTL_THP_SIZE_H

#include <stdint.h>
#include <cjson/cJSON.h>

struct lat_rd;

#define LAT_THP_SIZE_MAX	8

/* A parsed --thp-size: "64K=always" -> kb 64, mode "always". */
struct lat_thp_size {
	unsigned int kb;
	char mode[16];
};

/* Parse SIZE=MODE (SIZE: 16K, 64k, 2M, 64kB; MODE: always, madvise, never,
 * inherit). Prints one line and returns -EINVAL when invalid. */
int lat_thp_size_parse(const char *arg, struct lat_thp_size *out);

/* Apply every setting (root; saved and restored by sysset). One line and
 * -errno when the kernel has no such size or no per-size settings. */
int lat_thp_size_apply(const struct lat_thp_size *s, int n);

/* {"64K": "always", ...} for every size this kernel has, or NULL if it has
 * none (the report then says so). */
cJSON *lat_thp_size_json(void);

/* "mTHP sizes: 64K always, 2048K inherit; the others never" or the line
 * for a kernel without them; from the object lat_thp_size_json() made. */
void lat_thp_size_print(const cJSON *sizes, FILE *out, struct lat_rd *r);

/* The per-size THP sizes this kernel has (hugepages-<N>kB/enabled), in kB
 * ascending: their count, or -errno. */
int lat_thp_sizes(unsigned int *kb, int max);

#endif /* LATCTL_THP_SIZE_H */
