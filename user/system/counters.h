/* SPDX-License-Identifier: MIT */
/* What the kernel counted for this process and system around the timed loop. */
#ifndef LATCTL_COUNTERS_H
#define LATCTL_COUNTERS_H

#include <stdio.h>

/* -1 in any field means "not available on this kernel". */
struct lat_counters {
	long long minflt, majflt;	/* getrusage, self + waited children */
	long long nvcsw, nivcsw;	/* voluntary / involuntary ctx switches */
	long long anon_huge_kb;		/* AnonHugePages, /proc/self/smaps_rollup */
	long long thp_fault_alloc;	/* /proc/vmstat, system-wide */
	long long thp_fault_fallback;
	long long compact_stall;	/* /proc/vmstat, system-wide: direct */
	long long compact_success;	/* compaction entered, and its outcomes */
	long long compact_fail;
	long long steal_ticks; /* /proc/stat: the hypervisor's time on
					 * steal_cpu, or on every CPU (-1) */
	int steal_cpu;
};

/* The counters now; cpu: the CPU the loop is pinned to, whose steal time
 * is read (-1: not pinned, every CPU's). */
void lat_counters_read(struct lat_counters *c, int cpu);

/* The steal column of /proc/stat's line of cpu (-1: the "cpu" line of all
 * CPUs), in USER_HZ ticks, from f; -1 when it has none. */
long long lat_stat_steal(FILE *f, int cpu);

/* after - before for the event counters; AnonHugePages taken from after. */
void lat_counters_delta(const struct lat_counters *before,
			const struct lat_counters *after,
			struct lat_counters *delta);

/* Free blocks of 2 MiB or more in /proc/buddyinfo (all zones), -1 if unknown. */
long long lat_buddy_free_2m_blocks(void);
/* The same without the blocks of one zone ("DMA"; NULL: none left out). */
long long lat_buddy_free_2m_blocks_except(const char *zone);

#endif /* LATCTL_COUNTERS_H */
