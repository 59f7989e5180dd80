// SPDX-License-Identifier: MIT
/* --thp-size: per-size THP settings of Linux 6.8+ (hugepages-<N>kB/enabled). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/rdoc.h"
#include "settings/sysset.h"
#include "system/thp.h"
#include "system/thp_size.h"

static const char *const modes[] = { "always", "madvise", "never", "inherit" };

static int mode_valid(const char *m)
{
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(m, modes[i]))
			return 1;
	return 0;
}

/* "64K", "64k", "64kB", "2M", "2MB" -> kB; 0 if not a power of two >= 8K. */
static unsigned int parse_kb(const char *s, size_t len)
{
	char buf[32], *end;
	unsigned long v;

	if (!len || len >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtoul(buf, &end, 10);
	if (!strcasecmp(end, "M") || !strcasecmp(end, "MB"))
		v *= 1024;
	else if (strcasecmp(end, "K") && strcasecmp(end, "kB"))
		return 0;
	if (v < 8 || v > (1UL << 21) || (v & (v - 1)))
		return 0;
	return (unsigned int)v;
}

int lat_thp_size_parse(const char *arg, struct lat_thp_size *out)
{
	const char *eq = strchr(arg, '=');

	out->kb = eq ? parse_kb(arg, (size_t)(eq - arg)) : 0;
	if (!out->kb || !mode_valid(eq + 1)) {
		fprintf(stderr, "latctl: --thp-size '%s' is not valid; give SIZE=MODE, SIZE a power of two such as 64K or 2M, MODE always, madvise, never or inherit\n",
			arg);
		return -EINVAL;
	}
	snprintf(out->mode, sizeof(out->mode), "%s", eq + 1);
	return 0;
}

static void size_path(char *buf, size_t len, unsigned int kb)
{
	snprintf(buf, len, "%s/hugepages-%ukB/enabled", lat_thp_dir(), kb);
}

/* kB of a "hugepages-<N>kB" entry, 0 for any other name. */
static unsigned int entry_kb(const char *name)
{
	unsigned int kb;
	char tail[4];

	if (sscanf(name, "hugepages-%u%3s", &kb, tail) != 2 || strcmp(tail, "kB"))
		return 0;
	return kb;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

int lat_thp_sizes(unsigned int *kb, int max)
{
	DIR *d = opendir(lat_thp_dir());
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		char path[PATH_MAX];

		kb[n] = entry_kb(e->d_name);
		size_path(path, sizeof(path), kb[n]);
		if (kb[n] && !access(path, F_OK))	/* some have shmem_enabled only */
			n++;
	}
	closedir(d);
	qsort(kb, n, sizeof(*kb), cmp_uint);
	return n;
}

/* One line naming the sizes there are, for a size there is not. */
static void no_such_size(unsigned int want, const unsigned int *kb, int n)
{
	int i;

	fprintf(stderr, "latctl: --thp-size %uK: this kernel has no such size; it has", want);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %uK", kb[i]);
	fprintf(stderr, "\n");
}

static int has_size(const unsigned int *kb, int n, unsigned int want)
{
	int i;

	for (i = 0; i < n; i++)
		if (kb[i] == want)
			return 1;
	return 0;
}

int lat_thp_size_apply(const struct lat_thp_size *s, int n)
{
	unsigned int kb[32];
	char path[PATH_MAX];
	int have, i, ret;

	if (!n)
		return 0;
	have = lat_thp_sizes(kb, 32);
	if (have <= 0) {
		fprintf(stderr, "latctl: --thp-size: this kernel has no per-size huge pages (no %s/hugepages-*kB; they came in Linux 6.8); run without --thp-size\n",
			lat_thp_dir());
		return -ENOENT;
	}
	for (i = 0; i < n; i++) {
		if (!has_size(kb, have, s[i].kb)) {
			no_such_size(s[i].kb, kb, have);
			return -ENOENT;
		}
		snprintf(path, sizeof(path), "thp-size-%ukB", s[i].kb);
		ret = lat_sysset_write("--thp-size", path, s[i].mode);
		if (ret)
			return ret;
	}
	return 0;
}

cJSON *lat_thp_size_json(void)
{
	unsigned int kb[32];
	char path[PATH_MAX], key[16], val[16];
	int n = lat_thp_sizes(kb, 32), i;
	cJSON *o;

	if (n <= 0)
		return NULL;
	o = cJSON_CreateObject();
	for (i = 0; o && i < n; i++) {
		size_path(path, sizeof(path), kb[i]);
		if (lat_sysset_read(path, val, sizeof(val)))
			snprintf(val, sizeof(val), "?");
		snprintf(key, sizeof(key), "%uK", kb[i]);
		cJSON_AddStringToObject(o, key, val);
	}
	return o;
}

/* The writer lists the sizes the kernel has (a size without an enabled
 * file left out), in any order, each a power of two up to the PMD size,
 * which is always one of them (2048K on x86-64), each with a mode sysfs
 * holds ("?": unreadable); a list without 2048K, with a repeat or another
 * mode is damaged. */
static bool sizes_valid(const cJSON *sizes)
{
	static const char *const modes[] = { "always", "madvise", "never", "inherit", "?" };
	unsigned int kb, n = 0, m;
	uint32_t have = 0;
	const cJSON *e;
	bool known;

	cJSON_ArrayForEach(e, sizes) {
		if (sscanf(e->string, "%uK", &kb) != 1 || !kb || kb > 2048 || (kb & (kb - 1)))
			return false;
		for (m = 0, known = !cJSON_IsString(e); !known && m < sizeof(modes) / sizeof(modes[0]); m++)
			known = !strcmp(e->valuestring, modes[m]);
		if (!known)
			return false;
		have |= kb;
		n++;
	}
	return (have & 2048) && (unsigned int)__builtin_popcount(have) == n;
}

void lat_thp_size_print(const cJSON *sizes, FILE *out, struct lat_rd *r)
{
	const cJSON *e;
	const char *sep = "";
	int never = 0;

	if (!cJSON_IsObject(sizes)) {
		fprintf(out, "mTHP sizes: none in this kernel (per-size huge pages came in Linux 6.8)\n");
		return;
	}
	lat_rd_expect(r, sizes_valid(sizes), "thp_sizes");
	fprintf(out, "mTHP sizes:");
	cJSON_ArrayForEach(e, sizes) {
		lat_rd_expect(r, cJSON_IsString(e), e->string);
		if (cJSON_IsString(e) && !strcmp(e->valuestring, "never")) {
			never++;
			continue;
		}
		fprintf(out, "%s %s %s", sep, e->string,
			cJSON_IsString(e) ? e->valuestring : "?");
		sep = ",";
	}
	if (!*sep)
		fprintf(out, " all never\n");
	else
		fprintf(out, "%s\n", never ? "; the others never" : "");
}
