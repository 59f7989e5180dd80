// SPDX-License-Identifier: MIT
/* A directory opened from / one component at a time (file/safedir.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file/safedir.h"

/* A parent on the way: a directory of root or ours, written by nobody
 * else unless sticky. The last: ours alone. */
static int dir_ok(const struct stat *st, int last)
{
	uid_t me = geteuid();

	if (!S_ISDIR(st->st_mode))
		return 0;
	if (last)
		return st->st_uid == me && !(st->st_mode & 077);
	return (st->st_uid == 0 || st->st_uid == me) &&
	       (!(st->st_mode & 022) || (st->st_mode & S_ISVTX));
}

/* One component of a path: opened (made if create) under at, checked. */
static int open_component(int at, const char *name, int last, int create)
{
	struct stat st;
	int fd;

	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(at, name, last ? 0700 : 0755) && errno != EEXIST)
			return -errno;
		fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0)
		return errno == ELOOP || errno == ENOTDIR ? -ENOTDIR : -errno;
	if (fstat(fd, &st) || !dir_ok(&st, last)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int lat_safedir_open(const char *path, int create)
{
	char copy[PATH_MAX], *save = NULL, *name, *next;
	int fd, at;

	if (path[0] != '/' || snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return -EINVAL;
	at = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (at < 0)
		return -errno;
	name = strtok_r(copy, "/", &save);
	if (!name) {
		close(at);
		return -EINVAL;		/* "/" itself is no state directory */
	}
	for (; name; name = next) {
		next = strtok_r(NULL, "/", &save);
		if (!strcmp(name, "..") || !strcmp(name, ".")) {
			close(at);
			return -EINVAL;
		}
		fd = open_component(at, name, !next, create);
		close(at);
		if (fd < 0)
			return fd;
		at = fd;
	}
	return at;
}
