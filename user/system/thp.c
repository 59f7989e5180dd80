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
#include "settings/journal.h"
#include "settings/setting.h"
#include "settings/sysset.h"
#include "system/thp.h"

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

/* Through sysset (saved, journaled, restored on every exit): the journal's
 * lock (sysset.h) keeps two runs from saving each other's value. */
int lat_thp_set(const char *value)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/enabled", lat_thp_dir());
	ret = lat_sysset_change("thp", value);
	if (ret) {
		if (ret != -LAT_ENOJOURNAL)	/* the journal said its own line */
			thp_error(ret, path, value);
		lat_sysset_restore();
	}
	return ret;
}

int lat_thp_restore(void)
{
	return lat_sysset_restore();
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
