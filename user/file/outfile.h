/* SPDX-License-Identifier: MIT */
/*
 * A file latctl writes (--json, plot -o, compare --json) as a Unix tool
 * run by root on a shared box must:
 * - the name is opened by the kernel, never resolved by latctl: a symlink
 *   is followed only where the kernel follows it for this user
 *   (fs.protected_symlinks), an existing file is taken over only where
 *   the kernel lets this user open it with O_CREAT (fs.protected_regular);
 *   a symlink to nothing gets its target created by the kernel, as by >;
 * - a regular file (or a new name) is written to a temporary file in the
 *   directory that holds it, ".NAME.latctl-PID.XXXXXX", synced and renamed
 *   over it through that directory's descriptor: a reader sees the old
 *   file or the new, never half of one; the new file keeps the old one's
 *   mode and owner;
 * - a character device (/dev/null, a terminal) or a FIFO is written
 *   through, never replaced; a block device, a socket or a directory is
 *   refused; /dev/stdout, /dev/stderr and /dev/fd/N are the descriptors
 *   latctl already has;
 * - the temporary files and --repeat scratch directories of a latctl that
 *   died (their PID gone), owned by this user, are removed from the
 *   directory by the next command that writes there (and `latctl restore`
 *   from $TMPDIR, /tmp and the current directory).
 * Each failure prints one line naming WHAT (the option).
 */
#ifndef LATCTL_OUTFILE_H
#define LATCTL_OUTFILE_H

#include <limits.h>
#include <stddef.h>

struct lat_outfile {
	char path[PATH_MAX];	/* as named: for messages */
	char base[NAME_MAX + 1];	/* the name replaced in dir_fd */
	char tmp[NAME_MAX + 1];	/* the temporary file in dir_fd; "" if none */
	const char *what;	/* "--json", "-o": for messages */
	int dir_fd;		/* the directory of a replaced file, -1 */
	int fd;			/* the temporary file, -1: closed */
	int through_fd;		/* O_PATH of a device or FIFO written through, -1 */
	int std_fd;		/* /dev/stdout and the like: this descriptor, else -1 */
	int created;		/* the target made empty through a dangling symlink */
	int creating;		/* past the checks: making the temporary file */
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

/* In the directory dfd: remove this user's ".NAME.latctl-PID.XXXXXX" files
 * and ".latctl-repeat.PID.XXXXXX" directories whose PID is gone; never a
 * symlink, never another user's. The count removed. */
int lat_outfile_sweep(int dfd);
/* The same for a directory named by path (opened by the kernel). */
int lat_outfile_sweep_path(const char *path);
/* A new directory ".latctl-repeat.PID.XXXXXX" of mode 0700 in dfd: its
 * name into name (NAME_MAX + 1 bytes), its descriptor returned, or -errno. */
int lat_outfile_scratch(int dfd, char *name);

#endif /* LATCTL_OUTFILE_H */
