// SPDX-License-Identifier: MIT
/* Output files: replaced atomically, written through, symlinks followed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc/outfile.h"

#define MAX_HOPS	40	/* symlinks followed, as the kernel's limit */

/* The descriptor path names (/dev/stdout, /dev/fd/1, ...), or -1. */
static int std_fd_of(const char *path)
{
	static const char *const fd_dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	char *end;
	long n;
	size_t i;

	if (!strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	for (i = 0; i < sizeof(fd_dirs) / sizeof(fd_dirs[0]); i++) {
		size_t k = strlen(fd_dirs[i]);

		if (strncmp(path, fd_dirs[i], k) || !path[k])
			continue;
		n = strtol(path + k, &end, 10);
		if (!*end && n >= 0 && n < 1024)
			return (int)n;
	}
	return -1;
}

/* path with every symlink of its last component followed, into out. */
static int resolve(const char *path, char *out, size_t len)
{
	char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	ssize_t n;
	int hops;

	snprintf(cur, sizeof(cur), "%s", path);
	for (hops = 0; hops < MAX_HOPS; hops++) {
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode)) {
			snprintf(out, len, "%s", cur);
			return 0;
		}
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		snprintf(dir, sizeof(dir), "%s", cur);
		if (link[0] == '/')
			snprintf(cur, sizeof(cur), "%s", link);
		else if (snprintf(cur, sizeof(cur), "%s/%s", dirname(dir), link) >= (int)sizeof(cur))
			return -ENAMETOOLONG;
	}
	return -ELOOP;
}

/* Remove ".base.latctl-PID.*" in dir whose PID no longer runs. */
static void remove_stale(const char *dir, const char *base)
{
	char prefix[PATH_MAX];
	struct dirent *e;
	size_t k;
	DIR *d = opendir(dir);
	long pid;
	char *end;

	if (!d)
		return;
	k = (size_t)snprintf(prefix, sizeof(prefix), ".%s.latctl-", base);
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, k))
			continue;
		pid = strtol(e->d_name + k, &end, 10);
		if (*end != '.' || pid <= 0 || pid == getpid())
			continue;
		if (kill((pid_t)pid, 0) && errno == ESRCH)
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

/* The temporary file beside o->path, with the old file's mode and owner. */
static int make_tmp(struct lat_outfile *o, const struct stat *old)
{
	char d[PATH_MAX], b[PATH_MAX];
	mode_t mask = umask(0);

	umask(mask);
	snprintf(d, sizeof(d), "%s", o->path);
	snprintf(b, sizeof(b), "%s", o->path);
	remove_stale(dirname(d), basename(b));
	snprintf(d, sizeof(d), "%s", o->path);
	snprintf(b, sizeof(b), "%s", o->path);
	if (snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.latctl-%d.XXXXXX", dirname(d), basename(b),
		     (int)getpid()) >= (int)sizeof(o->tmp))
		return -ENAMETOOLONG;
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		o->tmp[0] = '\0';
		return -errno;
	}
	if (!old) {
		fchmod(o->fd, 0666 & ~mask);
		return 0;
	}
	fchmod(o->fd, old->st_mode & 07777);
	if (geteuid() == 0 && fchown(o->fd, old->st_uid, old->st_gid))
		return -errno;
	return 0;
}

int lat_outfile_open(struct lat_outfile *o, const char *path, const char *what)
{
	struct stat st;
	int ret, exists;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->what = what;
	o->std_fd = std_fd_of(path);
	snprintf(o->path, sizeof(o->path), "%s", path);
	if (o->std_fd >= 0) {
		ret = fcntl(o->std_fd, F_GETFL);
		if (ret >= 0 && (ret & O_ACCMODE) != O_RDONLY)
			return 0;
		fprintf(stderr, "latctl: %s %s: descriptor %d is not open for writing\n", what, path,
			o->std_fd);
		return -EBADF;
	}
	ret = resolve(path, o->path, sizeof(o->path));
	exists = !ret && !stat(o->path, &st);
	if (!ret && exists && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "latctl: %s %s is a directory; give a file name\n", what, path);
		return -EISDIR;
	}
	if (!ret && exists && !S_ISREG(st.st_mode)) {
		o->through = 1;		/* a device, a FIFO: written, not replaced */
		if (access(o->path, W_OK)) {
			ret = -errno;
			fprintf(stderr, "latctl: %s %s: cannot write to it: %s\n", what, path,
				strerror(-ret));
		}
		return ret;
	}
	ret = ret ? ret : make_tmp(o, exists ? &st : NULL);
	if (ret) {
		fprintf(stderr, "latctl: %s %s: cannot create a file there: %s; choose a writable directory\n",
			what, path, strerror(-ret));
		lat_outfile_abort(o);
	}
	return ret;
}

static int write_all(int fd, const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write through: the descriptor latctl has, or the target opened now (a
 * FIFO waits for its reader here, as a shell's > would). */
static int commit_through(struct lat_outfile *o, const char *text, size_t len)
{
	int fd = o->std_fd >= 0 ? o->std_fd : open(o->path, O_WRONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	if (o->std_fd == STDOUT_FILENO)
		fflush(stdout);
	ret = write_all(fd, text, len);
	if (fd != o->std_fd && close(fd) && !ret)
		ret = -errno;
	return ret;
}

int lat_outfile_commit(struct lat_outfile *o, const char *text, size_t len)
{
	int ret;

	if (o->std_fd >= 0 || o->through) {
		ret = commit_through(o, text, len);
	} else {
		ret = write_all(o->fd, text, len);
		if (!ret && fsync(o->fd))
			ret = -errno;
		if (close(o->fd) && !ret)
			ret = -errno;
		o->fd = -1;
		if (!ret && rename(o->tmp, o->path))
			ret = -errno;
		if (!ret)
			o->tmp[0] = '\0';	/* renamed: nothing left to remove */
	}
	if (ret)
		fprintf(stderr, "latctl: %s: writing %s failed: %s; %s\n", o->what, o->path,
			strerror(-ret), o->through || o->std_fd >= 0 ? "what it got may be cut short"
								      : "the old file is kept");
	lat_outfile_abort(o);
	return ret;
}

void lat_outfile_abort(struct lat_outfile *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

void lat_outfile_unlink(const struct lat_outfile *o)
{
	if (o->tmp[0])
		unlink(o->tmp);
}
