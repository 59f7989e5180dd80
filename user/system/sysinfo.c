// SPDX-License-Identifier: MIT
/* Small readers of this machine's settings for `latctl doctor`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "system/sysinfo.h"

int lat_sys_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	buf[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

int lat_sys_selected(const char *path, char *buf, size_t len)
{
	char line[256], *open, *close;
	int ret = lat_sys_line(path, line, sizeof(line));

	buf[0] = '\0';
	if (ret)
		return ret;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!open || !close) {
		snprintf(buf, len, "%s", line);	/* a file without choices */
		return 0;
	}
	snprintf(buf, len, "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

int lat_sys_cmdline(const char *name, char *buf, size_t len)
{
	char line[4096], *tok, *save = NULL;
	size_t n = strlen(name);
	FILE *f = fopen("/proc/cmdline", "r");

	buf[0] = '\0';
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, "--"))
			break;		/* the rest goes to init */
		if (!strncmp(tok, name, n) && tok[n] == '=') {
			snprintf(buf, len, "%s", tok + n + 1);
			return 1;
		}
		if (!strcmp(tok, name))
			return 1;
	}
	return 0;
}

/* Search one config file (plain or gzip: gzgets reads both). */
static int config_in(const char *path, const char *name, char *buf, size_t len)
{
	char line[512];
	size_t n = strlen(name);
	gzFile f = gzopen(path, "rb");
	int found = 0;

	if (!f)
		return -ENOENT;
	buf[0] = '\0';
	while (!found && gzgets(f, line, sizeof(line))) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, name, n) && line[n] == '=') {
			snprintf(buf, len, "%s", line + n + 1);
			found = 1;
		}
	}
	gzclose(f);
	return found;
}

int lat_sys_kconfig(const char *name, char *buf, size_t len)
{
	const char *env = getenv("LATCTL_KCONFIG");
	char boot[sizeof(((struct utsname *)0)->release) + 16];
	struct utsname u;
	int ret;

	if (env && *env)
		return config_in(env, name, buf, len);
	ret = config_in("/proc/config.gz", name, buf, len);
	if (ret != -ENOENT)
		return ret;
	uname(&u);
	snprintf(boot, sizeof(boot), "/boot/config-%s", u.release);
	return config_in(boot, name, buf, len);
}

int lat_sys_cpuflag(const char *flag)
{
	char line[8192], *p;
	size_t n = strlen(flag);
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		for (p = strstr(line, flag); p && !found; p = strstr(p + 1, flag))
			found = p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n');
		break;			/* the first CPU's flags */
	}
	fclose(f);
	return found;
}

/* A "Key: N kB" value of /proc/meminfo, or 0. */
unsigned long long lat_meminfo_kb(const char *key)
{
	unsigned long long v = 0;
	char line[128];
	size_t len = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':')
			v = strtoull(line + len + 1, NULL, 10);
	if (f)
		fclose(f);
	return v;
}
