// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: latmon's event records as latctl decodes them. The input
 * is cut into whole struct latmon_event records as the reader's read() loop
 * does (a trailing partial record is dropped: truncated input), any type,
 * size, cpu, seq, timestamps or lost counts, and joined with a fixed
 * synthetic run of two streams (threads 100 and 101) by lat_causes_add(),
 * the function `latctl run` calls; then the cause table and slow list are
 * printed as the report prints them. Checked: every joined iteration's net
 * breakdown sums exactly to its duration (join.h) and every record is
 * counted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "join/causes.h"
#include "join/join.h"
#include "report/render.h"

#define N_SAMPLES	64
#define STREAM1		48		/* first sample of thread 101 */
#define T0		1000000ULL	/* seeds use timestamps near this */
#define STEP		10000ULL	/* one sample per 10 us at 1 GHz */

static struct lat_sample samples[N_SAMPLES];
static struct lat_stream streams[] = { { .tid = 100 }, { .tid = 101 } };
static struct lat_run run = {
	.n = N_SAMPLES, .samples = samples, .tsc_hz = 1e9, .streams = streams, .n_streams = 2
};
static FILE *devnull;

/* Mostly 2 us iterations, every 8th 9 us (slow), one migrated, one realloc. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	for (i = 0; i < N_SAMPLES; i++) {
		samples[i].tsc_begin = T0 + i * STEP;
		samples[i].tsc_end = samples[i].tsc_begin + (i % 8 == 7 ? 9000 : 2000);
		samples[i].cpu_begin = samples[i].cpu_end = i >= STREAM1;
	}
	samples[STREAM1].flags = LAT_SAMPLE_F_NEWSTREAM;
	samples[15].cpu_end = 1;
	samples[23].flags = LAT_SAMPLE_F_REALLOC;
	devnull = fopen("/dev/null", "w");
	return devnull ? 0 : -1;
}

/* The join of stream 0 alone, with the invariants of join.h. */
static void check_join(const struct latmon_event *ev, size_t n)
{
	struct join_input in = { .samples = samples, .n_samples = STREAM1,
				 .slow_ticks = 5000, .tid = 100, .events = ev,
				 .n_events = n, .have_events = true, .tsc_hz = 1e9 };
	struct join_result r;
	size_t i;
	int l;

	if (join_run(&in, &r))
		abort();
	if (r.stats.events != n || r.n_iters != STREAM1 / 8)
		abort();
	for (i = 0; i < r.n_iters; i++) {
		uint64_t sum = 0;

		for (l = 0; l < JOIN_NR_LABELS; l++)
			sum += r.iters[i].ticks[l];
		if (sum != r.iters[i].duration)
			abort();
	}
	join_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / sizeof(struct latmon_event), i;
	struct latmon_event *ev = malloc(n ? n * sizeof(*ev) : 1);
	struct lat_causes_in in = { .run = &run, .events = ev, .n_events = n,
				    .have_events = true, .threshold = "5us",
				    .limit_ns = 5000, .tsc_before = T0,
				    .tsc_after = T0 + N_SAMPLES * STEP };
	cJSON *doc = cJSON_CreateObject();

	if (!ev || !doc)
		abort();
	memcpy(ev, data, n * sizeof(*ev));
	for (i = 0; i < n; i++)		/* pid 1 in a seed: this process */
		if (ev[i].pid == 1)
			ev[i].pid = (uint32_t)getpid();
	check_join(ev, n);
	if (lat_causes_add(doc, &in))
		abort();
	join_print(cJSON_GetObjectItemCaseSensitive(doc, "causes"),
		   cJSON_GetObjectItemCaseSensitive(
			   cJSON_GetObjectItemCaseSensitive(doc, "slow"), "iterations"),
		   devnull);
	cJSON_Delete(doc);
	free(ev);
	return 0;
}
