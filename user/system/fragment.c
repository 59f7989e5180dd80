// SPDX-License-Identifier: MIT
/* --fragment: no free 2 MiB block left while the run is timed. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "system/counters.h"
#include "system/fragment.h"
#include "lib/rdoc.h"
#include "system/sysinfo.h"
#include "settings/sysset.h"
#include "system/thp.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif

#define PAGE		4096UL
#define BLOCK_PAGES	512UL			/* 4 KiB pages per 2 MiB block */
#define MAX_BLOCKS	(1UL << 19)		/* physical blocks tracked: 1 TiB */
#define PM_PRESENT	(1ULL << 63)
#define PM_PFN		((1ULL << 55) - 1)

/* At most what may be filled: free memory less the min watermark and 24 MiB. */
static unsigned long long fill_bytes(void)
{
	char buf[32];
	unsigned long long free_kb = lat_meminfo_kb("MemFree"), min_kb = 0;

	if (!lat_sysset_read("/proc/sys/vm/min_free_kbytes", buf, sizeof(buf)))
		min_kb = strtoull(buf, NULL, 10);
	if (free_kb <= min_kb + 32768)
		return 0;
	return (free_kb - min_kb - 24576) * 1024;
}

/* Free [first, last) pages of the mapping at base. */
static void drop(char *base, unsigned long first, unsigned long last)
{
	if (last > first)
		madvise(base + first * PAGE, (last - first) * PAGE, MADV_DONTNEED);
}

#define PM_BATCH	4096UL

/* True the first time a present page of its physical block is seen. */
static int first_of_block(uint64_t e, uint8_t *held)
{
	uint64_t blk = (e & PM_PFN) / BLOCK_PAGES;

	if (!(e & PM_PRESENT) || blk >= MAX_BLOCKS || (held[blk / 8] & (1 << blk % 8)))
		return 0;
	held[blk / 8] |= 1 << blk % 8;
	return 1;
}

/*
 * Keep the first page of each physical 2 MiB block, free every other page
 * (the pagemap read in batches). Returns the pages kept.
 */
static unsigned long keep_one_per_block(char *base, unsigned long pages, int pm)
{
	static uint8_t held[MAX_BLOCKS / 8];
	static uint64_t e[PM_BATCH];
	unsigned long i, j, n, run = 0, kept = 0;
	off_t off = (off_t)((uintptr_t)base / PAGE * 8);

	for (i = 0; i < pages; i += n) {
		n = pages - i < PM_BATCH ? pages - i : PM_BATCH;
		if (pread(pm, e, n * 8, off + (off_t)(i * 8)) != (ssize_t)(n * 8))
			memset(e, 0, sizeof(e));
		for (j = 0; j < n; j++) {
			if (!first_of_block(e[j], held))
				continue;
			drop(base, run, i + j);
			run = i + j + 1;
			kept++;
		}
	}
	drop(base, run, pages);
	return kept;
}

#define FILL_CHUNK	(8UL << 20)

/*
 * Populate [base, base + bytes) chunk by chunk with 4 KiB pages until no
 * free 2 MiB block is left outside ZONE_DMA (which its lowmem reserve keeps
 * from user pages) or the memory is full. Returns the bytes populated.
 */
static size_t populate(char *base, size_t bytes)
{
	size_t off, i;

	for (off = 0; off + FILL_CHUNK <= bytes; off += FILL_CHUNK) {
		if (!lat_buddy_free_2m_blocks_except("DMA"))
			break;
		if (madvise(base + off, FILL_CHUNK, MADV_POPULATE_WRITE))
			for (i = 0; i < FILL_CHUNK; i += PAGE)
				base[off + i] = 1;
	}
	return off;
}

#define SOAK_MAX	512UL
#define SOAK_PERIOD_US	20000

static char *soak_base;		/* SOAK_MAX huge pages, MADV_HUGEPAGE */
static unsigned long soaked;

#define SOAK_FIRST_S	3	/* the first soak's bound: each take may compact */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * Take the free 2 MiB blocks left (the fill's safety margin, or what
 * kcompactd frees later) as huge pages, one at a time while any is left,
 * for at most seconds (a take can run direct compaction, slow under
 * emulation); needs THP enabled (always or madvise). Returns the blocks
 * taken so far.
 */
static unsigned long soak(double seconds)
{
	double end = now_s() + seconds;
	char *raw;

	if (!soak_base) {
		raw = mmap(NULL, (SOAK_MAX + 1) << 21, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (raw == MAP_FAILED)
			return 0;
		soak_base = (char *)(((uintptr_t)raw + (2UL << 20) - 1) & ~((2UL << 20) - 1));
		madvise(soak_base, SOAK_MAX << 21, MADV_HUGEPAGE);
	}
	while (soaked < SOAK_MAX && lat_buddy_free_2m_blocks_except("DMA") > 0 && now_s() < end)
		soak_base[soaked++ << 21] = 1;
	return soaked;
}

/* The child: fill, fragment, report the pages kept on fd, then wait. */
static void filler(size_t bytes, int fd)
{
	unsigned long kept[2] = { 0, 0 };	/* pages kept, bytes filled */
	char *base;
	int pm;

	base = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (base != MAP_FAILED && pm >= 0) {
		madvise(base, bytes, MADV_NOHUGEPAGE);
		kept[1] = populate(base, bytes);
		kept[0] = keep_one_per_block(base, kept[1] / PAGE, pm);
		kept[0] += soak(SOAK_FIRST_S) * BLOCK_PAGES;
	}
	if (write(fd, kept, sizeof(kept)) != sizeof(kept))
		_exit(1);
	close(fd);
	for (;;) {		/* keep it so until killed */
		usleep(SOAK_PERIOD_US);
		soak(SOAK_PERIOD_US / 1e6);
	}
}

/* Make the child the OOM killer's first choice. */
static void oom_first(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, "1000", 4) != 4)
			perror("latctl: --fragment: oom_score_adj");
		close(fd);
	}
}

/* The filler dies with latctl, also with a SIGKILLed one: its memory is
 * never left held. Checked after it is set: a parent gone before it
 * counts too. */
static void die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
}

/* Fork the filler and wait for its count of kept pages. */
static int spawn(struct lat_fragment *f, size_t bytes)
{
	unsigned long kept[2] = { 0, 0 };
	pid_t parent = getpid();
	int p[2];

	if (pipe(p))
		return -errno;
	f->pid = fork();
	if (f->pid < 0) {
		f->pid = 0;
		return -errno;
	}
	if (!f->pid) {
		close(p[0]);
		die_with_parent(parent);
		oom_first();
		filler(bytes, p[1]);
	}
	close(p[1]);
	if (read(p[0], kept, sizeof(kept)) != sizeof(kept))
		kept[0] = 0;
	close(p[0]);
	f->filled_kb = kept[1] / 1024;
	f->held_kb = kept[0] * (PAGE / 1024);
	return kept[0] ? 0 : -ENOMEM;
}

/* THP defrag always and proactive compaction off for the run. */
static int set_compaction(void)
{
	int ret;

	ret = lat_sysset_write("--fragment", "thp-defrag", "always");
	if (!ret && !access("/proc/sys/vm/compaction_proactiveness", F_OK))
		ret = lat_sysset_write("--fragment", "compaction-proactiveness", "0");
	return ret;
}

int lat_fragment_start(struct lat_fragment *f)
{
	size_t bytes = (size_t)fill_bytes();
	int ret;

	memset(f, 0, sizeof(*f));
	f->free_2m_before = lat_buddy_free_2m_blocks_except("DMA");
	if (geteuid()) {
		fprintf(stderr, "latctl: --fragment needs root (it reads physical page numbers and sets THP defrag); run as root\n");
		return -EPERM;
	}
	ret = set_compaction();
	if (ret)
		return ret;
	if (!bytes) {
		fprintf(stderr, "latctl: --fragment: too little free memory to fragment\n");
		return -ENOMEM;
	}
	ret = spawn(f, bytes);
	if (ret) {
		fprintf(stderr, "latctl: --fragment: the child filling %zu MiB failed (killed by the OOM killer?)\n",
			bytes >> 20);
		lat_fragment_stop(f);
		return ret;
	}
	f->free_2m_after = lat_buddy_free_2m_blocks_except("DMA");
	return 0;
}

void lat_fragment_stop(struct lat_fragment *f)
{
	if (f->pid <= 0)
		return;
	kill(f->pid, SIGKILL);
	waitpid(f->pid, NULL, 0);
	f->pid = 0;
}

cJSON *lat_fragment_json(const struct lat_fragment *f)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "free_2m_blocks_before", (double)f->free_2m_before);
	cJSON_AddNumberToObject(o, "free_2m_blocks_after", (double)f->free_2m_after);
	cJSON_AddNumberToObject(o, "filled_kb", (double)f->filled_kb);
	cJSON_AddNumberToObject(o, "held_kb", (double)f->held_kb);
	return o;
}

void lat_fragment_print(const cJSON *o, FILE *out, struct lat_rd *r)
{
	if (!cJSON_IsObject(o))
		return;
	fprintf(out, "fragmented: %.0f free 2 MiB blocks before, %.0f after (%.0f MiB filled with 4 KiB pages, %.1f MiB held: one per 2 MiB); THP defrag always\n",
		lat_rd_num(r, o, "free_2m_blocks_before"), lat_rd_num(r, o, "free_2m_blocks_after"),
		lat_rd_num(r, o, "filled_kb") / 1024, lat_rd_num(r, o, "held_kb") / 1024);
}
