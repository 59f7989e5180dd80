/* SPDX-License-Identifier: MIT */
/*
 * --fragment: before timing, leave no free 2 MiB block, so that a huge-page
 * fault has to compact memory (direct compaction). A child process fills
 * free memory with 4 KiB pages until no free 2 MiB block is left (outside
 * ZONE_DMA), then frees all but one page of every 2 MiB physical block it
 * got (pfns from /proc/self/pagemap, root), and holds those pages until the
 * run ends; every 20 ms it takes any free 2 MiB block that appears again
 * (kcompactd's work) as a huge page. For the run THP defrag is "always" (a
 * fault waits for compaction) and proactive compaction is off; both are
 * restored after (sysset.h).
 */
#ifndef LATCTL_FRAGMENT_H
#define LATCTL_FRAGMENT_H

#include <sys/types.h>
#include <cjson/cJSON.h>

struct lat_rd;

struct lat_fragment {
	pid_t pid;			/* the child holding the pages, 0 if none */
	long long free_2m_before;	/* free 2 MiB blocks before (-1 unknown) */
	long long free_2m_after;	/* ... and after fragmenting */
	unsigned long long filled_kb;	/* memory the child filled */
	unsigned long long held_kb;	/* memory it still holds */
};

/* Fragment free memory; one line on stderr and -errno on failure. */
int lat_fragment_start(struct lat_fragment *f);

/* End the child (its pages are freed); idempotent. */
void lat_fragment_stop(struct lat_fragment *f);

/* {"free_2m_blocks_before", "free_2m_blocks_after", "filled_kb", "held_kb"} */
cJSON *lat_fragment_json(const struct lat_fragment *f);

/* "fragmented: 812 free 2 MiB blocks before, 0 after (1.9 GiB filled, 3.8 MiB held)" */
void lat_fragment_print(const cJSON *o, FILE *out, struct lat_rd *r);

#endif /* LATCTL_FRAGMENT_H */
