/* SPDX-License-Identifier: MIT */
/* What a kernel comparison needs to know of the machine besides what
 * result.c records: kernel command line, microcode, SMT, CPU
 * vulnerability mitigations and the mTHP sizes' settings. */
#ifndef LATCTL_ENV_MORE_H
#define LATCTL_ENV_MORE_H

#include <cjson/cJSON.h>

/* Add "cmdline", "microcode", "smt", "mitigations" {name: state} and
 * "mthp" {"16kB": "never", ...} to env; null where the file is absent. */
void lat_env_more(cJSON *env);

#endif /* LATCTL_ENV_MORE_H */
