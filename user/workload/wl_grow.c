// SPDX-License-Identifier: MIT
/*
 * grow: push u64s into a vector that starts empty and doubles with realloc
 * (like Rust's Vec or C++'s std::vector), each push timed alone.
 * Modes: grow (start empty), reserved (full capacity allocated, untouched),
 * touched (reserved and written once before timing).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cleanup.h"
#include "lib/fmt.h"
#include "lib/tsc.h"
#include "workload/workload.h"

#define FIRST_CAP	4	/* first allocation, as Vec<u64> does */
#define MAX_REALLOCS	64

struct grow {
	uint64_t *v;
	size_t len, cap;
	size_t nre;			/* reallocations seen */
	size_t re_index[MAX_REALLOCS];	/* push that reallocated ... */
	size_t re_cap[MAX_REALLOCS];	/* ... and the capacity after it */
};

static int grow_setup(struct lat_run *run)
{
	struct grow *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	run->priv = g;
	if (!strcmp(run->mode, "grow"))
		return 0;
	g->cap = run->iters;
	g->v = malloc(g->cap * sizeof(*g->v));
	if (!g->v)
		return -ENOMEM;
	if (!strcmp(run->mode, "touched"))	/* not 0: calloc could elide it */
		memset(g->v, 0xff, g->cap * sizeof(*g->v));
	return 0;
}

/* One push: double the capacity with realloc when full. -1 on ENOMEM. */
static inline int push(struct grow *g, uint64_t x)
{
	uint64_t *nv;
	size_t nc;

	if (g->len == g->cap) {
		nc = g->cap ? g->cap * 2 : FIRST_CAP;
		nv = realloc(g->v, nc * sizeof(*nv));
		if (!nv)
			return -1;
		g->v = nv;
		g->cap = nc;
	}
	g->v[g->len++] = x;
	return 0;
}

static void note_realloc(struct grow *g, size_t i)
{
	if (g->nre < MAX_REALLOCS) {
		g->re_index[g->nre] = i;
		g->re_cap[g->nre] = g->cap;
	}
	g->nre++;
}

static int grow_run(struct lat_run *run)
{
	struct grow *g = run->priv;
	uint64_t t0, t1;
	uint16_t c0, c1;
	size_t i, cap;
	int err = 0;

	for (i = 0; i < run->iters && !err && !lat_stop_requested; i++) {
		cap = g->cap;
		t0 = lat_tsc(&c0);
		err = push(g, i);
		t1 = lat_tsc(&c1);
		run->samples[i] = (struct lat_sample){ t0, t1, c0, c1, 0 };
		if (g->cap != cap) {
			run->samples[i].flags = LAT_SAMPLE_F_REALLOC;
			note_realloc(g, i);
		}
	}
	run->n = err ? i - 1 : i;
	return err ? -ENOMEM : 0;
}

static cJSON *grow_extras(const struct lat_run *run)
{
	const struct grow *g = run->priv;
	cJSON *o = cJSON_CreateObject(), *last = cJSON_CreateArray(), *it;
	double total = 0, re_ns = 0, ns;
	size_t i, k;

	for (i = 0; i < run->n; i++) {
		ns = lat_sample_ns(run, &run->samples[i]);
		total += ns;
		if (run->samples[i].flags & LAT_SAMPLE_F_REALLOC)
			re_ns += ns;
	}
	for (k = g->nre < MAX_REALLOCS ? g->nre : MAX_REALLOCS; k > 0 && cJSON_GetArraySize(last) < 4; k--) {
		it = cJSON_CreateObject();
		cJSON_AddNumberToObject(it, "index", (double)g->re_index[k - 1]);
		cJSON_AddNumberToObject(it, "ns", lat_sample_ns(run, &run->samples[g->re_index[k - 1]]));
		cJSON_AddNumberToObject(it, "capacity_bytes", (double)(g->re_cap[k - 1] * sizeof(uint64_t)));
		cJSON_AddItemToArray(last, it);
	}
	cJSON_AddNumberToObject(o, "reallocations", (double)g->nre);
	cJSON_AddNumberToObject(o, "realloc_ns", re_ns);
	cJSON_AddNumberToObject(o, "realloc_share", total > 0 ? re_ns / total : 0);
	cJSON_AddItemToObject(o, "last_reallocations", last);
	cJSON_AddNumberToObject(o, "total_ns", total);
	cJSON_AddNumberToObject(o, "capacity_bytes", (double)(g->cap * sizeof(uint64_t)));
	return o;
}

/* "16 MiB", "512 KiB", "32 B" */
static void fmt_bytes(double b, char *buf, size_t len)
{
	if (b >= 1 << 20)
		snprintf(buf, len, "%.0f MiB", b / (1 << 20));
	else if (b >= 1 << 10)
		snprintf(buf, len, "%.0f KiB", b / (1 << 10));
	else
		snprintf(buf, len, "%.0f B", b);
}

static void grow_print_extras(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *last = lat_rd_array(rd, x, "last_reallocations"), *it;
	char cap[32], took[32];
	int first = 1;

	fmt_bytes(lat_rd_num(rd, x, "capacity_bytes"), cap, sizeof(cap));
	fprintf(out, "grow: %.0f reallocations, final capacity %s, total %.1f ms\n",
		lat_rd_num(rd, x, "reallocations"), cap, lat_rd_num(rd, x, "total_ns") / 1e6);
	if (lat_rd_num(rd, x, "reallocations") == 0)
		fputs("no push reallocated: the capacity was allocated before timing\n", out);
	else
		fprintf(out, "the %.0f reallocating pushes take %.1f%% of the total time (%.1f us)\n",
			lat_rd_num(rd, x, "reallocations"), 100 * lat_rd_num(rd, x, "realloc_share"),
			lat_rd_num(rd, x, "realloc_ns") / 1e3);
	cJSON_ArrayForEach(it, last) {
		fmt_bytes(lat_rd_num(rd, it, "capacity_bytes"), cap, sizeof(cap));
		fprintf(out, "%s push %.0f took %s (to %s)", first ? "last reallocations:" : ",",
			lat_rd_num(rd, it, "index"), lat_fmt_time(took, sizeof(took), lat_rd_num(rd, it, "ns")),
			cap);
		first = 0;
	}
	if (!first)
		fputc('\n', out);
}

static void grow_teardown(struct lat_run *run)
{
	struct grow *g = run->priv;

	if (g)
		free(g->v);
	free(g);
	run->priv = NULL;
}

/* The loop's peak: the last doubling holds the old and the new vector (a
 * copy; glibc's mremap of a large block needs less); reserved faults in the
 * whole capacity; touched faulted it in setup. */
static uint64_t grow_memory_need(const struct lat_run *run)
{
	uint64_t cap = FIRST_CAP;

	if (!strcmp(run->mode, "touched"))
		return 0;
	if (!strcmp(run->mode, "reserved"))
		return run->iters * sizeof(uint64_t);
	while (cap < run->iters)
		cap *= 2;
	return cap * sizeof(uint64_t) * 3 / 2;
}

const struct workload_ops wl_grow = {
	.name = "grow",
	.summary = "push u64s into a vector that doubles with realloc",
	.modes = "grow|reserved|touched",
	.unit_name = "push",
	.default_iters = 4000000,
	.setup = grow_setup,
	.run = grow_run,
	.extras = grow_extras,
	.print_extras = grow_print_extras,
	.teardown = grow_teardown,
	.memory_need = grow_memory_need,
	.opts = NULL,		/* no options of its own */
};
