// SPDX-License-Identifier: MIT
/* Snapshots of the target processes' mappings, and swap and NUMA balancing. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latmon.h"
#include "system/memmap.h"

#define MAX_PROCS 64

struct proc_maps {
	pid_t pid;
	struct lat_mapping *m;
	size_t n;
};

static struct proc_maps procs[MAX_PROCS];
static size_t n_procs;

/* One line of /proc/PID/maps into *m; false when it is not one. */
static bool parse_line(const char *line, struct lat_mapping *m)
{
	char perms[8] = "";
	int path_at = 0;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n", &m->start,
		   &m->end, perms, &m->offset, &m->dev_major, &m->dev_minor, &m->ino, &path_at) < 7)
		return false;
	m->shared = perms[3] == 's';
	if (path_at)
		snprintf(m->path, sizeof(m->path), "%.*s", (int)strcspn(line + path_at, "\n"),
			 line + path_at);
	return true;
}

static struct proc_maps *slot_of(pid_t pid, bool make)
{
	size_t i;

	for (i = 0; i < n_procs; i++)
		if (procs[i].pid == pid)
			return &procs[i];
	if (!make || n_procs == MAX_PROCS)
		return NULL;
	procs[n_procs].pid = pid;
	return &procs[n_procs++];
}

int lat_memmap_snapshot(pid_t pid)
{
	char path[64], line[512];
	struct proc_maps *p = slot_of(pid, true);
	struct lat_mapping m, *grown;
	FILE *f;

	if (!p)
		return -ENOSPC;
	if (p->n)
		return 0; /* read already */
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	free(p->m);
	p->m = NULL;
	p->n = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!parse_line(line, &m))
			continue;
		grown = realloc(p->m, (p->n + 1) * sizeof(*p->m));
		if (!grown)
			break;
		p->m = grown;
		p->m[p->n++] = m;
	}
	fclose(f);
	return 0;
}

const struct lat_mapping *lat_memmap_find(pid_t pid, uint64_t addr, uint64_t ino)
{
	const struct proc_maps *p = slot_of(pid, false);
	size_t i, k;

	for (i = 0; p && i < p->n; i++)
		if (p->m[i].start <= addr && addr < p->m[i].end)
			return &p->m[i];
	for (k = 0; ino && k < n_procs; k++)
		for (i = 0; i < procs[k].n; i++)
			if (procs[k].m[i].ino == ino)
				return &procs[k].m[i];
	return NULL;
}

uint8_t lat_mapping_map(const struct lat_mapping *m)
{
	if (!strcmp(m->path, "[heap]"))
		return LATMON_MAP_HEAP;
	if (!strncmp(m->path, "[stack", 6))
		return LATMON_MAP_STACK;
	if (m->path[0] == '[')
		return LATMON_MAP_SPECIAL; /* [vdso], [vvar], [vsyscall] */
	if (m->ino || m->shared)
		return m->shared ? LATMON_MAP_FILE_SHARED : LATMON_MAP_FILE_PRIVATE;
	return LATMON_MAP_ANON;
}

void lat_memmap_clear(void)
{
	size_t i;

	for (i = 0; i < n_procs; i++)
		free(procs[i].m);
	memset(procs, 0, sizeof(procs));
	n_procs = 0;
}

void lat_memmap_describe(pid_t pid, uint64_t addr, uint64_t ino, char *buf, size_t len)
{
	const struct lat_mapping *m = lat_memmap_find(pid, addr, ino);

	if (!m) {
		if (ino)
			snprintf(buf, len, "inode %" PRIu64, ino);
		else
			snprintf(buf, len, "a mapping gone when the loop ended");
	} else if (m->ino && m->start <= addr && addr < m->end) {
		snprintf(buf, len, "%s +0x%" PRIx64, m->path[0] ? m->path : "(file)",
			 m->offset + ((addr - m->start) & ~(uint64_t)0xfff));
	} else if (m->ino) {
		snprintf(buf, len, "%s", m->path[0] ? m->path : "(file)");
	} else if (m->path[0]) {
		snprintf(buf, len, "%s", m->path);
	} else {
		snprintf(buf, len, "anonymous 0x%" PRIx64 "-0x%" PRIx64, m->start, m->end);
	}
}

bool lat_swap_on(void)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[256];
	int n = 0;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n > 1; /* a header, then one line per swap area */
}

bool lat_numa_balancing_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/numa_balancing", "re");
	int v = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v != 0;
}
