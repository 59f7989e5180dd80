// SPDX-License-Identifier: MIT
/*
 * lmmm: latctl's memory environment (user/system/mmenv.c: --fragment, --memcg,
 * --thp-size) around a plain touch of fresh memory, so that the VM tests can
 * record the raw compaction, reclaim and zeroing records of a known
 * workload with `lmtool record`. Between the two sync points (sync.h) it
 * writes one byte per STEP bytes of a fresh SIZE mapping, aligned to 2 MiB.
 * Prints "minflt=N" and the "mm" object of the result as one JSON line.
 *
 *   lmmm [--fragment] [--memcg SIZE] [--thp-size S=MODE]... [--step N] SIZE
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "system/mmenv.h"
#include "sync.h"

#define ALIGN	(2UL << 20)

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static int parse(int argc, char **argv, struct lat_mm_opts *o, unsigned long *step,
		 uint64_t *size)
{
	static const struct option longopts[] = {
		{ "fragment", no_argument, NULL, 'f' },
		{ "memcg", required_argument, NULL, 'm' },
		{ "step", required_argument, NULL, 's' },
		{ "thp-size", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'f')
			o->fragment = 1;
		else if (c == 'm' && lat_mm_parse_size("--memcg", optarg, &o->memcg_bytes))
			return -1;
		else if (c == 's')
			*step = strtoul(optarg, NULL, 0);
		else if (c == 't' && (o->n_thp_size == LAT_THP_SIZE_MAX ||
				      lat_thp_size_parse(optarg, &o->thp_size[o->n_thp_size++])))
			return -1;
		else if (c == '?')
			return -1;
	}
	if (optind + 1 != argc || !*step)
		return -1;
	return lat_mm_parse_size("SIZE", argv[optind], size);
}

/* Touch one byte per step of a fresh, 2 MiB aligned mapping of size bytes. */
static long touch(uint64_t size, unsigned long step)
{
	char *raw = mmap(NULL, size + ALIGN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *p;
	uint64_t off;
	long before;

	if (raw == MAP_FAILED)
		return -1;
	p = (char *)(((uintptr_t)raw + ALIGN - 1) & ~(ALIGN - 1));
	if (lm_sync())
		return -1;
	before = minflt();
	for (off = 0; off < size; off += step)
		p[off] = 1;
	before = minflt() - before;
	return lm_sync() ? -1 : before;
}

int main(int argc, char **argv)
{
	struct lat_mm_opts o;
	unsigned long step = 4096;
	uint64_t size = 0;
	cJSON *mm;
	char *text;
	long n;

	memset(&o, 0, sizeof(o));
	if (parse(argc, argv, &o, &step, &size)) {
		fprintf(stderr, "usage: lmmm [--fragment] [--memcg SIZE] [--thp-size S=MODE]... [--step N] SIZE\n");
		return 2;
	}
	if (lat_mm_env_prepare(&o))
		return 1;
	if (lat_mm_env_enter()) {	/* as latctl around its loop */
		lat_mm_env_restore();
		return 1;
	}
	n = touch(size, step);
	lat_mm_env_leave();
	mm = lat_mm_env_json();
	text = cJSON_PrintUnformatted(mm);
	printf("minflt=%ld\n%s\n", n, text ? text : "null");
	free(text);
	cJSON_Delete(mm);
	lat_mm_env_restore();
	return n < 0;
}
