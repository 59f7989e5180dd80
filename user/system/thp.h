/* SPDX-License-Identifier: MIT */
/*
 * Transparent huge pages: the system-wide setting (--thp, root, restored on
 * every exit path) and the per-process opt-out (--no-thp).
 * The sysfs directory is /sys/kernel/mm/transparent_hugepage unless
 * $LATCTL_SYSFS_THP names another one (tests use a fake directory).
 */
#ifndef LATCTL_THP_H
#define LATCTL_THP_H

#include <stddef.h>

#include "settings/setting.h" /* lat_thp_dir() */

/* 1 if value is always, madvise or never. */
int lat_thp_valid(const char *value);

/* Current value of <dir>/<file> ("enabled", "defrag"): the [bracketed] word,
 * or the whole trimmed content. 0 or -errno. */
int lat_thp_read(const char *file, char *buf, size_t len);

/* Save the current "enabled" (journaled: settings/journal.h), write value,
 * arm the restore (also on SIGINT/SIGTERM/SIGHUP). Prints one line on
 * failure. 0 or -errno. */
int lat_thp_set(const char *value);

/* Write every saved setting back (lat_sysset_restore); idempotent. */
int lat_thp_restore(void);

/* prctl(PR_SET_THP_DISABLE) for this process. Prints on failure. */
int lat_thp_disable_self(void);

#endif /* LATCTL_THP_H */
