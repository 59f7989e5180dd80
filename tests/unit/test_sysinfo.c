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

#include "system/machine.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(selected_word),
		cmocka_unit_test(kconfig_plain),
		cmocka_unit_test(kconfig_gzip),
		cmocka_unit_test(first_line),
		cmocka_unit_test(machine_kinds),
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
