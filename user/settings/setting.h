/* SPDX-License-Identifier: MIT */
/*
 * The system settings latctl changes, one fixed table: each named by a key,
 * which is what the journal (journal.h) records, never a path:
 *   thp                       THP/enabled
 *   thp-defrag                THP/defrag
 *   thp-size-NkB              THP/hugepages-NkB/enabled (mTHP sizes)
 *   compaction-proactiveness  /proc/sys/vm/compaction_proactiveness
 *   cgroup-memory             CGROUP2/cgroup.subtree_control ("-memory")
 *   cgroup-latctl-PID         CGROUP2/latctl-PID, a cgroup a run made
 * THP is /sys/kernel/mm/transparent_hugepage ($LATCTL_SYSFS_THP: a fake,
 * for tests), CGROUP2 the cgroup v2 mount. Values are one word of
 * [A-Za-z0-9+_-], at most 63 bytes.
 */
#ifndef LATCTL_SETTING_H
#define LATCTL_SETTING_H

#include <stddef.h>

/* The THP sysfs directory. */
const char *lat_thp_dir(void);
/* The cgroup v2 mount point (/proc/self/mountinfo), or NULL. */
const char *lat_cgroup2_root(void);

/* The file of setting key into path: 0, or -EINVAL for a key not in the
 * table (-ENOENT: no cgroup v2 here). */
int lat_setting_path(const char *key, char *path, size_t len);
/* 1 if key is one of the table's (by its form; cgroup-latctl-PID too). */
int lat_setting_known(const char *key);
/* 1 if value may be saved for key (a key of the table, a value of its form). */
int lat_setting_value_ok(const char *key, const char *value);
/* PID of a cgroup-latctl-PID key (a directory to remove), else 0. */
long lat_setting_is_dir(const char *key);

/* Read a setting: the [bracketed] word of "always [madvise] never", or the
 * whole trimmed content. 0 or -errno. */
int lat_sysset_read(const char *path, char *buf, size_t len);

/* Write a whole string to path (a regular file, no symlink followed),
 * nothing saved; async-signal-safe. 0 or -errno. */
int lat_sysset_put(const char *path, const char *value);

#endif /* LATCTL_SETTING_H */
