/* SPDX-License-Identifier: MIT */
/*
 * The memory behind a run's faults: each target process's mappings
 * (/proc/PID/maps) read right after the timed loop, while they are still
 * there, and what can make a fault's kind ambiguous to the BPF backend
 * (swap on, NUMA balancing on).
 */
#ifndef LATCTL_MEMMAP_H
#define LATCTL_MEMMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct lat_mapping {
	uint64_t start, end; /* [start, end) */
	uint64_t offset;     /* in the file, of start */
	uint64_t ino;	     /* 0: anonymous */
	unsigned int dev_major, dev_minor;
	bool shared;	/* 's' in the permissions */
	char path[192]; /* "/usr/lib/...", "[heap]", "/memfd:x (deleted)", "" */
};

/* Read pid's mappings into the snapshot, once until lat_memmap_clear();
 * -errno when they cannot be read (the process is gone). */
int lat_memmap_snapshot(pid_t pid);

/* The mapping of pid holding addr in the snapshot, else the one with
 * inode ino (any process's), else NULL. */
const struct lat_mapping *lat_memmap_find(pid_t pid, uint64_t addr, uint64_t ino);

/* LATMON_MAP_* of a mapping as /proc/PID/maps shows it. */
uint8_t lat_mapping_map(const struct lat_mapping *m);

/* Forget every snapshot. */
void lat_memmap_clear(void);

/* "[heap]", "/usr/lib/libc.so.6 +0x1f000", "anonymous 0x7f..-0x7f..",
 * "inode 1234" (a file no snapshot has), "a mapping gone when the loop
 * ended" (nothing known) into buf. */
void lat_memmap_describe(pid_t pid, uint64_t addr, uint64_t ino, char *buf, size_t len);

/* Swap is on: /proc/swaps lists a device or file. */
bool lat_swap_on(void);

/* NUMA balancing is on: /proc/sys/kernel/numa_balancing is not 0. */
bool lat_numa_balancing_on(void);

#endif /* LATCTL_MEMMAP_H */
