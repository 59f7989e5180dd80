// SPDX-License-Identifier: MIT
/*
 * Saved kernel settings: read and written whole, saved before the first
 * write, journaled (the journal and its lock: sysset.h), restored on every
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
#include "system/sysset.h"

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

/* ---- the journal (sysset.h) ---- */

#define MAX_LINES	64	/* lines of one journal: LAT_SYSSET_MAX and more */

static int lock_fd = -1, jfd = -1;
static char jpath[PATH_MAX];

const char *lat_journal_dir(void)
{
	const char *d = getenv("LATCTL_STATE_DIR");

	return d && *d ? d : "/run/latctl";
}

/* The directory, made if create; it must be ours and written by us alone. */
static int open_dir(int create)
{
	const char *dir = lat_journal_dir();
	struct stat st;

	if (create && mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		fprintf(stderr, "latctl: %s is not latctl's state directory (a directory of uid %d, written by it alone); remove it\n",
			dir, (int)geteuid());
		return -EPERM;
	}
	snprintf(jpath, sizeof(jpath), "%s/journal", dir);
	return 0;
}

static int open_lock(int create)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/lock", lat_journal_dir());
	lock_fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), 0600);
	return lock_fd < 0 ? -errno : 0;
}

static void close_lock(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}

/* The journal's first max lines into line[]; their count. */
static int read_lines(char line[][PATH_MAX + 80], int max)
{
	FILE *f = fopen(jpath, "re");
	int n = 0;

	while (f && n < max && fgets(line[n], PATH_MAX + 80, f)) {
		size_t k = strcspn(line[n], "\n");

		if (line[n][k] != '\n')
			continue;	/* torn: its change was not made (synced first) */
		line[n++][k] = '\0';
	}
	if (f)
		fclose(f);
	return n;
}

/* Undo one line ("set PATH OLD", "rmdir PATH"); what was done into said. */
static int undo_line(const char *l, char *said, size_t len)
{
	char path[PATH_MAX], old[80], now[80] = "?";
	int ret;

	if (sscanf(l, "set\t%4095[^\t]\t%79[^\n]", path, old) == 2) {
		lat_sysset_read(path, now, sizeof(now));
		ret = strcmp(now, old) ? lat_sysset_put(path, old) : 0;
		snprintf(said, len, "%s %s -> %s%s", path, now, old, ret ? " FAILED" : "");
		return ret;
	}
	if (sscanf(l, "rmdir\t%4095[^\n]", path) == 1) {
		ret = rmdir(path) && errno != ENOENT ? -errno : 0;
		snprintf(said, len, "removed %s%s", path, ret ? " FAILED" : "");
		return ret;
	}
	said[0] = '\0';
	return 0;
}

/* With the lock held: put back what the journal holds, newest first. */
static int recover_locked(int quiet)
{
	static char line[MAX_LINES][PATH_MAX + 80];
	char said[PATH_MAX + 200], all[2048] = "";
	int n = read_lines(line, MAX_LINES), i, ret = 0, first = 0;

	if (n == 0) {
		if (!quiet)
			fprintf(stderr, "latctl: restore: no latctl run left a setting changed\n");
		unlink(jpath);
		return 0;
	}
	for (i = n; i-- > 1;) {
		ret = undo_line(line[i], said, sizeof(said));
		first = first ? first : ret;
		if (said[0] && strlen(all) + strlen(said) + 3 < sizeof(all))
			snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", all[0] ? "; " : "", said);
	}
	fprintf(stderr, "latctl: a latctl run that died (pid %s) left settings changed; put back: %s\n",
		strncmp(line[0], "run ", 4) ? "unknown" : line[0] + 4, all[0] ? all : "nothing to do");
	if (first)
		fprintf(stderr, "latctl: some could not be put back: the journal %s stays; set them by hand\n",
			jpath);
	else
		unlink(jpath);
	return first ? first : 1;
}

/* Which run holds the lock, from its journal's first line. */
static void holder(char *buf, size_t len)
{
	char l[1][PATH_MAX + 80];

	if (read_lines(l, 1) > 0 && !strncmp(l[0], "run ", 4))
		snprintf(buf, len, "pid %s", l[0] + 4);
	else
		snprintf(buf, len, "one that has not started its journal yet");
}

static int lock_waiting(void)
{
	char who[PATH_MAX + 80];

	if (!flock(lock_fd, LOCK_EX | LOCK_NB))
		return 0;
	if (errno != EWOULDBLOCK)
		return -errno;
	holder(who, sizeof(who));
	fprintf(stderr, "latctl: waiting for another latctl run (%s) to put back the settings it changed\n",
		who);
	return flock(lock_fd, LOCK_EX) ? -errno : 0;
}

/* "run PID COMMAND LINE\n" (from /proc/self/cmdline, cut at 1 KiB) */
static int write_header(void)
{
	char l[1100];
	int n = snprintf(l, sizeof(l), "run %d ", (int)getpid()), fd, i;
	ssize_t got = -1;

	fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		got = read(fd, l + n, 1024);
	if (fd >= 0)
		close(fd);
	n += got > 0 ? (int)got : 0;
	while (n > 0 && l[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (l[i] == '\0' || l[i] == '\n' || l[i] == '\t')
			l[i] = ' ';
	l[n++] = '\n';
	return write(jfd, l, (size_t)n) == n && !fdatasync(jfd) ? 0 : -EIO;
}

int lat_journal_begin(void)
{
	int ret;

	if (jfd >= 0)
		return 0;
	ret = open_dir(1);
	ret = ret ? ret : open_lock(1);
	ret = ret ? ret : lock_waiting();
	if (!ret && recover_locked(1) < 0)
		ret = -EIO;
	if (!ret) {
		jfd = open(jpath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
		ret = jfd < 0 ? -errno : write_header();
	}
	if (ret) {
		fprintf(stderr, "latctl: cannot keep the journal of changed settings in %s: %s\n",
			lat_journal_dir(), strerror(-ret));
		lat_journal_end(0);
		return ret;
	}
	lat_cleanup_install();
	lat_cleanup_final(lat_journal_end_signal);	/* after every undo action */
	return 0;
}

static int append(const char *kind, const char *path, const char *value)
{
	char l[PATH_MAX + 96];
	int n = snprintf(l, sizeof(l), "%s\t%s%s%s\n", kind, path, value ? "\t" : "", value ? value : "");

	if (jfd < 0 || n >= (int)sizeof(l) || write(jfd, l, (size_t)n) != n || fdatasync(jfd)) {
		fprintf(stderr, "latctl: cannot write the journal %s: %s\n", jpath,
			strerror(errno ? errno : EIO));
		return -EIO;
	}
	return 0;
}

/* The fault suite's kill point (tests/fault/journal.t): SIGKILL between a
 * synced journal line and its change, with LATCTL_TEST_KILL=journaled. */
static void test_kill_point(void)
{
	const char *k = getenv("LATCTL_TEST_KILL");

	if (k && !strcmp(k, "journaled"))
		raise(SIGKILL);
}

int lat_journal_set(const char *path, const char *old)
{
	int ret = append("set", path, old);

	if (!ret)
		test_kill_point();
	return ret;
}

int lat_journal_rmdir(const char *path)
{
	return append("rmdir", path, NULL);
}

void lat_journal_end(int kept)
{
	lat_cleanup_final(NULL);
	if (jfd >= 0) {
		close(jfd);
		if (!kept)
			unlink(jpath);
	}
	jfd = -1;
	close_lock();
}

void lat_journal_end_signal(void)
{
	if (jfd < 0)
		return;
	unlink(jpath);
	close(jfd);
	close(lock_fd);
	jfd = lock_fd = -1;
}

int lat_journal_recover(int quiet)
{
	int ret;

	if (geteuid() != 0 && !getenv("LATCTL_STATE_DIR"))
		return 0;		/* only root changes settings */
	ret = open_dir(0);
	if (!ret && access(jpath, F_OK))
		ret = -ENOENT;
	if (ret == -ENOENT) {
		if (!quiet)
			fprintf(stderr, "latctl: restore: no latctl run left a setting changed\n");
		return 0;
	}
	ret = ret ? ret : open_lock(1);
	if (!ret && flock(lock_fd, LOCK_EX | LOCK_NB))
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
	if (!ret)
		ret = recover_locked(quiet);
	if (ret == -EBUSY && !quiet)
		fprintf(stderr, "latctl: restore: a latctl run is changing settings now; it puts them back itself\n");
	close_lock();
	return ret == -EBUSY ? 0 : ret;
}

int lat_journal_describe(char *buf, size_t len)
{
	static char line[MAX_LINES][PATH_MAX + 80];
	int n, i, busy;
	size_t k;

	buf[0] = '\0';
	if ((geteuid() != 0 && !getenv("LATCTL_STATE_DIR")) || open_dir(0) || access(jpath, F_OK))
		return 0;
	busy = open_lock(0) || flock(lock_fd, LOCK_EX | LOCK_NB);
	close_lock();
	n = read_lines(line, MAX_LINES);
	k = (size_t)snprintf(buf, len, "%s: %s", n && !strncmp(line[0], "run ", 4) ? line[0] + 4 : "?",
			     n > 1 ? "" : "nothing changed yet");
	for (i = 1; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i > 1 ? "; " : "", line[i]);
	for (k = 0; buf[k]; k++)
		if (buf[k] == '\t')
			buf[k] = ' ';
	return busy ? 1 : 2;
}

/* ---- saved settings ---- */

struct saved {
	char path[PATH_MAX];
	char value[64];
};

static struct saved saved[LAT_SYSSET_MAX];
static volatile int n_saved;

static void restore_on_signal(void)
{
	int i;

	for (i = n_saved; i-- > 0;)
		lat_sysset_put(saved[i].path, saved[i].value);
}	/* then the journal's end (cleanup's final action) */

static int is_saved(const char *path)
{
	int i;

	for (i = 0; i < n_saved; i++)
		if (!strcmp(saved[i].path, path))
			return 1;
	return 0;
}

/* Remember path's current value, journaled (the journal, sysset.h) before any write;
 * the first save arms the signal restore. A path this process cannot
 * write is not saved: -errno, nothing changed, nothing to restore. */
static int save(const char *path)
{
	struct saved *s = &saved[n_saved];
	int ret;

	if (is_saved(path))
		return 0;
	if (n_saved == LAT_SYSSET_MAX)
		return -ENOSPC;
	if (access(path, W_OK))
		return -errno;
	ret = lat_journal_begin();	/* the lock first: never another run's value */
	ret = ret ? ret : lat_sysset_read(path, s->value, sizeof(s->value));
	ret = ret ? ret : lat_journal_set(path, s->value);
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

int lat_sysset_change(const char *path, const char *value)
{
	int ret = save(path);

	return ret ? ret : lat_sysset_put(path, value);
}

int lat_sysset_write(const char *what, const char *path, const char *value)
{
	int ret = lat_sysset_change(path, value);

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
	lat_journal_end(first != 0);	/* a failed one stays journaled for the next run */
	return first;
}
