// SPDX-License-Identifier: MIT
/* The readers behind `latctl doctor`: sysfs choice files and kernel configs
 * (plain and gzip, as /proc/config.gz), against files written here; the
 * machine's kind from its hypervisor's CPUID signature. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "system/counters.h"
#include "machine/machine.h"
#include "system/sysinfo.h"

static char path[] = "/tmp/latctl-sysinfo.XXXXXX";

static void put(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void selected_word(void **state)
{
	char buf[32];

	(void)state;
	put("always [madvise] never\n");
	assert_int_equal(lat_sys_selected(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "madvise");
	put("always defer defer+madvise [madvise] never\n");
	assert_int_equal(lat_sys_selected(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "madvise");
	put("notsupported\n");		/* a file without choices: the whole line */
	assert_int_equal(lat_sys_selected(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "notsupported");
	assert_true(lat_sys_selected("/nonexistent/enabled", buf, sizeof(buf)) < 0);
	assert_string_equal(buf, "");
}

static const char config[] =
	"# CONFIG_KPROBES is not set\n"
	"CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y\n"
	"CONFIG_INIT_ON_ALLOC_DEFAULT_ON_X=n\n"
	"CONFIG_LOCALVERSION=\"-test\"\n";

/* Both formats answer the same questions the same way. */
static void check_config(void)
{
	char v[32];

	setenv("LATCTL_KCONFIG", path, 1);
	assert_int_equal(lat_sys_kconfig("CONFIG_INIT_ON_ALLOC_DEFAULT_ON", v, sizeof(v)), 1);
	assert_string_equal(v, "y");
	assert_int_equal(lat_sys_kconfig("CONFIG_LOCALVERSION", v, sizeof(v)), 1);
	assert_string_equal(v, "\"-test\"");
	/* "is not set" and absent are both 0, not a prefix match */
	assert_int_equal(lat_sys_kconfig("CONFIG_KPROBES", v, sizeof(v)), 0);
	assert_int_equal(lat_sys_kconfig("CONFIG_INIT_ON_ALLOC", v, sizeof(v)), 0);
	setenv("LATCTL_KCONFIG", "/nonexistent/config", 1);
	assert_int_equal(lat_sys_kconfig("CONFIG_KPROBES", v, sizeof(v)), -ENOENT);
	unsetenv("LATCTL_KCONFIG");
}

static void kconfig_plain(void **state)
{
	(void)state;
	put(config);
	check_config();
}

static void kconfig_gzip(void **state)
{
	gzFile f = gzopen(path, "wb");

	(void)state;
	assert_non_null(f);
	assert_int_equal(gzputs(f, config), (int)strlen(config));
	gzclose(f);
	check_config();
}

static void first_line(void **state)
{
	char buf[8];

	(void)state;
	put("0-3,7\nmore\n");
	assert_int_equal(lat_sys_line(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0-3,7");
	put("");
	assert_int_equal(lat_sys_line(path, buf, sizeof(buf)), -EIO);
}

/* The hypervisors of CPUID leaf 0x40000000, and what this machine is. */
static void machine_kinds(void **state)
{
	char buf[128];

	(void)state;
	assert_string_equal(lat_machine_vendor_kind("KVMKVMKVM"), "KVM guest");
	assert_non_null(strstr(lat_machine_vendor_kind("TCGTCGTCGTCG"), "emulated"));
	assert_string_equal(lat_machine_vendor_kind("Microsoft Hv"), "Hyper-V guest");
	assert_null(lat_machine_vendor_kind("KVMKVM"));
	lat_machine_kind(buf, sizeof(buf));
	assert_true(strstr(buf, "guest") || strstr(buf, "bare metal") || strstr(buf, "unknown"));
}

/* /proc/stat's steal column: the line of one CPU (cpu1 is not cpu10), of
 * all CPUs, and none on a kernel without the column. */
static void stat_steal(void **state)
{
	static char text[] = "cpu  10 0 20 900 1 2 3 47 0 0\n"
			     "cpu0 5 0 10 450 1 1 1 30 0 0\n"
			     "cpu10 5 0 10 450 0 1 2 999 0 0\n"
			     "cpu1 5 0 10 450 0 1 2 17 0 0\n"
			     "intr 12345 0 0\n";
	static char old[] = "cpu  10 0 20 900 1 2 3\ncpu0 10 0 20 900 1 2 3\n";
	const int cpus[] = { -1, 0, 1, 10, 2 };
	const long long want[] = { 47, 30, 17, 999, -1 };
	FILE *f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		f = fmemopen(text, strlen(text), "r");
		assert_non_null(f);
		assert_int_equal(lat_stat_steal(f, cpus[i]), want[i]);
		fclose(f);
	}
	f = fmemopen(old, strlen(old), "r");
	assert_int_equal(lat_stat_steal(f, 0), -1);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(selected_word), cmocka_unit_test(kconfig_plain),
		cmocka_unit_test(kconfig_gzip),	 cmocka_unit_test(first_line),
		cmocka_unit_test(machine_kinds), cmocka_unit_test(stat_steal),
	};
	int fd = mkstemp(path), ret;

	if (fd < 0)
		return 1;
	close(fd);
	cmocka_set_message_output(CM_OUTPUT_TAP);
	ret = cmocka_run_group_tests_name("sysinfo", tests, NULL, NULL);
	unlink(path);
	return ret;
}
