// SPDX-License-Identifier: MIT
/*
 * chase: 8 dependent random read-modify-writes in a 64 MiB table per
 * iteration, each address depending on the value read before (the per-iteration latency lab, the
 * "look something up in a big hash map" lab). The modes decide who pays the
 * page faults of the table: the timed loop (cold), a pass before timing
 * (warm) or the kernel at mmap time (populate). --fork writes every page
 * first and then forks a child that keeps the table and waits: each page
 * is then shared, and the loop's first write to it is a copy on write.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "lib/cleanup.h"
#include "lib/tsc.h"
#include "workload/workload.h"

/* Its options (chase_opts). */
static struct chase_cfg {
	int hugepage;		/* --hugepage: MADV_HUGEPAGE the table */
	int fork;		/* --fork: share the table with a child first */
} cfg;

#define TABLE_BYTES	(64ULL << 20)
#define TABLE_N		(TABLE_BYTES / sizeof(uint32_t))
#define CHAIN		8

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum chase_mode { CHASE_COLD, CHASE_WARM, CHASE_POPULATE };

struct chase {
	enum chase_mode mode;
	uint32_t *table;
	void *mapping;		/* populate: the mmap'd table; else NULL */
	unsigned char *vec;	/* mincore() vector, one byte per page */
	size_t pages;
	uint64_t resident_before, resident_after;
	long minflt_before, minflt_after;
	int hugepage, hugepage_err;	/* hugepage_err: -errno of madvise */
	pid_t child;			/* --fork: the child sharing the table, 0: none */
	uint64_t sink;
};

/* --fork: every page written, then a child that shares them and waits
 * (killed at teardown, or when latctl dies). */
static int chase_fork(struct chase *c)
{
	pid_t parent = getpid();

	for (size_t i = 0; i < TABLE_N; i += 1024)
		((volatile uint32_t *)c->table)[i] = 1;
	c->child = fork();
	if (c->child < 0) {
		c->child = 0;
		return -errno;
	}
	if (c->child)
		return 0;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	for (;;)
		pause();
}

static int chase_parse_mode(const char *mode, enum chase_mode *out)
{
	if (!mode || !strcmp(mode, "cold"))
		*out = CHASE_COLD;
	else if (!strcmp(mode, "warm"))
		*out = CHASE_WARM;
	else if (!strcmp(mode, "populate"))
		*out = CHASE_POPULATE;
	else
		return -EINVAL;
	return 0;
}

/* MADV_HUGEPAGE on the page-aligned part of [p, p+len); -errno or 0. */
static int chase_madv_huge(void *p, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t b = ((uintptr_t)p + pg - 1) & ~(uintptr_t)(pg - 1);
	uintptr_t e = ((uintptr_t)p + len) & ~(uintptr_t)(pg - 1);

	if (madvise((void *)b, e - b, MADV_HUGEPAGE) < 0)
		return -errno;
	return 0;
}

/*
 * populate: MAP_POPULATE, or with --hugepage an unpopulated mapping that is
 * advised first and then populated with MADV_POPULATE_WRITE (populating
 * before the advice would fault 4 KiB pages in).
 */
static int chase_map_populated(struct chase *c)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (c->hugepage ? 0 : MAP_POPULATE);
	void *p = mmap(NULL, TABLE_BYTES, PROT_READ | PROT_WRITE, flags, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	c->mapping = p;
	c->table = p;
	if (!c->hugepage)
		return 0;
	c->hugepage_err = chase_madv_huge(p, TABLE_BYTES);
	if (madvise(p, TABLE_BYTES, MADV_POPULATE_WRITE) < 0)
		for (size_t i = 0; i < TABLE_N; i += 1024)
			c->table[i] = 0;	/* kernel < 5.14 */
	return 0;
}

/* Pages of the table that are resident now (mincore), the cold-mode witness. */
static uint64_t chase_resident(struct chase *c)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t b = (uintptr_t)c->table & ~(uintptr_t)(pg - 1);
	size_t len = (uintptr_t)c->table + TABLE_BYTES - b;
	uint64_t n = 0;

	if (mincore((void *)b, len, c->vec) < 0)
		return 0;
	for (size_t i = 0; i < c->pages; i++)
		n += c->vec[i] & 1;
	return n;
}

static void chase_teardown(struct lat_run *run);

/* Allocate the table in the way the mode asks for; nothing timed yet. */
static int chase_prepare(struct lat_run *run)
{
	struct chase *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	run->priv = c;
	c->hugepage = cfg.hugepage;
	ret = chase_parse_mode(run->mode, &c->mode);
	if (ret)
		return ret;
	if (c->mode == CHASE_POPULATE) {
		ret = chase_map_populated(c);
		if (ret)
			return ret;
	} else {
		/* glibc mmaps a 64 MiB calloc: fresh zero pages, untouched */
		c->table = calloc(TABLE_N, sizeof(uint32_t));
		if (!c->table)
			return -ENOMEM;
		if (c->hugepage)
			c->hugepage_err = chase_madv_huge(c->table, TABLE_BYTES);
	}
	if (c->mode == CHASE_WARM)
		for (size_t i = 0; i < TABLE_N; i += 1024)
			((volatile uint32_t *)c->table)[i] = 1;	/* one write per page */
	if (cfg.fork) {
		ret = chase_fork(c);
		if (ret)
			return ret;
	}
	c->pages = TABLE_BYTES / sysconf(_SC_PAGESIZE) + 1;
	c->vec = calloc(c->pages, 1);
	if (!c->vec)
		return -ENOMEM;
	return 0;
}

/* setup: prepare, or undo everything on failure (the core calls teardown only after success). */
static int chase_setup(struct lat_run *run)
{
	int ret = chase_prepare(run);

	if (ret)
		chase_teardown(run);
	return ret;
}

static long chase_minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* The timed loop: one sample per chain of 8 dependent read-modify-writes. */
static int chase_run(struct lat_run *run)
{
	struct chase *c = run->priv;
	volatile uint32_t *t = c->table;
	uint64_t seed = run->seed, sink = 0;
	size_t n = run->iters < run->cap ? run->iters : run->cap, i;

	c->resident_before = chase_resident(c);
	c->minflt_before = chase_minflt();
	for (i = 0; i < n && !lat_stop_requested; i++) {
		struct lat_sample *s = &run->samples[i];
		uint64_t idx = lat_rand64(&seed) % TABLE_N;

		s->tsc_begin = lat_tsc(&s->cpu_begin);
		for (uint64_t k = 0; k < CHAIN; k++) {
			uint32_t v = t[idx];

			t[idx] = v + 1;	/* a write: an untouched page is allocated */
			idx = (idx + v + 0x9E3779B1ULL * (k + 1)) % TABLE_N;
		}
		s->tsc_end = lat_tsc(&s->cpu_end);
		s->flags = 0;
		sink += idx;
	}
	c->minflt_after = chase_minflt();
	c->resident_after = chase_resident(c);
	c->sink = sink;
	run->n = i;		/* fewer after a Ctrl-C */
	return 0;
}

static const char *const chase_mode_name[] = { "cold", "warm", "populate" };

static cJSON *chase_extras(const struct lat_run *run)
{
	const struct chase *c = run->priv;
	cJSON *o = cJSON_CreateObject();
	uint64_t touched = c->resident_after - c->resident_before;
	long faults = c->minflt_after - c->minflt_before;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "table_mode", chase_mode_name[c->mode]);
	cJSON_AddNumberToObject(o, "table_bytes", (double)TABLE_BYTES);
	cJSON_AddNumberToObject(o, "table_pages", (double)(TABLE_BYTES / sysconf(_SC_PAGESIZE)));
	cJSON_AddNumberToObject(o, "chain", CHAIN);
	cJSON_AddBoolToObject(o, "hugepage", c->hugepage);
	cJSON_AddBoolToObject(o, "forked", c->child != 0);
	if (c->hugepage && c->hugepage_err)
		cJSON_AddStringToObject(o, "hugepage_error", strerror(-c->hugepage_err));
	cJSON_AddNumberToObject(o, "resident_pages_before", (double)c->resident_before);
	cJSON_AddNumberToObject(o, "pages_first_touched", (double)touched);
	cJSON_AddNumberToObject(o, "loop_minor_faults", (double)faults);
	cJSON_AddNumberToObject(o, "faults_per_touched_page",
				touched ? (double)faults / (double)touched : 0.0);
	cJSON_AddNumberToObject(o, "faults_per_table_page",
				(double)faults / (double)(TABLE_BYTES / sysconf(_SC_PAGESIZE)));
	return o;
}

static void chase_print_extras(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(x, "hugepage_error");	/* on failure only */

	const cJSON *forked = cJSON_GetObjectItemCaseSensitive(x, "forked"); /* newer results */

	fprintf(out, "table: %.0f MiB, %.0f pages, mode %s%s, %.0f dependent read-modify-writes per iteration\n",
		lat_rd_num(rd, x, "table_bytes") / (1 << 20), lat_rd_num(rd, x, "table_pages"), lat_rd_str(rd, x, "table_mode"),
		lat_rd_bool(rd, x, "hugepage") ? " + MADV_HUGEPAGE" : "",
		lat_rd_num(rd, x, "chain"));
	if (cJSON_IsTrue(forked))
		fprintf(out,
			"--fork: every page written, then shared with a waiting child: the loop's first write to a page copies it\n");
	if (cJSON_IsString(err))
		fprintf(out, "MADV_HUGEPAGE failed: %s (THP off or not built in?)\n", err->valuestring);
	fprintf(out, "table pages resident before the loop: %.0f; first touched by the loop: %.0f\n",
		lat_rd_num(rd, x, "resident_pages_before"), lat_rd_num(rd, x, "pages_first_touched"));
	fprintf(out, "minor faults in the loop: %.0f = %.2f per page first touched, %.2f per table page\n",
		lat_rd_num(rd, x, "loop_minor_faults"), lat_rd_num(rd, x, "faults_per_touched_page"),
		lat_rd_num(rd, x, "faults_per_table_page"));
}

static void chase_teardown(struct lat_run *run)
{
	struct chase *c = run->priv;

	if (!c)
		return;
	if (c->child > 0) {
		kill(c->child, SIGKILL);
		waitpid(c->child, NULL, 0);
	}
	if (c->mapping)
		munmap(c->mapping, TABLE_BYTES);
	else
		free(c->table);
	free(c->vec);
	free(c);
	run->priv = NULL;
}

static const struct lat_wl_opt chase_opts[] = {
	{ "hugepage", LAT_WL_OPT_FLAG, NULL, "madvise(MADV_HUGEPAGE) the table it chases",
	  "hugepage", offsetof(struct chase_cfg, hugepage) },
	{ "fork", LAT_WL_OPT_FLAG, NULL,
	  "write every page, then fork a child that keeps the table: copy-on-write faults", "fork",
	  offsetof(struct chase_cfg, fork) },
	{ NULL },
};

/* cold faults the whole table in during the loop; warm and populate did in
 * setup; with --fork the loop copies every page. */
static uint64_t chase_memory_need(const struct lat_run *run)
{
	return strcmp(run->mode, "cold") && !cfg.fork ? 0 : TABLE_BYTES;
}

const struct workload_ops wl_chase = {
	.name = "chase",
	.summary = "8 dependent random read-modify-writes in a 64 MiB table (the per-iteration latency lab)",
	.modes = "cold|warm|populate",
	.unit_name = "iteration",
	.default_iters = 1000000,
	.setup = chase_setup,
	.run = chase_run,
	.extras = chase_extras,
	.print_extras = chase_print_extras,
	.teardown = chase_teardown,
	.memory_need = chase_memory_need,
	.opts = chase_opts,
	.config = &cfg,
	.config_size = sizeof(cfg),
};
