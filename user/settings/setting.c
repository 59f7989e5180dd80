// SPDX-License-Identifier: MIT
/* The settings latctl changes, named by key (setting.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "settings/setting.h"

const char *lat_thp_dir(void)
{
	const char *dir = getenv("LATCTL_SYSFS_THP");

	return dir && *dir ? dir : "/sys/kernel/mm/transparent_hugepage";
}

const char *lat_cgroup2_root(void)
{
	static char root[256];
	char line[PATH_MAX * 2], mnt[PATH_MAX], type[32];
	FILE *f;
	char *dash;

	if (root[0])
		return root;
	f = fopen("/proc/self/mountinfo", "re");
	while (f && !root[0] && fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - ");
		if (dash && sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 &&
		    sscanf(dash + 3, "%31s", type) == 1 && !strcmp(type, "cgroup2"))
			snprintf(root, sizeof(root), "%.255s", mnt);
	}
	if (f)
		fclose(f);
	return root[0] ? root : NULL;
}

/* "N" of PREFIX N SUFFIX, N decimal without a leading zero; -1 if not so. */
static long key_number(const char *key, const char *prefix, const char *suffix)
{
	size_t p = strlen(prefix), d;
	long n = 0;

	if (strncmp(key, prefix, p))
		return -1;
	for (d = 0; key[p + d] >= '0' && key[p + d] <= '9' && d < 9; d++)
		n = n * 10 + (key[p + d] - '0');
	if (!d || key[p] == '0' || strcmp(key + p + d, suffix))
		return -1;
	return n;
}

static int put_path(size_t len, int n)
{
	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

int lat_setting_path(const char *key, char *path, size_t len)
{
	const char *cg;
	long n;

	if (!strcmp(key, "thp"))
		return put_path(len, snprintf(path, len, "%s/enabled", lat_thp_dir()));
	if (!strcmp(key, "thp-defrag"))
		return put_path(len, snprintf(path, len, "%s/defrag", lat_thp_dir()));
	if ((n = key_number(key, "thp-size-", "kB")) > 0)
		return put_path(len, snprintf(path, len, "%s/hugepages-%ldkB/enabled",
						   lat_thp_dir(), n));
	if (!strcmp(key, "compaction-proactiveness"))
		return put_path(len, snprintf(path, len, "/proc/sys/vm/compaction_proactiveness"));
	if (strncmp(key, "cgroup-", 7))
		return -EINVAL;
	cg = lat_cgroup2_root();
	if (!cg || cg[0] != '/')
		return -ENOENT;
	if (!strcmp(key, "cgroup-memory"))
		return put_path(len, snprintf(path, len, "%s/cgroup.subtree_control", cg));
	if ((n = key_number(key, "cgroup-latctl-", "")) > 0)
		return put_path(len, snprintf(path, len, "%s/latctl-%ld", cg, n));
	return -EINVAL;
}

long lat_setting_is_dir(const char *key)
{
	long n = key_number(key, "cgroup-latctl-", "");

	return n > 0 ? n : 0;
}

int lat_setting_known(const char *key)
{
	static const char *const fixed[] = {
		"thp", "thp-defrag", "compaction-proactiveness", "cgroup-memory",
	};
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(key, fixed[i]))
			return 1;
	return key_number(key, "thp-size-", "kB") > 0 || lat_setting_is_dir(key);
}

int lat_setting_value_ok(const char *key, const char *value)
{
	size_t n = strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+_-");

	if (!n || value[n] || n > 63 || lat_setting_is_dir(key) || !lat_setting_known(key))
		return 0;
	if (!strcmp(key, "cgroup-memory"))
		return !strcmp(value, "-memory");
	if (!strcmp(key, "compaction-proactiveness"))
		return strspn(value, "0123456789") == n && n <= 3;
	return 1;
}

/* ---- reading and writing a setting ---- */

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

/* A setting's file: no symlink followed, no waiting, a regular file
 * (sysfs, procfs and cgroup files are). fd or -errno. */
static int open_setting(const char *path, int flags)
{
	struct stat st;
	int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int lat_sysset_read(const char *path, char *buf, size_t len)
{
	char text[256];
	ssize_t n;
	int fd;

	fd = open_setting(path, O_RDONLY);
	if (fd < 0)
		return fd;
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

	fd = open_setting(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fd;
	if (write(fd, value, len) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}
