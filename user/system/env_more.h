/* SPDX-License-Identifier: MIT */
/* What a kernel comparison needs to know of the machine besides what
 * result.c records: kernel command line, microcode, CPU vendor, SMT, CPU
 * vulnerability mitigations and the mTHP sizes' settings. */
#ifndef LATCTL_ENV_MORE_H
#define LATCTL_ENV_MORE_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* Add "cmdline", "microcode", "cpu_vendor" ("GenuineIntel", ...), "smt",
 * "mitigations" {name: state} and "mthp" {"16kB": "never", ...} to env;
 * null where the file is absent. */
void lat_env_more(cJSON *env);

/* The value of the first /proc/cpuinfo line named key ("model name") into
 * buf; NULL when there is none. */
const char *lat_cpuinfo_field(const char *key, char *buf, size_t len);

#endif /* LATCTL_ENV_MORE_H */
