/* SPDX-License-Identifier: MIT */
/*
 * Kernel settings latctl changes for one run (sysfs and cgroup files), each
 * saved before its first write and written back by lat_sysset_restore() on
 * every exit path, also on SIGINT/SIGTERM/SIGHUP (cleanup.h).
 */
#ifndef LATCTL_SYSSET_H
#define LATCTL_SYSSET_H

#include <stddef.h>

#define LAT_SYSSET_MAX	16

/* Read a setting: the [bracketed] word of "always [madvise] never", or the
 * whole trimmed content. 0 or -errno. */
int lat_sysset_read(const char *path, char *buf, size_t len);

/* Write a whole string to path, nothing saved; async-signal-safe. 0 or
 * -errno. */
int lat_sysset_put(const char *path, const char *value);

/* Save path's value (once per run), then write value. On failure prints
 * "latctl: WHAT: cannot write PATH: ERROR" and returns -errno. */
int lat_sysset_write(const char *what, const char *path, const char *value);

/* Write back every saved value, newest first; idempotent. 0 or the first
 * -errno (each failure printed with the value to set by hand). */
int lat_sysset_restore(void);

#endif /* LATCTL_SYSSET_H */
