// SPDX-License-Identifier: MIT
/* Reading a JSON file whole, bounded: regular files and stdin only. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file/readfile.h"

/* "a FIFO", "a directory", ...: what a path that is no regular file is. */
static const char *kind_of(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISDIR(m) ? "a directory" :
	       S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* The descriptor to read: path opened without waiting for a writer, or
 * stdin for "-"; -errno after one line on stderr. */
static int open_input(const char *path, struct stat *st)
{
	int stdin_ = !strcmp(path, "-");
	int fd = stdin_ ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int err;

	if (fd < 0 || fstat(fd, st)) {
		err = errno;
		fprintf(stderr, "latctl: cannot read %s: %s\n", stdin_ ? "stdin" : path, strerror(err));
		if (fd >= 0)
			close(fd);
		return -err;
	}
	if (!stdin_ && !S_ISREG(st->st_mode)) {
		fprintf(stderr, "latctl: %s is %s, not a result file; give a file (or - for stdin)\n",
			path, kind_of(st->st_mode));
		close(fd);
		return -EINVAL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* Grow *buf to hold at least need bytes; 0 or -ENOMEM (buf kept). */
static int grow(char **buf, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : 1 << 16;
	char *nb;

	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	if (ncap > LAT_READ_MAX_BYTES + 2 && need <= LAT_READ_MAX_BYTES + 2)
		ncap = LAT_READ_MAX_BYTES + 2;	/* stdin: never twice the bound */
	if (ncap == *cap)
		return 0;
	nb = realloc(*buf, ncap);
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap = ncap;
	return 0;
}

/* Read fd to its end, at most LAT_READ_MAX_BYTES + 1 bytes. 0 or -errno. */
static int read_all(int fd, const struct stat *st, char **text, size_t *len)
{
	size_t cap = 0, n = 0, want;
	char *buf = NULL;
	ssize_t got;
	int ret;

	want = S_ISREG(st->st_mode) && (uint64_t)st->st_size < LAT_READ_MAX_BYTES ? (size_t)st->st_size : 0;
	for (;;) {
		ret = grow(&buf, &cap, (want > n ? want : n + (1 << 16)) + 1);
		if (ret)
			break;
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		ret = got < 0 ? -errno : 0;
		if (got <= 0)
			break;
		n += (size_t)got;
		if (n > LAT_READ_MAX_BYTES) {
			ret = -EFBIG;
			break;
		}
	}
	if (ret) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int lat_read_file(const char *path, char **text, size_t *len)
{
	const char *name = strcmp(path, "-") ? path : "stdin";
	struct stat st;
	int fd = open_input(path, &st), ret;

	if (fd < 0)
		return fd;
	ret = read_all(fd, &st, text, len);
	close(fd);
	if (ret == -EFBIG)
		fprintf(stderr, "latctl: %s is larger than %zu MiB, more than any result latctl writes; not read\n",
			name, LAT_READ_MAX_BYTES >> 20);
	else if (ret)
		fprintf(stderr, "latctl: cannot read %s: %s\n", name, strerror(-ret));
	else if (memchr(*text, '\0', *len)) {
		fprintf(stderr, "latctl: %s is a binary file (it holds a NUL byte), not a latctl result\n",
			name);
		free(*text);
		ret = -EINVAL;
	}
	return ret;
}

void lat_json_shape(const char *text, size_t len, size_t max_items, struct lat_json_shape *s)
{
	size_t i;
	int esc = 0;

	memset(s, 0, sizeof(*s));
	s->items = 1;
	for (i = 0; i < len && !(max_items && s->items > max_items); i++) {
		char ch = text[i];

		if (s->in_str) {
			if (esc)
				esc = 0;
			else if (ch == '\\')
				esc = 1;
			else if (ch == '"')
				s->in_str = 0;
		} else if (ch == '"') {
			s->in_str = 1;
		} else if (ch == ',' || ch == '[' || ch == '{') {
			s->items++;
			s->depth += ch != ',';
		} else if (ch == '}' || ch == ']') {
			s->depth--;
		}
	}
}

/* Values read so far by this process: all its files within LAT_READ_MAX_TOTAL. */
static size_t items_read;

int lat_read_count_items(const char *text, size_t len)
{
	struct lat_json_shape s;

	lat_json_shape(text, len, LAT_READ_MAX_ITEMS, &s);
	if (s.items > LAT_READ_MAX_ITEMS)
		return -E2BIG;
	if (items_read + s.items > LAT_READ_MAX_TOTAL)
		return -ENOSPC;
	items_read += s.items;
	return 0;
}
