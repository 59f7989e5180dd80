// SPDX-License-Identifier: MIT
/* THP sysfs setting with guaranteed restore, and the per-process opt-out. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "system/sysset.h"
#include "system/thp.h"

static char saved_path[PATH_MAX];
static char saved_value[32];
static volatile int armed;
static int lock_fd = -1;

const char *lat_thp_dir(void)
{
	const char *dir = getenv("LATCTL_SYSFS_THP");

	return dir && *dir ? dir : "/sys/kernel/mm/transparent_hugepage";
}

int lat_thp_valid(const char *value)
{
	return !strcmp(value, "always") || !strcmp(value, "madvise") ||
	       !strcmp(value, "never");
}

int lat_thp_read(const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", lat_thp_dir(), file);
	return lat_sysset_read(path, buf, len);
}

static void restore_on_signal(void)
{
	if (armed)
		lat_sysset_put(saved_path, saved_value);
}

/* One line saying why --thp could not be applied and what to do. */
static void thp_error(int err, const char *path, const char *value)
{
	if (err == -ENOENT)
		fprintf(stderr, "latctl: --thp %s: this kernel has no transparent huge pages (%s is missing); run without --thp\n",
			value, path);
	else if ((err == -EACCES || err == -EPERM || err == -EROFS) && !strcmp(value, "never"))
		fprintf(stderr, "latctl: --thp never needs root: it changes %s for the whole system; run as root, "
			"or use --no-thp (no huge pages for this run only, no root needed)\n", path);
	else if (err == -EACCES || err == -EPERM || err == -EROFS)
		fprintf(stderr, "latctl: --thp %s needs root: it changes %s for the whole system; run as root "
			"(without root a run gets huge pages only where THP is already %s)\n", value, path, value);
	else
		fprintf(stderr, "latctl: --thp %s: cannot write %s: %s\n",
			value, path, strerror(-err));
}

/*
 * flock() the "enabled" file for the whole run, so that two latctl runs
 * with --thp never save each other's value and restore the wrong one.
 */
static int lock_enabled(const char *path)
{
	lock_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (lock_fd < 0)
		return -errno;
	if (!flock(lock_fd, LOCK_EX | LOCK_NB))
		return 0;
	fprintf(stderr, "latctl: another latctl run has changed %s; waiting for it to end\n", path);
	if (!flock(lock_fd, LOCK_EX))
		return 0;
	close(lock_fd);
	lock_fd = -1;
	return -errno;
}

static void unlock_enabled(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}

int lat_thp_set(const char *value)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/enabled", lat_thp_dir());
	ret = lock_enabled(path);
	if (!ret)
		ret = lat_thp_read("enabled", saved_value, sizeof(saved_value));
	if (!ret && access(path, W_OK))
		ret = -errno;
	if (ret) {
		thp_error(ret, path, value);
		unlock_enabled();
		return ret;
	}
	snprintf(saved_path, sizeof(saved_path), "%s", path);
	lat_cleanup_install();
	armed = 1;		/* arm first: a signal during the write restores */
	lat_cleanup_add(restore_on_signal);
	ret = lat_sysset_put(path, value);
	if (ret) {
		thp_error(ret, path, value);
		lat_thp_restore();
	}
	return ret;
}

int lat_thp_restore(void)
{
	int ret;

	if (!armed)
		return 0;
	ret = lat_sysset_put(saved_path, saved_value);
	if (ret)
		fprintf(stderr, "latctl: could not restore %s to '%s': %s; set it by hand\n",
			saved_path, saved_value, strerror(-ret));
	armed = 0;
	lat_cleanup_remove(restore_on_signal);
	unlock_enabled();
	return ret;
}

int lat_thp_disable_self(void)
{
	if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)) {
		int ret = -errno;

		fprintf(stderr, "latctl: --no-thp: prctl(PR_SET_THP_DISABLE) failed: %s (kernel older than 3.15?)\n",
			strerror(-ret));
		return ret;
	}
	return 0;
}
