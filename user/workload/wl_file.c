// SPDX-License-Identifier: MIT
/*
 * file: reads of a 64 MiB file mapped into memory, one random 4 KiB page
 * per iteration (a program reading its data files through mmap, a
 * database's pages, a shared library's first calls). The file is an
 * unnamed one (O_TMPFILE) in $LATCTL_FILE_DIR, else the first of /var/tmp
 * and /tmp that can hold one: no name that anyone could point elsewhere,
 * gone when latctl exits. Modes: cold drops
 * the file's pages from the page cache first (written back, then
 * posix_fadvise(POSIX_FADV_DONTNEED)), so the loop's faults read it from
 * storage (file-io) or find what readahead brought in (file); warm reads
 * it whole first, so every fault finds its page in the cache (file).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/vfs.h>

#include "lib/cleanup.h"
#include "lib/tsc.h"
#include "workload/workload.h"

#define FILE_BYTES (64ULL << 20)
#define PAGE 4096ULL
#define FILE_PAGES (FILE_BYTES / PAGE)
#define TMPFS_MAGIC 0x01021994

enum file_mode { FILE_COLD, FILE_WARM };

struct wfile {
	enum file_mode mode;
	int fd;
	const unsigned char *map;
	char dir[256];
	int tmpfs;		/* the directory is on tmpfs: nothing to read */
	uint64_t cached_before; /* pages of the file in the page cache */
	uint64_t sink;
};

/* Pages of the mapping in the page cache now (mincore). */
static uint64_t file_cached(const struct wfile *f)
{
	unsigned char *vec = calloc(FILE_PAGES, 1);
	uint64_t n = 0;

	if (!vec || mincore((void *)f->map, FILE_BYTES, vec) < 0) {
		free(vec);
		return 0;
	}
	for (size_t i = 0; i < FILE_PAGES; i++)
		n += vec[i] & 1;
	free(vec);
	return n;
}

/* Fill the unnamed file with FILE_BYTES of data, on storage. */
static int file_fill(int fd)
{
	static unsigned char buf[1 << 20];

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	for (uint64_t off = 0; off < FILE_BYTES; off += sizeof(buf))
		if (pwrite(fd, buf, sizeof(buf), (off_t)off) != (ssize_t)sizeof(buf))
			return errno ? -errno : -EIO;
	return fdatasync(fd) ? -errno : 0;
}

/* Read it whole (warm) or drop its pages from the cache (cold). */
static int file_cache(struct wfile *f)
{
	static unsigned char buf[1 << 20];

	if (f->mode == FILE_COLD)
		return -posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	for (uint64_t off = 0; off < FILE_BYTES; off += sizeof(buf))
		if (pread(f->fd, buf, sizeof(buf), (off_t)off) < 0)
			return -errno;
	return 0;
}

/* An unnamed file in dir, its name kept in f->dir; -errno. */
static int file_open_in(struct wfile *f, const char *dir)
{
	snprintf(f->dir, sizeof(f->dir), "%s", dir);
	f->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	return f->fd < 0 ? -errno : 0;
}

static int file_open(struct wfile *f)
{
	const char *dir = getenv("LATCTL_FILE_DIR");
	struct statfs st;
	int ret;

	if (dir && *dir)
		ret = file_open_in(f, dir);
	else if ((ret = file_open_in(f, "/var/tmp")))
		ret = file_open_in(f, "/tmp");
	if (ret) {
		fprintf(stderr,
			"latctl: file: cannot make an unnamed file in %s (%s); LATCTL_FILE_DIR=DIR names another directory, on a file system with O_TMPFILE\n",
			f->dir, strerror(-ret));
		return -EINVAL;
	}
	f->tmpfs = !fstatfs(f->fd, &st) && st.f_type == TMPFS_MAGIC;
	return 0;
}

static void file_teardown(struct lat_run *run);

static int file_prepare(struct lat_run *run)
{
	struct wfile *f = calloc(1, sizeof(*f));
	int ret;

	if (!f)
		return -ENOMEM;
	run->priv = f;
	f->fd = -1;
	f->mode = run->mode && !strcmp(run->mode, "warm") ? FILE_WARM : FILE_COLD;
	ret = file_open(f);
	if (!ret)
		ret = file_fill(f->fd);
	if (!ret)
		ret = file_cache(f);
	if (ret)
		return ret;
	f->map = mmap(NULL, FILE_BYTES, PROT_READ, MAP_SHARED, f->fd, 0);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		return -errno;
	}
	f->cached_before = file_cached(f);
	return 0;
}

static int file_setup(struct lat_run *run)
{
	int ret = file_prepare(run);

	if (ret)
		file_teardown(run);
	return ret;
}

/* The timed loop: one sample per read of a random page of the file. */
static int file_run(struct lat_run *run)
{
	struct wfile *f = run->priv;
	const volatile unsigned char *m = f->map;
	uint64_t seed = run->seed, sink = 0;
	size_t n = run->iters < run->cap ? run->iters : run->cap, i;

	for (i = 0; i < n && !lat_stop_requested; i++) {
		struct lat_sample *s = &run->samples[i];
		uint64_t page = lat_rand64(&seed) % FILE_PAGES;

		s->tsc_begin = lat_tsc(&s->cpu_begin);
		sink += m[page * PAGE + (sink & (PAGE - 1))];
		s->tsc_end = lat_tsc(&s->cpu_end);
		s->flags = 0;
	}
	f->sink = sink;
	run->n = i;
	return 0;
}

static cJSON *file_extras(const struct lat_run *run)
{
	const struct wfile *f = run->priv;
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "file_mode", f->mode == FILE_WARM ? "warm" : "cold");
	cJSON_AddStringToObject(o, "file_dir", f->dir);
	cJSON_AddNumberToObject(o, "file_bytes", (double)FILE_BYTES);
	cJSON_AddBoolToObject(o, "file_on_tmpfs", f->tmpfs);
	cJSON_AddNumberToObject(o, "cached_pages_before", (double)f->cached_before);
	cJSON_AddNumberToObject(o, "cached_pages_after", (double)file_cached(f));
	return o;
}

static void file_print_extras(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	fprintf(out,
		"file: %.0f MiB, unnamed, in %s, mode %s; its pages in the page cache: %.0f before the loop, %.0f after\n",
		lat_rd_num(rd, x, "file_bytes") / (1 << 20), lat_rd_str(rd, x, "file_dir"),
		lat_rd_str(rd, x, "file_mode"), lat_rd_num(rd, x, "cached_pages_before"),
		lat_rd_num(rd, x, "cached_pages_after"));
	if (lat_rd_bool(rd, x, "file_on_tmpfs"))
		fprintf(out,
			"  the directory is on tmpfs: its pages live in memory, nothing is read from storage (no file-io faults); LATCTL_FILE_DIR=DIR on a disk\n");
}

static void file_teardown(struct lat_run *run)
{
	struct wfile *f = run->priv;

	if (!f)
		return;
	if (f->map)
		munmap((void *)f->map, FILE_BYTES);
	if (f->fd >= 0)
		close(f->fd);
	free(f);
	run->priv = NULL;
}

/* The loop maps at most the whole file, from the page cache. */
static uint64_t file_memory_need(const struct lat_run *run)
{
	(void)run;
	return FILE_BYTES;
}

const struct workload_ops wl_file = {
	.name = "file",
	.summary =
		"reads of random pages of a 64 MiB file mapped into memory, cold or warm in the page cache",
	.modes = "cold|warm",
	.unit_name = "read",
	.default_iters = 200000,
	.setup = file_setup,
	.run = file_run,
	.extras = file_extras,
	.print_extras = file_print_extras,
	.teardown = file_teardown,
	.memory_need = file_memory_need,
};
