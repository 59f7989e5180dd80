// SPDX-License-Identifier: MIT
/* Kernel command line, microcode, CPU vendor, SMT, mitigations, mTHP for
 * "environment". */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "system/env_more.h"

#define VULN_DIR	"/sys/devices/system/cpu/vulnerabilities"
#define THP_DIR		"/sys/kernel/mm/transparent_hugepage"

/* The whole first line of a file, newline cut; NULL when unreadable. */
static const char *line_of(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return NULL;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[ok ? strcspn(buf, "\n") : 0] = '\0';
	return buf;
}

/* The [chosen] word of a sysfs choice list ("always [never]"), else line. */
static const char *chosen(char *line)
{
	char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close)
		return line;
	*close = '\0';
	return open + 1;
}

static void add_line(cJSON *env, const char *key, const char *path)
{
	char buf[4096];
	const char *v = line_of(path, buf, sizeof(buf));

	cJSON_AddItemToObject(env, key, v ? cJSON_CreateString(v) : cJSON_CreateNull());
}

const char *lat_cpuinfo_field(const char *key, char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t n = strlen(key);
	const char *v = NULL;
	char line[512], *colon;

	while (f && !v && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, n) || !strchr(" \t:", line[n]) ||
		    !(colon = strchr(line, ':')))
			continue;
		colon += strspn(colon + 1, " \t") + 1;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		v = buf;
	}
	if (f)
		fclose(f);
	return v;
}

static void add_cpuinfo(cJSON *env, const char *json_key, const char *key)
{
	char buf[512];
	const char *v = lat_cpuinfo_field(key, buf, sizeof(buf));

	cJSON_AddItemToObject(env, json_key, v ? cJSON_CreateString(v) : cJSON_CreateNull());
}

/* {entry: first line of dir/entry/leaf} for entries starting with prefix,
 * null when dir cannot be read. leaf "" reads dir/entry itself. */
static cJSON *dir_lines(const char *dir, const char *prefix, const char *leaf)
{
	char path[PATH_MAX], buf[512];
	struct dirent *e;
	DIR *d = opendir(dir);
	cJSON *o;

	if (!d)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s%s%s", dir, e->d_name, *leaf ? "/" : "", leaf);
		if (line_of(path, buf, sizeof(buf)))
			cJSON_AddStringToObject(o, e->d_name + strlen(prefix), chosen(buf));
	}
	closedir(d);
	return o;
}

void lat_env_more(cJSON *env)
{
	add_line(env, "cmdline", "/proc/cmdline");
	add_cpuinfo(env, "microcode", "microcode");
	add_cpuinfo(env, "cpu_vendor", "vendor_id");
	add_line(env, "smt", "/sys/devices/system/cpu/smt/control");
	cJSON_AddItemToObject(env, "mitigations", dir_lines(VULN_DIR, "", ""));
	cJSON_AddItemToObject(env, "mthp", dir_lines(THP_DIR, "hugepages-", "enabled"));
}
