// SPDX-License-Identifier: MIT
/* THP set/restore against a fake sysfs directory ($LATCTL_SYSFS_THP). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "system/thp.h"

static char dir[] = "/tmp/latctl-thp.XXXXXX";
static char enabled[64];

static void put(const char *text)
{
	FILE *f = fopen(enabled, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Content of the fake "enabled", trailing newline removed. */
static const char *content(void)
{
	static char buf[128];
	FILE *f = fopen(enabled, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int setup(void **state)
{
	(void)state;
	snprintf(enabled, sizeof(enabled), "%s/enabled", dir);
	put("always [madvise] never\n");
	return 0;
}

static void read_bracketed(void **state)
{
	char v[32];

	(void)state;
	assert_int_equal(lat_thp_read("enabled", v, sizeof(v)), 0);
	assert_string_equal(v, "madvise");
	put("never\n");
	assert_int_equal(lat_thp_read("enabled", v, sizeof(v)), 0);
	assert_string_equal(v, "never");
	assert_int_equal(lat_thp_read("nosuchfile", v, sizeof(v)), -ENOENT);
}

static void set_then_restore(void **state)
{
	(void)state;
	assert_int_equal(lat_thp_set("always"), 0);
	assert_string_equal(content(), "always");
	assert_int_equal(lat_thp_restore(), 0);
	assert_string_equal(content(), "madvise");
	put("never\n");			/* a second restore must not write */
	assert_int_equal(lat_thp_restore(), 0);
	assert_string_equal(content(), "never");
}

static void missing_file(void **state)
{
	int saved = dup(2), devnull = open("/dev/null", O_WRONLY);

	(void)state;
	unlink(enabled);
	dup2(devnull, 2);		/* the expected one-line error */
	assert_int_equal(lat_thp_set("always"), -ENOENT);
	dup2(saved, 2);
	close(saved);
	close(devnull);
	assert_int_equal(access(enabled, F_OK), -1);	/* not created */
	assert_int_equal(lat_thp_restore(), 0);
}

/* A child sets "never" and is killed by sig: the handler must restore. */
static void restore_on(int sig)
{
	int status;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (lat_thp_set("never"))
			_exit(3);
		raise(sig);
		_exit(4);		/* not reached: the handler re-raises */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), sig);
	assert_string_equal(content(), "madvise");
}

static void restore_on_signals(void **state)
{
	(void)state;
	restore_on(SIGINT);
	put("always [madvise] never\n");
	restore_on(SIGTERM);
	put("always [madvise] never\n");
	restore_on(SIGHUP);
}

static void values(void **state)
{
	(void)state;
	assert_true(lat_thp_valid("always") && lat_thp_valid("madvise") && lat_thp_valid("never"));
	assert_false(lat_thp_valid("Always") || lat_thp_valid("") || lat_thp_valid("defer"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(read_bracketed, setup),
		cmocka_unit_test_setup(set_then_restore, setup),
		cmocka_unit_test_setup(missing_file, setup),
		cmocka_unit_test_setup(restore_on_signals, setup),
		cmocka_unit_test(values),
	};
	int ret;

	cmocka_set_message_output(CM_OUTPUT_TAP);
	if (!mkdtemp(dir))
		return 1;
	setenv("LATCTL_SYSFS_THP", dir, 1);
	ret = cmocka_run_group_tests_name("thp", tests, NULL, NULL);
	unlink(enabled);
	rmdir(dir);
	return ret;
}
