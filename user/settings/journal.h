/* SPDX-License-Identifier: MIT */
/*
 * The journal of the system settings a run changes, so that nothing a
 * killed run changed stays changed (the model: a package manager's or
 * tuned's state, written before the change).
 *
 * The journal is data, not a script. Each line names a setting from one
 * fixed table (setting.h), never a path:
 *   run PID COMMAND LINE
 *   set KEY OLD-VALUE        KEY: thp, thp-defrag, thp-size-NkB,
 *                            compaction-proactiveness, cgroup-memory
 *   rmdir KEY                KEY: cgroup-latctl-PID (a cgroup latctl made)
 * and each value is one word of [A-Za-z0-9+_-]. A journal with anything
 * else, or that is not a regular file of this user that nobody else can
 * write, or longer than LAT_JOURNAL_MAX_LINES lines or
 * LAT_JOURNAL_MAX_BYTES, is refused whole: one line names what, nothing is
 * put back, and it is kept as journal.refused for a person to read.
 *
 * Where: the state directory, /run/latctl ($LATCTL_STATE_DIR), a directory
 * of this user with mode 0700, reached from / one component at a time
 * with no symlink, each parent owned by root or this user and writable by
 * nobody else unless sticky; opened once, then used by descriptor only.
 *
 * The lock: one flock()ed file, "lock", held by the run that changes
 * settings from its first change until it has put them back; it holds
 * "pid PID COMMAND LINE" for a run that waits. As root it is always
 * /run/latctl/lock, whatever $LATCTL_STATE_DIR says, so two runs with two
 * state directories cannot both save the same setting; a fake sysfs
 * ($LATCTL_SYSFS_THP, the tests') or an unprivileged run locks in its
 * state directory.
 *
 * A journal whose lock is free was left by a run that died (SIGKILL, the
 * OOM killer): the next latctl command puts its settings back, newest
 * first, and says so on one line; `latctl restore` does it on demand;
 * `latctl doctor` shows it. No journal write is inside a timed loop.
 */
#ifndef LATCTL_JOURNAL_H
#define LATCTL_JOURNAL_H

#include <stddef.h>

#define LAT_JOURNAL_MAX_LINES	64
#define LAT_JOURNAL_MAX_BYTES	16384
#define LAT_JOURNAL_MAX_LINE	1200	/* the run line: 1 KiB of command line */

/* A failure the journal has already said in one line (callers add none). */
#define LAT_ENOJOURNAL		ENOLCK

/* The state directory's name. */
const char *lat_journal_dir(void);

/* Before a run's first change: take the lock (waiting, with a line that
 * names the run holding it), put back what a dead run left, start the
 * journal. Idempotent. 0 or -LAT_ENOJOURNAL (one line said). */
int lat_journal_begin(void);
/* Before changing setting key from old: its line, synced. 0 or -errno (said). */
int lat_journal_set(const char *key, const char *old);
/* After creating the cgroup key: its line, synced. */
int lat_journal_rmdir(const char *key);
/* Every change put back: the journal removed, the lock released. With
 * kept, a change could not be put back: the journal stays for the next. */
void lat_journal_end(int kept);
/* The same from a signal handler (async-signal-safe). */
void lat_journal_end_signal(void);

/*
 * What a dead run left, put back now (the lock held meanwhile); one line
 * on stderr saying what. A live run holding the lock: nothing done. 1 if
 * something was put back, 0 if nothing was left, -errno on failure (said).
 * quiet: no line when nothing was left.
 */
int lat_journal_recover(int quiet);
/* For doctor: the journal into buf ("PID CMD: set PATH OLD; ..."): 0 none,
 * 1 a live run's (the lock is held), 2 left by a run that died, 3 refused
 * (buf says why). */
int lat_journal_describe(char *buf, size_t len);

#endif /* LATCTL_JOURNAL_H */
