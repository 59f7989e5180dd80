/* SPDX-License-Identifier: MIT */
/*
 * A file latctl writes (--json, plot -o) as a Unix tool would:
 * - a regular file (or a new name) is written to a temporary file beside
 *   it, ".NAME.latctl-PID.XXXXXX", synced and renamed over it: a reader
 *   sees the old file or the new, never half of one; the new file keeps
 *   the old one's mode and owner;
 * - a symlink is followed: its target is replaced so;
 * - what is not a regular file (a device such as /dev/null, a FIFO, a
 *   terminal) is written through, never replaced; /dev/stdout,
 *   /dev/stderr and /dev/fd/N are the descriptors latctl already has;
 * - the temporary files of a latctl that died (their PID gone) beside the
 *   target are removed when the next one opens it.
 * Each failure prints one line naming WHAT (the option).
 */
#ifndef LATCTL_OUTFILE_H
#define LATCTL_OUTFILE_H

#include <limits.h>
#include <stddef.h>

struct lat_outfile {
	char path[PATH_MAX];	/* what is written: the target, a symlink followed */
	char tmp[PATH_MAX];	/* the temporary file; "" when written through */
	const char *what;	/* "--json", "-o": for messages */
	int fd;			/* -1: closed */
	int through;		/* not a regular file: opened at commit, written in place */
	int std_fd;		/* /dev/stdout and the like: this descriptor, else -1 */
};

/* Check or create now, so that an unwritable target fails before the work.
 * 0 or -errno (one line said). */
int lat_outfile_open(struct lat_outfile *o, const char *path, const char *what);
/* Write len bytes of text and put the file in place; closes it either way.
 * 0 or -errno (one line said; the old file is kept). */
int lat_outfile_commit(struct lat_outfile *o, const char *text, size_t len);
/* Remove the temporary file (also idempotent, also after commit). */
void lat_outfile_abort(struct lat_outfile *o);
/* For a signal handler: unlink o's temporary file (async-signal-safe). */
void lat_outfile_unlink(const struct lat_outfile *o);

#endif /* LATCTL_OUTFILE_H */
