// SPDX-License-Identifier: MIT
/* Saved kernel settings with a restore that also runs from a signal handler. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "system/sysset.h"

struct saved {
	char path[PATH_MAX];
	char value[64];
};

static struct saved saved[LAT_SYSSET_MAX];
static volatile int n_saved;

/* "always [madvise] never" -> "madvise"; "max\n" -> "max". */
static void pick_value(const char *text, char *buf, size_t len)
{
	const char *b = strchr(text, '['), *e;

	if (b && (e = strchr(b, ']'))) {
		b++;
	} else {
		b = text + strspn(text, " \t\n");
		e = b + strcspn(b, " \t\n");
	}
	snprintf(buf, len, "%.*s", (int)(e - b), b);
}

int lat_sysset_read(const char *path, char *buf, size_t len)
{
	char text[256];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	text[n] = '\0';
	pick_value(text, buf, len);
	return 0;
}

int lat_sysset_put(const char *path, const char *value)
{
	size_t len = strlen(value);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, len) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static void restore_on_signal(void)
{
	int i;

	for (i = n_saved; i-- > 0;)
		lat_sysset_put(saved[i].path, saved[i].value);
}

static int is_saved(const char *path)
{
	int i;

	for (i = 0; i < n_saved; i++)
		if (!strcmp(saved[i].path, path))
			return 1;
	return 0;
}

/* Remember path's current value; the first save arms the signal restore. */
static int save(const char *path)
{
	struct saved *s = &saved[n_saved];
	int ret;

	if (is_saved(path))
		return 0;
	if (n_saved == LAT_SYSSET_MAX)
		return -ENOSPC;
	ret = lat_sysset_read(path, s->value, sizeof(s->value));
	if (ret)
		return ret;
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (!n_saved) {
		lat_cleanup_install();
		lat_cleanup_add(restore_on_signal);
	}
	n_saved++;		/* saved first: a signal during the write restores */
	return 0;
}

int lat_sysset_write(const char *what, const char *path, const char *value)
{
	int ret = save(path);

	if (!ret)
		ret = lat_sysset_put(path, value);
	if (ret)
		fprintf(stderr, "latctl: %s: cannot write %s: %s\n", what, path,
			strerror(-ret));
	return ret;
}

int lat_sysset_restore(void)
{
	int ret, first = 0;

	while (n_saved > 0) {
		struct saved *s = &saved[n_saved - 1];

		ret = lat_sysset_put(s->path, s->value);
		if (ret)
			fprintf(stderr, "latctl: could not restore %s to '%s': %s; set it by hand\n",
				s->path, s->value, strerror(-ret));
		if (ret && !first)
			first = ret;
		n_saved--;
	}
	lat_cleanup_remove(restore_on_signal);
	return first;
}
