// SPDX-License-Identifier: MIT
/*
 * Unit tests of the bounded reader (user/file/readfile.c): a file read whole
 * through every size of its buffer; allocations that fail at each growth
 * (the realloc below fails the Nth call) give -ENOMEM and no read past the
 * buffer; FIFOs and devices are refused at once; an over-large file and a
 * document of too many values are refused; a NUL byte is "binary".
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "file/readfile.h"

static int fail_at;		/* the realloc call that fails; 0: none */
static int calls;

extern void *__libc_realloc(void *p, size_t n);

/* Interposed for this program: the fail_at-th call returns NULL. */
void *realloc(void *p, size_t n)
{
	if (++calls == fail_at)
		return NULL;
	return __libc_realloc(p, n);
}

/* A file of len bytes of JSON-ish text in /tmp; its path into path. */
static void make_file(char *path, size_t len)
{
	int fd;
	char *buf = malloc(len);

	strcpy(path, "/tmp/test_readfile.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0 && buf);
	memset(buf, ' ', len);
	buf[0] = '[';
	buf[len - 1] = ']';
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	free(buf);
}

static void whole_file(void **state)
{
	static const size_t sizes[] = { 2, 65535, 65536, 65537, 1 << 20, (1 << 20) + 3 };
	char path[64], *text;
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		make_file(path, sizes[i]);
		assert_int_equal(lat_read_file(path, &text, &len), 0);
		assert_int_equal(len, sizes[i]);
		assert_true(text[0] == '[' && text[len - 1] == ']' && text[len] == '\0');
		free(text);
		unlink(path);
	}
}

/* stdin ("-", a pipe here) has no size to allocate for: the buffer grows
 * as it reads.
 * Each growth in turn fails: -ENOMEM, never a read past the buffer. */
static int read_stdin(const char *path, int fail, char **text, size_t *len)
{
	int p[2], ret;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	if (pid == 0) {			/* the writer: cat path */
		char buf[8192];
		int fd = open(path, O_RDONLY);
		ssize_t n;

		close(p[0]);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (p[0] != 0) {
		dup2(p[0], 0);
		close(p[0]);
	}
	calls = 0;
	fail_at = fail;
	ret = lat_read_file("-", text, len);
	fail_at = 0;
	close(0);
	waitpid(pid, NULL, 0);
	return ret;
}

static void failing_allocations(void **state)
{
	char path[64], *text = NULL;
	size_t len;
	int k, n, saved = dup(0);

	(void)state;
	make_file(path, 600000);
	assert_int_equal(read_stdin(path, 0, &text, &len), 0);
	n = calls;
	print_message("# %d reallocs for 600000 bytes from a pipe\n", n);
	free(text);
	assert_true(n >= 3);
	for (k = 1; k <= n; k++)
		assert_int_equal(read_stdin(path, k, &text, &len), -ENOMEM);
	assert_int_equal(read_stdin(path, n + 1, &text, &len), 0);
	assert_int_equal(len, 600000);
	free(text);
	dup2(saved, 0);
	close(saved);
	unlink(path);
}

static void not_regular(void **state)
{
	char fifo[] = "/tmp/test_readfile.fifo";
	char *text;
	size_t len;

	(void)state;
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(lat_read_file(fifo, &text, &len), -EINVAL);	/* no writer: no wait */
	unlink(fifo);
	assert_int_equal(lat_read_file("/dev/zero", &text, &len), -EINVAL);
	assert_int_equal(lat_read_file("/tmp", &text, &len), -EINVAL);
	assert_int_equal(lat_read_file("/nonexistent/x.json", &text, &len), -ENOENT);
}

static void too_large(void **state)
{
	char path[] = "/tmp/test_readfile.big.XXXXXX";
	int fd = mkstemp(path);
	char *text;
	size_t len;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)LAT_READ_MAX_BYTES + 1), 0);	/* sparse */
	close(fd);
	assert_int_equal(lat_read_file(path, &text, &len), -EFBIG);
	unlink(path);
}

static void binary_and_items(void **state)
{
	char path[] = "/tmp/test_readfile.bin.XXXXXX";
	int fd = mkstemp(path);
	char *text, *many;
	size_t len, i, n = LAT_READ_MAX_ITEMS + 2;

	(void)state;
	assert_int_equal(write(fd, "{\"a\":\0}", 7), 7);
	close(fd);
	assert_int_equal(lat_read_file(path, &text, &len), -EINVAL);
	unlink(path);
	many = malloc(n);
	assert_non_null(many);
	for (i = 0; i < n; i++)
		many[i] = ',';
	assert_int_equal(lat_read_count_items(many, n), -E2BIG);
	assert_int_equal(lat_read_count_items(many, LAT_READ_MAX_ITEMS - 1), 0);
	memcpy(many, "\"", 1);			/* the same commas inside a string */
	many[n - 1] = '"';
	assert_int_equal(lat_read_count_items(many, n), 0);
	free(many);
}

int main(void)
{
	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_file),
		cmocka_unit_test(failing_allocations),
		cmocka_unit_test(not_regular),
		cmocka_unit_test(too_large),
		cmocka_unit_test(binary_and_items),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
