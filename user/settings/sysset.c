// SPDX-License-Identifier: MIT
/*
 * Saved kernel settings: read and written whole, saved before the first
 * write, journaled (the journal and its lock: journal.h), restored on every
 * exit path, also from a signal handler.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "settings/journal.h"
#include "settings/setting.h"
#include "settings/sysset.h"

/* ---- saved settings ---- */

struct saved {
	char key[64];		/* journal.h's table */
	char path[PATH_MAX];
	char value[64];		/* before the run */
	char set[64];		/* what the run wrote last */
};

static struct saved saved[LAT_SYSSET_MAX];
static volatile int n_saved;

static void restore_on_signal(void)
{
	int i;

	for (i = n_saved; i-- > 0;)
		lat_sysset_put(saved[i].path, saved[i].value);
}	/* then the journal's end (cleanup's final action) */

static struct saved *find_saved(const char *key)
{
	int i;

	for (i = 0; i < n_saved; i++)
		if (!strcmp(saved[i].key, key))
			return &saved[i];
	return NULL;
}

/* Remember key's current value, journaled (journal.h) before any write;
 * the first save arms the signal restore. A setting this process cannot
 * write is not saved: -errno, nothing changed, nothing to restore. */
static struct saved *save(const char *key, int *err)
{
	struct saved *s = find_saved(key);
	int ret;

	*err = 0;
	if (s)
		return s;
	s = &saved[n_saved];
	*err = n_saved == LAT_SYSSET_MAX ? -ENOSPC : lat_setting_path(key, s->path, sizeof(s->path));
	if (!*err && access(s->path, W_OK))
		*err = -errno;
	ret = *err ? *err : lat_journal_begin();	/* the lock first: never another run's value */
	ret = ret ? ret : lat_sysset_read(s->path, s->value, sizeof(s->value));
	ret = ret ? ret : lat_journal_set(key, s->value);
	*err = ret;
	if (ret)
		return NULL;
	snprintf(s->key, sizeof(s->key), "%s", key);
	if (!n_saved) {
		lat_cleanup_install();
		lat_cleanup_add(restore_on_signal);
	}
	n_saved++;		/* saved first: a signal during the write restores */
	return s;
}

int lat_sysset_change(const char *key, const char *value)
{
	int ret;
	struct saved *s = save(key, &ret);

	if (!s)
		return ret;
	snprintf(s->set, sizeof(s->set), "%s", value);
	return lat_sysset_put(s->path, value);
}

int lat_sysset_write(const char *what, const char *key, const char *value)
{
	int ret = lat_sysset_change(key, value);
	char path[PATH_MAX];

	if (ret && ret != -LAT_ENOJOURNAL) {
		if (lat_setting_path(key, path, sizeof(path)))
			snprintf(path, sizeof(path), "%s", key);
		fprintf(stderr, "latctl: %s: cannot write %s: %s\n", what, path, strerror(-ret));
	}
	return ret;
}

/* One line if someone else changed s while the run had it. */
static void changed_meanwhile(const struct saved *s)
{
	char now[64];

	if (!s->set[0] || lat_sysset_read(s->path, now, sizeof(now)) || !strcmp(now, s->set))
		return;
	fprintf(stderr, "latctl: %s was changed to '%s' by someone else during the run (latctl set '%s'); putting back '%s' as it was before the run\n",
		s->path, now, s->set, s->value);
}

int lat_sysset_restore(void)
{
	int ret, first = 0;

	while (n_saved > 0) {
		struct saved *s = &saved[n_saved - 1];

		changed_meanwhile(s);
		ret = lat_sysset_put(s->path, s->value);
		if (ret)
			fprintf(stderr, "latctl: could not restore %s to '%s': %s; set it by hand\n",
				s->path, s->value, strerror(-ret));
		if (ret && !first)
			first = ret;
		n_saved--;
	}
	lat_cleanup_remove(restore_on_signal);
	lat_journal_end(first != 0);	/* a failed one stays journaled for the next run */
	return first;
}
