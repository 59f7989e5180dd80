// SPDX-License-Identifier: MIT
/*
 * request: a simulated request handler (the "average hides the slow requests" post). A normal request hashes
 * 256 numbers; one in 100, chosen by a generator seeded with --seed, also
 * hashes 2,000,000 more. The mean is a time no request has, and p99 hides
 * the slow 1%. With --rate HZ the loop is open: request i is due at
 * start + i/HZ whatever happened before, and the report shows the naive
 * percentiles (from the actual start) beside the corrected ones (from the
 * intended start), coordinated omission, as in the "measuring performance" notes.
 *
 * Series: run->samples holds the naive series (actual start to end, the
 * real service time of each request); it is the primary series of the
 * report. The intended start TSCs are kept in a pre-faulted array in priv;
 * the corrected series (end - intended start) exists only in the extras.
 */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cleanup.h"
#include "stats/stats.h"
#include "lib/tsc.h"
#include "workload/workload.h"

/* Its options (request_opts). */
static struct request_cfg {
	double rate_hz;		/* --rate: open loop; 0 = closed */
} cfg;

#define REQ_NUMBERS	256
#define REQ_EXTRA	2000000
#define REQ_ONE_IN	100
#define REQ_SLOW_NS	100000.0	/* "requests over 100 us" */
#define REQ_PAGE	10		/* requests per "page" */
#define REQ_MAX_SECONDS	3600.0		/* refuse an open loop longer than this */

struct request {
	size_t n;
	uint8_t *slow;		/* slow[i]: request i hashes REQ_EXTRA more */
	uint64_t *intended;	/* --rate: intended start TSC of each request */
	double period_ticks;	/* --rate: TSC ticks between intended starts */
	size_t late;		/* --rate: requests that started after their due time */
	uint64_t sink;
};

/* FNV-1a over the 64-bit numbers first..first+count: a dependent chain. */
static uint64_t hash_numbers(uint64_t h, uint64_t first, uint64_t count)
{
	for (uint64_t x = first; x < first + count; x++)
		h = (h ^ x) * 0x100000001B3ULL;
	return h;
}

/* Check --rate, convert it to TSC ticks and pre-fault the intended starts. */
static int request_setup_rate(struct lat_run *run, struct request *r)
{
	double rate = cfg.rate_hz;

	if (!isfinite(rate) || rate <= 0) {
		fprintf(stderr, "request: --rate must be a positive number of requests per second\n");
		return -EINVAL;
	}
	if ((double)r->n / rate > REQ_MAX_SECONDS) {
		fprintf(stderr, "request: %zu requests at --rate %g would take %.0f s; raise --rate or lower --iters\n",
			r->n, rate, (double)r->n / rate);
		return -EINVAL;
	}
	r->period_ticks = run->tsc_hz / rate;
	r->intended = malloc(r->n * sizeof(*r->intended));
	if (!r->intended)
		return -ENOMEM;
	memset(r->intended, 0xff, r->n * sizeof(*r->intended));	/* pre-fault */
	return 0;
}

static void request_teardown(struct lat_run *run);

/* Choose the slow requests with the fixed-seed generator, before timing. */
static int request_prepare(struct lat_run *run)
{
	struct request *r = calloc(1, sizeof(*r));
	uint64_t seed = run->seed;

	if (!r)
		return -ENOMEM;
	run->priv = r;
	r->n = run->iters;
	r->slow = malloc(r->n);
	if (!r->slow)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++)
		r->slow[i] = lat_rand64(&seed) % REQ_ONE_IN == 0;
	if (cfg.rate_hz != 0)
		return request_setup_rate(run, r);
	return 0;
}

/* setup: prepare, or undo everything on failure (the core calls teardown only after success). */
static int request_setup(struct lat_run *run)
{
	int ret = request_prepare(run);

	if (ret)
		request_teardown(run);
	return ret;
}

/* One request: what is timed. */
static inline uint64_t request_handle(const struct request *r, size_t i)
{
	uint64_t h = hash_numbers(0xCBF29CE484222325ULL, i, REQ_NUMBERS);

	if (r->slow[i])
		h = hash_numbers(h, i + REQ_NUMBERS, REQ_EXTRA);
	return h;
}

/* Spin (no syscall) until the TSC reaches due; returns whether it was late. */
static inline int request_wait_until(uint64_t due)
{
	uint16_t cpu;
	uint64_t now = lat_tsc(&cpu);

	if (now > due)
		return 1;
	while (now < due) {
		__builtin_ia32_pause();
		now = lat_tsc(&cpu);
	}
	return 0;
}

/* The timed loop; closed (back to back) or open (--rate, fixed due times). */
static int request_run(struct lat_run *run)
{
	struct request *r = run->priv;
	size_t n = r->n < run->cap ? r->n : run->cap;
	uint64_t sink = 0, start = 0;
	uint16_t cpu;

	if (r->intended)
		start = lat_tsc(&cpu) + (uint64_t)r->period_ticks;
	size_t i;

	for (i = 0; i < n && !lat_stop_requested; i++) {
		struct lat_sample *s = &run->samples[i];

		if (r->intended) {
			r->intended[i] = start + (uint64_t)((double)i * r->period_ticks + 0.5);
			r->late += request_wait_until(r->intended[i]);
		}
		s->tsc_begin = lat_tsc(&s->cpu_begin);
		sink += request_handle(r, i);
		s->tsc_end = lat_tsc(&s->cpu_end);
		s->flags = r->slow[i] ? LAT_SAMPLE_F_SPECIAL : 0;
	}
	r->sink = sink;
	run->n = i;		/* fewer after a Ctrl-C */
	return 0;
}

/* Counts over one series: over 100 us, within [mean/2, 2*mean], bad pages. */
static cJSON *request_counts(const double *ns, size_t n)
{
	cJSON *o = cJSON_CreateObject();
	size_t over = 0, near = 0, pages = 0, bad = 0;
	double mean = 0;

	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++)
		mean += ns[i] / (double)n;
	for (size_t i = 0; i < n; i += REQ_PAGE) {
		int hit = 0;

		for (size_t j = i; j < n && j < i + REQ_PAGE; j++) {
			over += ns[j] > REQ_SLOW_NS;
			hit |= ns[j] > REQ_SLOW_NS;
			near += ns[j] >= mean / 2 && ns[j] <= mean * 2;
		}
		pages++;
		bad += hit;
	}
	cJSON_AddNumberToObject(o, "mean_ns", mean);
	cJSON_AddNumberToObject(o, "over_100us", (double)over);
	cJSON_AddNumberToObject(o, "near_mean", (double)near);
	cJSON_AddNumberToObject(o, "pages", (double)pages);
	cJSON_AddNumberToObject(o, "pages_with_slow", (double)bad);
	return o;
}

static const double req_pcts[] = { 50, 90, 99, 99.9, 100 };

/* The percentiles of the naive/corrected table for one series (sorts ns). */
static cJSON *request_percentiles(double *ns, size_t n)
{
	struct lat_summary sum;
	cJSON *a = cJSON_CreateArray();

	if (!a || lat_summary_compute(ns, n, &sum) < 0)
		return a;
	for (size_t i = 0; i < sizeof(req_pcts) / sizeof(req_pcts[0]); i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(lat_percentile_sorted(ns, n, req_pcts[i])));
	return a;
}

/* Adds counts and percentiles of one series under key. */
static void request_add_series(cJSON *o, const char *key, double *ns, size_t n)
{
	cJSON *s = request_counts(ns, n);

	if (!s)
		return;
	cJSON_AddItemToObject(s, "percentiles", request_percentiles(ns, n));
	cJSON_AddItemToObject(o, key, s);
}

static cJSON *request_extras(const struct lat_run *run)
{
	const struct request *r = run->priv;
	cJSON *o = cJSON_CreateObject();
	double *ns = malloc((run->n ? run->n : 1) * sizeof(*ns));
	size_t chosen = 0;

	if (!o || !ns || !run->n)
		goto out;
	for (size_t i = 0; i < run->n; i++)
		chosen += r->slow[i];
	cJSON_AddNumberToObject(o, "requests", (double)run->n);
	cJSON_AddNumberToObject(o, "slow_chosen", (double)chosen);
	cJSON_AddNumberToObject(o, "extra_numbers", REQ_EXTRA);
	cJSON_AddStringToObject(o, "primary_series", "naive: actual start to end (service time)");
	cJSON_AddItemToObject(o, "percentile_ranks", cJSON_CreateDoubleArray(req_pcts, 5));
	for (size_t i = 0; i < run->n; i++)
		ns[i] = lat_sample_ns(run, &run->samples[i]);
	request_add_series(o, "naive", ns, run->n);
	if (r->intended) {
		cJSON_AddNumberToObject(o, "rate_hz", cfg.rate_hz);
		cJSON_AddNumberToObject(o, "started_late", (double)r->late);
		for (size_t i = 0; i < run->n; i++)
			ns[i] = (double)(run->samples[i].tsc_end - r->intended[i]) * 1e9 / run->tsc_hz;
		request_add_series(o, "corrected", ns, run->n);
	}
out:
	free(ns);
	return o;
}

/* The three count lines of one series. */
static void request_print_counts(const cJSON *s, const char *what, FILE *out, struct lat_rd *rd)
{
	double pages = lat_rd_num(rd, s, "pages");

	fprintf(out, "%srequests over 100 us: %.0f; requests between half and twice the mean (%.1f us): %.0f\n",
		what, lat_rd_num(rd, s, "over_100us"), lat_rd_num(rd, s, "mean_ns") / 1e3, lat_rd_num(rd, s, "near_mean"));
	fprintf(out, "%spages of %d requests that contain at least one request over 100 us: %.0f of %.0f (%.1f%%)\n",
		what, REQ_PAGE, lat_rd_num(rd, s, "pages_with_slow"), pages,
		pages ? 100.0 * lat_rd_num(rd, s, "pages_with_slow") / pages : 0.0);
}

/* The side-by-side table: naive and corrected percentiles in us. */
static void request_print_table(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *ranks = lat_rd_array(rd, x, "percentile_ranks");
	const cJSON *nv = lat_rd_array(rd, lat_rd_obj(rd, x, "naive"), "percentiles");
	const cJSON *co = lat_rd_array(rd, lat_rd_obj(rd, x, "corrected"), "percentiles");
	int n = cJSON_GetArraySize(ranks);

	fprintf(out, "open loop at %.0f requests/s: %.0f of %.0f requests started after their intended time\n",
		lat_rd_num(rd, x, "rate_hz"), lat_rd_num(rd, x, "started_late"), lat_rd_num(rd, x, "requests"));
	for (int i = 0; i < n; i++) {
		const cJSON *a = cJSON_GetArrayItem(nv, i), *b = cJSON_GetArrayItem(co, i);
		const cJSON *rk = cJSON_GetArrayItem(ranks, i);
		double rank = cJSON_IsNumber(rk) ? rk->valuedouble : 0;
		char label[16];

		lat_rd_expect(rd, cJSON_IsNumber(rk) && cJSON_IsNumber(a) && cJSON_IsNumber(b),
			      "percentiles");
		if (rank >= 100)
			snprintf(label, sizeof(label), "max");
		else
			snprintf(label, sizeof(label), "p%g", rank);
		fprintf(out, "%-6s naive %10.1f us   corrected %10.1f us\n", label,
			cJSON_IsNumber(a) ? a->valuedouble / 1e3 : 0.0,
			cJSON_IsNumber(b) ? b->valuedouble / 1e3 : 0.0);
	}
}

static void request_print_extras(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *co = cJSON_GetObjectItemCaseSensitive(x, "corrected");	/* open loop */
	double n = lat_rd_num(rd, x, "requests");

	fprintf(out, "%.0f requests; %.0f (%.2f%%) chosen by the generator to hash %.0f more numbers\n",
		n, lat_rd_num(rd, x, "slow_chosen"), n ? 100.0 * lat_rd_num(rd, x, "slow_chosen") / n : 0.0,
		lat_rd_num(rd, x, "extra_numbers"));
	request_print_counts(lat_rd_obj(rd, x, "naive"), "", out, rd);
	lat_rd_expect(rd, !co == !cJSON_GetObjectItemCaseSensitive(x, "rate_hz"), "corrected");
	lat_rd_expect(rd, !co || cJSON_IsObject(co), "corrected");
	if (!co) {
		fprintf(out, "closed loop: each request starts when the previous one ends (see --rate)\n");
		return;
	}
	fprintf(out, "the summary above is the naive series (from the actual start); corrected = from the intended start\n");
	request_print_table(x, out, rd);
	request_print_counts(co, "corrected: ", out, rd);
}

static void request_teardown(struct lat_run *run)
{
	struct request *r = run->priv;

	if (!r)
		return;
	free(r->slow);
	free(r->intended);
	free(r);
	run->priv = NULL;
}

static const struct lat_wl_opt request_opts[] = {
	{ "rate", LAT_WL_OPT_RATE, "HZ", "open loop: intended starts every 1/HZ seconds",
	  "rate_hz", offsetof(struct request_cfg, rate_hz) },
	{ NULL },
};

const struct workload_ops wl_request = {
	.name = "request",
	.summary = "request handler, 1 in 100 requests 10000x slower; --rate for open loop (coordinated omission)",
	.modes = NULL,
	.unit_name = "request",
	.default_iters = 20000,
	.setup = request_setup,
	.run = request_run,
	.extras = request_extras,
	.print_extras = request_print_extras,
	.teardown = request_teardown,
	.opts = request_opts,
	.config = &cfg,
	.config_size = sizeof(cfg),
};
