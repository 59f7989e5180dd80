// SPDX-License-Identifier: MIT
/* Page faults, context switches, THP and compaction counters, the
 * hypervisor's steal time, free 2 MiB blocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "system/counters.h"

/* The values of keys in a "key value" file (v[i] -1 where it has none),
 * in one pass. */
static void file_fields(const char *path, const char *const *keys, long long *v, size_t n)
{
	char line[512];
	size_t i, klen;
	FILE *f = fopen(path, "r");

	for (i = 0; i < n; i++)
		v[i] = -1;
	while (f && fgets(line, sizeof(line), f))
		for (i = 0; i < n; i++) {
			klen = strlen(keys[i]);
			if (v[i] < 0 && !strncmp(line, keys[i], klen) &&
			    (line[klen] == ' ' || line[klen] == ':'))
				v[i] = strtoll(line + klen + 1, NULL, 10);
		}
	if (f)
		fclose(f);
}

long long lat_stat_steal(FILE *f, int cpu)
{
	char want[24], line[512];
	long long v[8];
	size_t n;

	if (cpu < 0)
		snprintf(want, sizeof(want), "cpu ");
	else
		snprintf(want, sizeof(want), "cpu%d ", cpu);
	n = strlen(want);
	while (fgets(line, sizeof(line), f))
		/* user nice system idle iowait irq softirq steal */
		if (!strncmp(line, want, n) &&
		    sscanf(line + n, "%lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7]) == 8)
			return v[7];
	return -1;
}

/* Steal time of cpu (-1: every CPU) now, in ticks; -1 without /proc/stat. */
static long long steal_now(int cpu)
{
	FILE *f = fopen("/proc/stat", "r");
	long long v;

	if (!f)
		return -1;
	v = lat_stat_steal(f, cpu);
	fclose(f);
	return v;
}

static const char *const vmstat_keys[] = {
	"thp_fault_alloc", "thp_fault_fallback", "compact_stall", "compact_success", "compact_fail",
};
#define N_VMSTAT (sizeof(vmstat_keys) / sizeof(vmstat_keys[0]))

void lat_counters_read(struct lat_counters *c, int cpu)
{
	static const char *const smaps_key = "AnonHugePages";
	struct rusage self, kids;
	long long v[N_VMSTAT];

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	c->minflt = self.ru_minflt + kids.ru_minflt;
	c->majflt = self.ru_majflt + kids.ru_majflt;
	c->nvcsw = self.ru_nvcsw + kids.ru_nvcsw;
	c->nivcsw = self.ru_nivcsw + kids.ru_nivcsw;
	file_fields("/proc/self/smaps_rollup", &smaps_key, &c->anon_huge_kb, 1);
	file_fields("/proc/vmstat", vmstat_keys, v, N_VMSTAT);
	c->thp_fault_alloc = v[0];
	c->thp_fault_fallback = v[1];
	c->compact_stall = v[2];
	c->compact_success = v[3];
	c->compact_fail = v[4];
	c->steal_cpu = cpu;
	c->steal_ticks = steal_now(cpu);
}

static long long diff(long long before, long long after)
{
	return before < 0 || after < 0 ? -1 : after - before;
}

void lat_counters_delta(const struct lat_counters *before,
			const struct lat_counters *after,
			struct lat_counters *delta)
{
	delta->minflt = diff(before->minflt, after->minflt);
	delta->majflt = diff(before->majflt, after->majflt);
	delta->nvcsw = diff(before->nvcsw, after->nvcsw);
	delta->nivcsw = diff(before->nivcsw, after->nivcsw);
	delta->anon_huge_kb = after->anon_huge_kb;
	delta->thp_fault_alloc = diff(before->thp_fault_alloc, after->thp_fault_alloc);
	delta->thp_fault_fallback = diff(before->thp_fault_fallback,
					 after->thp_fault_fallback);
	delta->compact_stall = diff(before->compact_stall, after->compact_stall);
	delta->compact_success = diff(before->compact_success, after->compact_success);
	delta->compact_fail = diff(before->compact_fail, after->compact_fail);
	delta->steal_cpu = after->steal_cpu;
	delta->steal_ticks = diff(before->steal_ticks, after->steal_ticks);
}

/* Lowest buddy order whose blocks are at least 2 MiB (9 with 4 KiB pages). */
static int order_2m(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int order = 0;

	while (page > 0 && (page << order) < (2L << 20))
		order++;
	return order;
}

long long lat_buddy_free_2m_blocks(void)
{
	return lat_buddy_free_2m_blocks_except(NULL);
}

long long lat_buddy_free_2m_blocks_except(const char *zone)
{
	long long total = -1, n;
	int order, min_order = order_2m();
	char line[512], *p, *end;
	size_t zlen = zone ? strlen(zone) : 0;
	FILE *f;

	f = fopen("/proc/buddyinfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "zone");
		if (!p)
			continue;
		p += 4;
		while (*p == ' ')
			p++;
		if (total < 0)
			total = 0;
		if (zone && strcspn(p, " ") == zlen && !strncmp(p, zone, zlen))
			continue;
		p += strcspn(p, " ");		/* skip the zone name */
		for (order = 0;; order++, p = end) {
			n = strtoll(p, &end, 10);
			if (end == p)
				break;
			if (order >= min_order)
				total += n;
		}
	}
	fclose(f);
	return total;
}
