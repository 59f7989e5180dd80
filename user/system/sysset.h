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

/* Save path's value (once per run, journaled before: the journal below), then write
 * value. 0 or -errno, nothing printed. */
int lat_sysset_change(const char *path, const char *value);

/* The same; on failure prints
 * "latctl: WHAT: cannot write PATH: ERROR" and returns -errno. */
int lat_sysset_write(const char *what, const char *path, const char *value);

/* Write back every saved value, newest first, and end the journal;
 * idempotent. 0 or the first -errno (each failure printed with the value to
 * set by hand; the journal then stays for the next run). */
int lat_sysset_restore(void);

/*
 * The journal of the system settings a run changes, so that nothing a
 * killed run changed stays changed (the model: a package manager's or
 * tuned's state, written before the change).
 *
 * In a root-only directory, /run/latctl ($LATCTL_STATE_DIR; a tmpfs, which
 * a reboot clears as it clears the settings):
 *   lock     flock()ed by the one run that changes settings, from its first
 *            change until it has put them back: one lock for all settings;
 *            a file nobody else can open, so no other user can stall a run;
 *   journal  "run PID COMMAND LINE", then one line per change, appended and
 *            synced before the change: "set PATH OLD-VALUE", "rmdir PATH".
 * A journal whose lock is free was left by a run that died (SIGKILL, the
 * OOM killer): the next latctl command puts its settings back, newest
 * first, and says so on one line; `latctl restore` does it on demand;
 * `latctl doctor` shows it. No journal write is inside a timed loop.
 */
/* The state directory. */
const char *lat_journal_dir(void);

/* Before a run's first change: take the lock (waiting, with a line that
 * names the run holding it), put back what a dead run left, start the
 * journal. Idempotent. 0 or -errno (one line said). */
int lat_journal_begin(void);
/* Before changing path from old: its line, synced. 0 or -errno (said). */
int lat_journal_set(const char *path, const char *old);
/* After creating directory path (a cgroup): its line, synced. */
int lat_journal_rmdir(const char *path);
/* Every change put back: the journal removed, the lock released. With
 * kept, a change could not be put back: the journal stays for the next. */
void lat_journal_end(int kept);
/* The same from a signal handler (async-signal-safe). */
void lat_journal_end_signal(void);

/*
 * What a dead run left, put back now (the lock held meanwhile); one line
 * on stderr saying what. A live run holding the lock: nothing done. 1 if
 * something was put back, 0 if nothing was left, -errno on failure.
 * quiet: no line when nothing was left.
 */
int lat_journal_recover(int quiet);
/* For doctor: the journal into buf ("PID CMD: set PATH OLD; ..."): 0 none,
 * 1 a live run's (it holds the lock), 2 left by a run that died. */
int lat_journal_describe(char *buf, size_t len);

#endif /* LATCTL_SYSSET_H */
