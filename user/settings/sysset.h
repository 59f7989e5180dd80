/* SPDX-License-Identifier: MIT */
/*
 * Kernel settings latctl changes for one run (sysfs and cgroup files), each
 * named by its key in the journal's table (journal.h), saved before its
 * first write and written back by lat_sysset_restore() on
 * every exit path, also on SIGINT/SIGTERM/SIGHUP (cleanup.h).
 */
#ifndef LATCTL_SYSSET_H
#define LATCTL_SYSSET_H

#include <stddef.h>

#include "settings/setting.h" /* lat_sysset_read(), lat_sysset_put() */

#define LAT_SYSSET_MAX	16

/* Save the setting key's value (key: journal.h's table; once per run,
 * journaled before), then write value. 0 or -errno, nothing printed but
 * the journal's own line (-LAT_ENOJOURNAL). */
int lat_sysset_change(const char *key, const char *value);

/* The same; on failure prints
 * "latctl: WHAT: cannot write PATH: ERROR" and returns -errno. */
int lat_sysset_write(const char *what, const char *key, const char *value);

/* Write back every saved value, newest first, and end the journal;
 * idempotent. 0 or the first -errno (each failure printed with the value to
 * set by hand; the journal then stays for the next run). */
int lat_sysset_restore(void);

#endif /* LATCTL_SYSSET_H */
