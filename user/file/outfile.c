// SPDX-License-Identifier: MIT
/* Output files: named to the kernel, replaced atomically by descriptor. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file/outfile.h"

#define TMP_TAG		".latctl-"
#define SCRATCH_TAG	".latctl-repeat."

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

/* "a block device", ...: what a path that latctl does not write is. */
static const char *kind_of(mode_t m)
{
	return S_ISBLK(m) ? "a block device" : S_ISDIR(m) ? "a directory" :
	       S_ISSOCK(m) ? "a socket" : "not a file latctl writes";
}

/* ---- leftovers of dead runs ---- */

/* PID of a temporary name ".NAME.latctl-PID.XXXXXX" or a scratch directory
 * ".latctl-repeat.PID.XXXXXX" (dir set), else 0. */
static long leftover_pid(const char *name, int *dir)
{
	const char *p = NULL, *s;
	char *end;
	long pid;

	*dir = !strncmp(name, SCRATCH_TAG, strlen(SCRATCH_TAG));
	if (*dir)
		p = name + strlen(SCRATCH_TAG);
	else if (name[0] == '.')
		for (s = name; (s = strstr(s, TMP_TAG)); s++)
			p = s + strlen(TMP_TAG);
	if (!p || *p < '1' || *p > '9')
		return 0;
	pid = strtol(p, &end, 10);
	if (*end != '.' || strlen(end + 1) != 6 || strchr(end + 1, '/'))
		return 0;
	return pid;
}

static int dead(long pid)
{
	return pid != getpid() && kill((pid_t)pid, 0) && errno == ESRCH;
}

/* This user's regular files in a scratch directory, then the directory. */
static int remove_scratch_dir(int dfd, const char *name, const struct stat *st)
{
	struct stat in;
	struct dirent *e;
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return 0;
	if (fstat(fd, &in) || in.st_ino != st->st_ino || in.st_dev != st->st_dev ||
	    !(d = fdopendir(fd))) {
		close(fd);
		return 0;
	}
	while ((e = readdir(d)))
		if (!fstatat(fd, e->d_name, &in, AT_SYMLINK_NOFOLLOW) && S_ISREG(in.st_mode) &&
		    in.st_uid == geteuid())
			unlinkat(fd, e->d_name, 0);
	closedir(d);
	return !unlinkat(dfd, name, AT_REMOVEDIR);
}

int lat_outfile_sweep(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), n = 0, dir;
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((e = readdir(d))) {
		long pid = leftover_pid(e->d_name, &dir);

		if (!pid || !dead(pid) || fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    st.st_uid != geteuid())
			continue;
		if (dir && S_ISDIR(st.st_mode))
			n += remove_scratch_dir(fd, e->d_name, &st);
		else if (!dir && S_ISREG(st.st_mode))
			n += !unlinkat(fd, e->d_name, 0);
	}
	closedir(d);
	return n;
}

int lat_outfile_sweep_path(const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC), n;

	if (fd < 0)
		return 0;
	n = lat_outfile_sweep(fd);
	close(fd);
	return n;
}

/* Six random letters and digits after name's last '.'. */
static void randomize(char *name)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	char *x = strrchr(name, '.') + 1;
	int i;

	if (getrandom(r, sizeof(r), 0) != sizeof(r))
		for (i = 0; i < 6; i++)
			r[i] = (unsigned char)rand();
	for (i = 0; i < 6; i++)
		x[i] = set[r[i] % (sizeof(set) - 1)];
	x[6] = '\0';
}

int lat_outfile_scratch(int dfd, char *name)
{
	int i, fd;

	for (i = 0; i < 100; i++) {
		snprintf(name, NAME_MAX + 1, SCRATCH_TAG "%d.", (int)getpid());
		randomize(name);
		if (!mkdirat(dfd, name, 0700))
			break;
		if (errno != EEXIST)
			return -errno;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* ---- opening ---- */

/* The temporary file in o->dir_fd, with the old file's mode and owner. */
static int make_tmp(struct lat_outfile *o, const struct stat *old)
{
	mode_t mask = umask(0);
	int i;

	umask(mask);
	o->creating = 1;
	lat_outfile_sweep(o->dir_fd);
	for (i = 0; i < 100; i++) {
		snprintf(o->tmp, sizeof(o->tmp), ".%.200s" TMP_TAG "%d.", o->base, (int)getpid());
		randomize(o->tmp);
		o->fd = openat(o->dir_fd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (o->fd >= 0 || errno != EEXIST)
			break;
	}
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

/* dir_fd and base from a path: its directory opened by the kernel. */
static int split(struct lat_outfile *o, const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t k = slash ? (size_t)(slash - path) : 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(k ? k : 1), path);
	if (snprintf(o->base, sizeof(o->base), "%s", slash ? slash + 1 : path) >= (int)sizeof(o->base))
		return -ENAMETOOLONG;
	if (!o->base[0] || !strcmp(o->base, ".") || !strcmp(o->base, ".."))
		return -EISDIR;
	o->dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return o->dir_fd < 0 ? -errno : 0;
}

/* A regular file the kernel opened as pfd: its directory by the kernel's
 * own name for it, the entry checked to be that file, and opened with
 * O_CREAT as a shell's > would (fs.protected_regular). */
static int take_regular(struct lat_outfile *o, int pfd, const struct stat *st)
{
	char proc[64], real[PATH_MAX];
	struct stat in;
	ssize_t n;
	int fd, ret;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	n = readlink(proc, real, sizeof(real) - 1);
	if (n <= 0 || real[0] != '/')
		return n < 0 ? -errno : -ENOENT;
	real[n] = '\0';
	ret = split(o, real);
	if (ret)
		return ret;
	if (fstatat(o->dir_fd, o->base, &in, AT_SYMLINK_NOFOLLOW) || in.st_ino != st->st_ino ||
	    in.st_dev != st->st_dev)
		return -ESTALE;		/* renamed meanwhile */
	fd = openat(o->dir_fd, o->base, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	return make_tmp(o, st);
}

/* A symlink to nothing: its target created by the kernel, as a shell's >
 * would (fs.protected_symlinks applies), then taken as a regular file; it
 * is removed again if nothing is written. */
static int take_dangling(struct lat_outfile *o, const char *path)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600), ret;

	if (fd < 0 && errno == EEXIST)	/* O_EXCL does not follow: create through it */
		fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	ret = fstat(fd, &st) ? -errno : S_ISREG(st.st_mode) ? take_regular(o, fd, &st) : -EINVAL;
	if (!ret && st.st_size == 0)
		o->created = 1;
	close(fd);
	return ret;
}

/* A name that is not there yet: created in its directory at commit. */
static int take_new(struct lat_outfile *o, const char *path)
{
	struct stat st;
	int ret;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		return take_dangling(o, path);
	ret = split(o, path);
	return ret ? ret : make_tmp(o, NULL);
}

static int open_std(struct lat_outfile *o, const char *path, const char *what)
{
	int fl = fcntl(o->std_fd, F_GETFL);

	if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY)
		return 0;
	fprintf(stderr, "latctl: %s %s: descriptor %d is not open for writing\n", what, path, o->std_fd);
	return -EBADF;
}

/* A device or a FIFO written through: writable by this user. */
static int take_through(struct lat_outfile *o, int pfd)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	if (access(proc, W_OK))
		return -errno;
	o->through_fd = pfd;
	return 0;
}

static void say_open_error(const struct lat_outfile *o, int ret)
{
	if (ret == -EISDIR)
		fprintf(stderr, "latctl: %s %s is a directory; give a file name\n", o->what, o->path);
	else if ((ret == -EACCES || ret == -EPERM) && !o->creating)
		fprintf(stderr, "latctl: %s %s: cannot write to it: %s (a symlink or another user's file in a sticky directory is refused, as the kernel refuses it to a shell's >)\n",
			o->what, o->path, strerror(-ret));
	else
		fprintf(stderr, "latctl: %s %s: cannot create a file there: %s; choose a writable directory\n",
			o->what, o->path, strerror(-ret));
}

static void init(struct lat_outfile *o, const char *path, const char *what)
{
	memset(o, 0, sizeof(*o));
	o->fd = o->dir_fd = o->through_fd = -1;
	o->what = what;
	o->std_fd = std_fd_of(path);
	snprintf(o->path, sizeof(o->path), "%s", path);
}

int lat_outfile_open(struct lat_outfile *o, const char *path, const char *what)
{
	struct stat st;
	int pfd, ret;

	init(o, path, what);
	if (o->std_fd >= 0)
		return open_std(o, path, what);
	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0) {
		ret = errno == ENOENT ? take_new(o, path) : -errno;
	} else if (fstat(pfd, &st)) {
		ret = -errno;
	} else if (S_ISREG(st.st_mode)) {
		ret = take_regular(o, pfd, &st);
	} else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		ret = take_through(o, pfd);
		if (!ret)
			return 0;	/* pfd kept */
	} else if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
	} else {
		fprintf(stderr, "latctl: %s %s is %s; latctl writes a regular file, a character device, a FIFO or a terminal\n",
			what, path, kind_of(st.st_mode));
		close(pfd);
		return -EINVAL;
	}
	if (pfd >= 0)
		close(pfd);
	if (ret) {
		say_open_error(o, ret);
		lat_outfile_abort(o);
	}
	return ret;
}

/* ---- writing ---- */

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

/* Write through: the descriptor latctl has, or the device opened now by
 * its descriptor (a FIFO waits for its reader here, as a shell's > would). */
static int commit_through(struct lat_outfile *o, const char *text, size_t len)
{
	char proc[64];
	int fd = o->std_fd, ret;

	if (fd < 0) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->through_fd);
		fd = open(proc, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	if (o->std_fd == STDOUT_FILENO)
		fflush(stdout);
	ret = write_all(fd, text, len);
	if (fd != o->std_fd && close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int commit_file(struct lat_outfile *o, const char *text, size_t len)
{
	int ret = write_all(o->fd, text, len);

	if (!ret && fsync(o->fd))
		ret = -errno;
	if (close(o->fd) && !ret)
		ret = -errno;
	o->fd = -1;
	if (!ret && renameat(o->dir_fd, o->tmp, o->dir_fd, o->base))
		ret = -errno;
	if (!ret)
		o->tmp[0] = '\0';	/* renamed: nothing left to remove */
	return ret;
}

int lat_outfile_commit(struct lat_outfile *o, const char *text, size_t len)
{
	int through = o->std_fd >= 0 || o->through_fd >= 0;
	int ret = through ? commit_through(o, text, len) : commit_file(o, text, len);

	if (ret)
		fprintf(stderr, "latctl: %s: writing %s failed: %s; %s\n", o->what, o->path,
			strerror(-ret), through ? "what it got may be cut short" : "the old file is kept");
	lat_outfile_abort(o);
	return ret;
}

void lat_outfile_abort(struct lat_outfile *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp[0] && o->dir_fd >= 0)
		unlinkat(o->dir_fd, o->tmp, 0);
	if (o->tmp[0] && o->dir_fd >= 0 && o->created)
		unlinkat(o->dir_fd, o->base, 0);	/* the empty target it made */
	o->tmp[0] = '\0';
	if (o->dir_fd >= 0)
		close(o->dir_fd);
	if (o->through_fd >= 0)
		close(o->through_fd);
	o->dir_fd = o->through_fd = -1;
}

void lat_outfile_unlink(const struct lat_outfile *o)
{
	if (o->tmp[0] && o->dir_fd >= 0)
		unlinkat(o->dir_fd, o->tmp, 0);
}
