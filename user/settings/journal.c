// SPDX-License-Identifier: MIT
/*
 * The journal of changed settings and its lock (journal.h): a fixed table
 * of settings, a state directory opened once by descriptor, bounded reads.
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
#include "lib/fmt.h"
#include "file/safedir.h"
#include "settings/journal.h"
#include "settings/setting.h"

#define DEFAULT_DIR	"/run/latctl"

/* ---- the state directory, by descriptor ---- */

static int dir_fd = -1, lock_fd = -1, jfd = -1;
static char dir_why[256];

const char *lat_journal_dir(void)
{
	const char *d = getenv("LATCTL_STATE_DIR");

	return d && *d ? d : DEFAULT_DIR;
}

/* The state directory into dir_fd; one line on failure if say. */
static int open_dir(int create, int say)
{
	const char *dir = lat_journal_dir();
	int fd;

	if (dir_fd >= 0)
		return 0;
	fd = lat_safedir_open(dir, create);
	if (fd >= 0) {
		dir_fd = fd;
		return 0;
	}
	if (fd == -EPERM || fd == -ENOTDIR || fd == -EINVAL)
		snprintf(dir_why, sizeof(dir_why), "%s is not latctl's state directory: an absolute path, "
			 "a directory of uid %d with mode 0700, each parent root's or its own and written by "
			 "nobody else (or sticky), no symlink on the way", dir, (int)geteuid());
	else
		snprintf(dir_why, sizeof(dir_why), "cannot keep the journal of changed settings in %s: %s; "
			 "set LATCTL_STATE_DIR to a root-only directory on a writable file system",
			 dir, strerror(-fd));
	if (say)
		fprintf(stderr, "latctl: %s\n", dir_why);
	return fd;
}

static void close_dir(void)
{
	if (dir_fd >= 0)
		close(dir_fd);
	dir_fd = -1;
}

/* ---- the lock ---- */

/* Where the lock lives: /run/latctl for root on the real settings, so that
 * every state directory shares it; else the state directory. */
static int lock_dir(void)
{
	const char *s = getenv("LATCTL_STATE_DIR"), *fake = getenv("LATCTL_SYSFS_THP");
	int fd;

	if (geteuid() != 0 || (fake && *fake) || !s || !*s || !strcmp(s, DEFAULT_DIR))
		return dup(dir_fd);
	fd = lat_safedir_open(DEFAULT_DIR, 1);
	return fd >= 0 ? fd : dup(dir_fd);	/* no /run: the state directory's */
}

static int open_lock(void)
{
	struct stat st;
	int at = lock_dir(), err;

	if (at < 0)
		return -errno;
	lock_fd = openat(at, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	err = errno;
	close(at);
	if (lock_fd >= 0 && (fstat(lock_fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
		close(lock_fd);
		lock_fd = -1;
		err = EPERM;
	}
	if (lock_fd < 0)
		fprintf(stderr, "latctl: the lock of changed settings (lock beside the journal in %s) is not a regular file of uid %d: %s; remove it\n",
			lat_journal_dir(), (int)geteuid(), strerror(err == ELOOP ? EPERM : err));
	return lock_fd < 0 ? -LAT_ENOJOURNAL : 0;
}

static void close_lock(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}

/* "pid PID COMMAND LINE" (from /proc/self/cmdline, cut at 1 KiB), no newline. */
static int run_line(char *l, size_t len)
{
	int n = snprintf(l, len, "pid %d ", (int)getpid()), fd, i;
	ssize_t got = -1;

	fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		got = read(fd, l + n, len - (size_t)n - 2 < 1024 ? len - (size_t)n - 2 : 1024);
	if (fd >= 0)
		close(fd);
	n += got > 0 ? (int)got : 0;
	while (n > 0 && l[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (l[i] == '\0' || l[i] == '\n' || l[i] == '\t')
			l[i] = ' ';
	l[n] = '\0';
	lat_printable(l);
	return n;
}

/* Which run holds the lock: the line it wrote there. */
static void holder(char *buf, size_t len)
{
	ssize_t n = pread(lock_fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	lat_printable(buf);
	if (strncmp(buf, "pid ", 4))
		snprintf(buf, len, "one that has not said who it is yet");
}

static int lock_waiting(void)
{
	char who[LAT_JOURNAL_MAX_LINE];
	int n;

	if (flock(lock_fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK)
			return -errno;
		holder(who, sizeof(who));
		fprintf(stderr, "latctl: waiting for another latctl run (%s) to put back the settings it changed\n",
			who);
		if (flock(lock_fd, LOCK_EX))
			return -errno;
	}
	n = run_line(who, sizeof(who) - 1);
	who[n++] = '\n';
	if (ftruncate(lock_fd, 0) || pwrite(lock_fd, who, (size_t)n, 0) != n)
		return -errno;
	return 0;
}

/* ---- reading a journal, bounded and checked ---- */

struct jline {
	char kind[8];		/* "set", "rmdir" */
	char key[64];
	char value[64];
};

struct journal {
	char run[LAT_JOURNAL_MAX_LINE];	/* "PID COMMAND LINE" */
	struct jline line[LAT_JOURNAL_MAX_LINES];
	int n;
	int fake;		/* "sysfs fake": THP keys name $LATCTL_SYSFS_THP */
	char why[LAT_JOURNAL_MAX_LINE + 128];	/* refused: why, naming the line */
};

/* One line of the journal's body into *j, or why not. */
static int parse_line(char *l, struct jline *j)
{
	char *tab = strchr(l, '\t'), *tab2;

	if (!tab)
		return -EINVAL;
	*tab++ = '\0';
	tab2 = strchr(tab, '\t');
	if (tab2)
		*tab2++ = '\0';
	if (strlen(l) >= sizeof(j->kind) || strlen(tab) >= sizeof(j->key) ||
	    (tab2 && strlen(tab2) >= sizeof(j->value)))
		return -EINVAL;
	snprintf(j->kind, sizeof(j->kind), "%s", l);
	snprintf(j->key, sizeof(j->key), "%s", tab);
	snprintf(j->value, sizeof(j->value), "%s", tab2 ? tab2 : "");
	if (!strcmp(l, "set") && tab2)
		return lat_setting_value_ok(tab, tab2) ? 0 : -EINVAL;
	if (!strcmp(l, "rmdir") && !tab2)
		return lat_setting_is_dir(tab) ? 0 : -EINVAL;
	return -EINVAL;
}

static int refuse(struct journal *j, int lineno, const char *text, const char *why)
{
	char shown[96];

	snprintf(shown, sizeof(shown), "%.80s%s", text, strlen(text) > 80 ? "..." : "");
	lat_printable(shown);
	if (lineno)
		snprintf(j->why, sizeof(j->why), "line %d ('%s') %s", lineno, shown, why);
	else
		snprintf(j->why, sizeof(j->why), "%s", why);
	return -EINVAL;
}

/* Lines of text (len bytes) into *j; a last line without its newline was
 * torn by a kill before its change was made, and is left out. */
static int parse_journal(char *text, size_t len, struct journal *j)
{
	char *l = text, *nl;
	int lineno = 0;

	text[len] = '\0';
	if (memchr(text, '\0', len))
		return refuse(j, 0, "", "holds a NUL byte");
	for (; (nl = strchr(l, '\n')); l = nl + 1) {
		*nl = '\0';
		if (++lineno > LAT_JOURNAL_MAX_LINES + 1)
			return refuse(j, 0, "", "has more lines than latctl ever writes");
		if (strlen(l) >= LAT_JOURNAL_MAX_LINE)
			return refuse(j, lineno, l, "is longer than latctl ever writes");
		if (lineno == 1) {
			if (strncmp(l, "run ", 4))
				return refuse(j, 1, l, "is not \"run PID COMMAND\"");
			snprintf(j->run, sizeof(j->run), "%s", l + 4);
			lat_printable(j->run);
			continue;
		}
		if (lineno == 2 && !strcmp(l, "sysfs\tfake")) {
			j->fake = 1;
			continue;
		}
		if (parse_line(l, &j->line[j->n]))
			return refuse(j, lineno, l, "is not a setting latctl changes");
		j->n++;
	}
	return 0;
}

/* The journal, opened by descriptor in the state directory without
 * waiting, checked, read whole. 0 read (j->n lines), -ENOENT none,
 * -EINVAL refused (j->why), other -errno. */
static int read_journal(struct journal *j)
{
	static char text[LAT_JOURNAL_MAX_BYTES + 1];
	struct stat st;
	ssize_t n;
	int fd;

	memset(j, 0, sizeof(*j));
	fd = openat(dir_fd, "journal", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		return refuse(j, 0, "", "is a symlink");
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022) ||
	    st.st_nlink != 1) {
		close(fd);
		return refuse(j, 0, "", "is not a regular file of latctl's own, written by it alone");
	}
	if (st.st_size > LAT_JOURNAL_MAX_BYTES) {
		close(fd);
		return refuse(j, 0, "", "is larger than latctl ever writes");
	}
	n = read(fd, text, LAT_JOURNAL_MAX_BYTES);
	close(fd);
	if (n < 0)
		return -EIO;
	return parse_journal(text, (size_t)n, j);
}

/* Set aside a refused journal as journal.refused; one line says so. */
static int set_aside(const struct journal *j)
{
	int ret = renameat(dir_fd, "journal", dir_fd, "journal.refused") ? -errno : 0;

	fprintf(stderr, "latctl: the journal %s/journal is refused: it %s; nothing in it was put back%s%s%s\n",
		lat_journal_dir(), j->why, ret ? "" : "; kept as ", ret ? "" : lat_journal_dir(),
		ret ? "" : "/journal.refused for a person to read");
	return -EINVAL;
}

/* ---- putting back ---- */

/* The cgroup key's directory removed, by descriptor of its parent. */
static int remove_cgroup(const char *key)
{
	const char *root = lat_cgroup2_root();
	char name[32];
	int fd, ret;

	if (!root || root[0] != '/')
		return -ENOENT;
	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(name, sizeof(name), "latctl-%ld", lat_setting_is_dir(key));
	ret = unlinkat(fd, name, AT_REMOVEDIR) && errno != ENOENT ? -errno : 0;
	close(fd);
	return ret;
}

/* A fake sysfs ($LATCTL_SYSFS_THP) now. */
static int fake_sysfs(void)
{
	const char *f = getenv("LATCTL_SYSFS_THP");

	return f && *f;
}

/* Undo one line; what was done into said. A THP key journaled against a
 * fake sysfs is put back only there, a real one only on the real one. */
static int undo_line(const struct jline *l, int fake, char *said, size_t len)
{
	char path[PATH_MAX], now[80] = "?";
	int ret = lat_setting_path(l->key, path, sizeof(path));

	if (!ret && !strncmp(l->key, "thp", 3) && fake != fake_sysfs()) {
		snprintf(said, len, "%s FAILED (journaled on %s sysfs, this command has %s: %s)", l->key,
			 fake ? "a fake" : "the real", fake ? "the real one" : "a fake one",
			 fake ? "set LATCTL_SYSFS_THP as the run had it" : "unset LATCTL_SYSFS_THP");
		return -EXDEV;
	}
	if (ret) {
		snprintf(said, len, "%s FAILED (%s)", l->key, strerror(-ret));
		return ret;
	}
	if (!strcmp(l->kind, "rmdir")) {
		ret = remove_cgroup(l->key);
		snprintf(said, len, "removed %s%s", path, ret ? " FAILED" : "");
		return ret;
	}
	lat_sysset_read(path, now, sizeof(now));
	ret = strcmp(now, l->value) ? lat_sysset_put(path, l->value) : 0;
	snprintf(said, len, "%s %s -> %s%s", path, now, l->value, ret ? " FAILED" : "");
	return ret;
}

/* With the lock held: put back what the journal holds, newest first. */
static int recover_locked(int quiet)
{
	static struct journal j;
	char said[PATH_MAX + 200], all[2048] = "";
	int ret = read_journal(&j), i, first = 0;

	if (ret == -EINVAL)
		return set_aside(&j);
	if (ret == -ENOENT || (!ret && !j.n && !j.run[0])) {
		if (!quiet)
			fprintf(stderr, "latctl: restore: no latctl run left a setting changed\n");
		unlinkat(dir_fd, "journal", 0);
		return 0;
	}
	if (ret)
		return ret;
	for (i = j.n; i-- > 0;) {
		ret = undo_line(&j.line[i], j.fake, said, sizeof(said));
		first = first ? first : ret;
		if (strlen(all) + strlen(said) + 3 < sizeof(all))
			snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", all[0] ? "; " : "", said);
	}
	fprintf(stderr, "latctl: a latctl run that died (pid %s) left settings changed; put back: %s\n",
		j.run[0] ? j.run : "unknown", all[0] ? all : "nothing to do");
	if (first)
		fprintf(stderr, "latctl: some could not be put back: the journal %s/journal stays; set them by hand\n",
			lat_journal_dir());
	else
		unlinkat(dir_fd, "journal", 0);
	return first ? first : 1;
}

/* ---- writing the journal ---- */

static int write_header(void)
{
	char r[LAT_JOURNAL_MAX_LINE], l[LAT_JOURNAL_MAX_LINE + 8];
	int n;

	run_line(r, sizeof(r) - 1);
	n = snprintf(l, sizeof(l), "run %s\n%s", r + 4,	/* "run PID COMMAND" */
		     fake_sysfs() ? "sysfs\tfake\n" : "");
	return write(jfd, l, (size_t)n) == n && !fdatasync(jfd) ? 0 : -EIO;
}

/* The lock taken and a dead run's journal put back. */
static int take_over(void)
{
	int ret = open_dir(1, 1);

	ret = ret ? -LAT_ENOJOURNAL : open_lock();
	ret = ret ? ret : lock_waiting();
	if (!ret && recover_locked(1) < 0)
		ret = -EIO;
	return ret;
}

int lat_journal_begin(void)
{
	int ret;

	if (jfd >= 0)
		return 0;
	ret = take_over();
	if (!ret) {
		jfd = openat(dir_fd, "journal", O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
			     0600);
		ret = jfd < 0 ? -errno : write_header();
	}
	if (ret) {
		if (ret != -LAT_ENOJOURNAL)
			fprintf(stderr, "latctl: cannot keep the journal of changed settings in %s: %s\n",
				lat_journal_dir(), strerror(-ret));
		lat_journal_end(0);
		return -LAT_ENOJOURNAL;
	}
	lat_cleanup_install();
	lat_cleanup_final(lat_journal_end_signal);	/* after every undo action */
	return 0;
}

static int append(const char *kind, const char *key, const char *value)
{
	char l[256];
	int n = snprintf(l, sizeof(l), "%s\t%s%s%s\n", kind, key, value ? "\t" : "", value ? value : "");

	if ((value && !lat_setting_value_ok(key, value)) || (!value && !lat_setting_is_dir(key))) {
		fprintf(stderr, "latctl: %s %s is not a setting latctl journals; not changed\n", key,
			value ? value : "");
		return -EINVAL;
	}
	if (jfd < 0 || n >= (int)sizeof(l) || write(jfd, l, (size_t)n) != n || fdatasync(jfd)) {
		fprintf(stderr, "latctl: cannot write the journal %s/journal: %s\n", lat_journal_dir(),
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

int lat_journal_set(const char *key, const char *old)
{
	int ret = append("set", key, old);

	if (!ret)
		test_kill_point();
	return ret;
}

int lat_journal_rmdir(const char *key)
{
	return append("rmdir", key, NULL);
}

void lat_journal_end(int kept)
{
	lat_cleanup_final(NULL);
	if (jfd >= 0) {
		close(jfd);
		if (!kept)
			unlinkat(dir_fd, "journal", 0);
	}
	jfd = -1;
	close_lock();
	close_dir();
}

void lat_journal_end_signal(void)
{
	if (jfd < 0)
		return;
	unlinkat(dir_fd, "journal", 0);
	close(jfd);
	close(lock_fd);
	jfd = lock_fd = -1;
}

/* ---- recovery and doctor ---- */

/* Only root changes settings; a user with $LATCTL_STATE_DIR has a fake. */
static int has_journal(void)
{
	return geteuid() == 0 || getenv("LATCTL_STATE_DIR");
}

int lat_journal_recover(int quiet)
{
	int ret;

	if (!has_journal())
		return 0;
	ret = open_dir(0, 0);
	if (!ret && faccessat(dir_fd, "journal", F_OK, AT_SYMLINK_NOFOLLOW))
		ret = -ENOENT;
	if (ret == -ENOENT) {
		if (!quiet)
			fprintf(stderr, "latctl: restore: no latctl run left a setting changed\n");
		close_dir();
		return 0;
	}
	if (ret && !quiet)
		fprintf(stderr, "latctl: %s\n", dir_why);
	ret = ret ? ret : open_lock();
	if (!ret && flock(lock_fd, LOCK_EX | LOCK_NB))
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
	if (!ret)
		ret = recover_locked(quiet);
	if (ret == -EBUSY && !quiet)
		fprintf(stderr, "latctl: restore: a latctl run is changing settings now; it puts them back itself\n");
	close_lock();
	close_dir();
	return ret == -EBUSY ? 0 : ret;
}

/* The journal's lines as "RUN: set PATH OLD; ..." into buf. */
static void describe_lines(const struct journal *j, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t k;
	int i;

	k = (size_t)snprintf(buf, len, "%s: %s", j->run[0] ? j->run : "?", j->n ? "" : "nothing changed yet");
	for (i = 0; i < j->n && k < len; i++) {
		if (lat_setting_path(j->line[i].key, path, sizeof(path)))
			snprintf(path, sizeof(path), "%s", j->line[i].key);
		k += (size_t)snprintf(buf + k, len - k, "%s%s %s%s%s", i ? "; " : "", j->line[i].kind, path,
				      j->line[i].value[0] ? " " : "", j->line[i].value);
	}
}

int lat_journal_describe(char *buf, size_t len)
{
	static struct journal j;
	int ret, busy;

	buf[0] = '\0';
	if (!has_journal() || open_dir(0, 0))
		return 0;
	ret = read_journal(&j);
	if (ret == -ENOENT && !faccessat(dir_fd, "journal.refused", F_OK, AT_SYMLINK_NOFOLLOW)) {
		snprintf(j.why, sizeof(j.why), "was kept as journal.refused");
		ret = -EINVAL;
	}
	if (ret == -EINVAL)
		snprintf(buf, len, "%s/journal is refused: it %s", lat_journal_dir(), j.why);
	else if (!ret)
		describe_lines(&j, buf, len);
	busy = !ret && (open_lock() || flock(lock_fd, LOCK_EX | LOCK_NB));
	close_lock();
	close_dir();
	return ret == -EINVAL ? 3 : ret ? 0 : busy ? 1 : 2;
}
