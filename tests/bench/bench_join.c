// SPDX-License-Identifier: MIT
/*
 * Benchmark of the join (user/join/): a synthetic run of 4,000,000 samples
 * and 1,000,000 latmon events on 2 CPUs, events delivered as a reader sees
 * them (per-CPU rings, each in record order, read in interleaved chunks).
 * Prints the time of join_run() and of the JSON conversion. Not a test: it
 * asserts nothing about time. Usage: bench_join [SAMPLES [EVENTS]]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "join/join.h"
#include "../unit/lm_event.h"
#include "report/render.h"

#define TID		1000
#define TSC_HZ		3e9
#define SLOW_TICKS	3000	/* 1 us at 3 GHz */
#define CHUNK		4096	/* records per read() of one ring */

struct ring {
	struct latmon_event *ev;
	size_t n, cap;
};

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(uint64_t n)
{
	return lat_rand64(&rnd_state) % n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Append a record to a ring (records in a ring are in order of their end). */
static struct latmon_event *put(struct ring *r, int type, int cpu, uint32_t tid,
				uint64_t b, uint64_t e)
{
	uint64_t seq = r->n++;

	return lm_event_fill(&r->ev[seq], type, cpu, TID, tid, seq, b, e);
}

/* The kernel activity inside one sample starting at t; returns its length. */
static uint64_t activity(struct ring *rings, uint64_t t, size_t *left)
{
	uint64_t k = rnd(100), len;

	if (k < 5 && *left >= 2) {		/* THP clear inside a fault */
		len = 600000 + rnd(300000);
		put(&rings[0], LATMON_EV_THP_CLEAR, 0, TID, t + 2000, t + 2000 + len);
		put(&rings[0], LATMON_EV_FAULT, 0, TID, t + 1000, t + len + 4000)
			->u.fault.flags = LATMON_FAULT_F_HUGE;
		*left -= 2;
		return len + 5000;
	}
	(*left)--;
	if (k < 45) {				/* 4 KiB fault */
		len = 500 + rnd(3000);
		put(&rings[0], LATMON_EV_FAULT, 0, TID, t + 50, t + 50 + len)
			->u.fault.address = 0x7f0000000000ULL + (t & ~0xfffULL);
		return len + 100;
	}
	if (k < 75) {				/* timer interrupt */
		len = 1000 + rnd(5000);
		put(&rings[0], LATMON_EV_IRQ, 0, TID, t + 30, t + 30 + len)->u.irq.kind =
			LATMON_IRQ_TIMER;
		return len + 60;
	}
	if (k < 90) {				/* preempted */
		len = 10000 + rnd(3000000);
		put(&rings[0], LATMON_EV_SCHED, 0, TID, t + 40, t + 40 + len)
			->u.sched.flags = LATMON_SCHED_F_PREEMPTED;
		return len + 80;
	}
	put(&rings[1], LATMON_EV_FAULT, 1, TID + 1, t, t + 2000);	/* other thread */
	return 0;
}

/* Fill samples; put events in two rings. */
static void generate(struct lat_sample *s, size_t ns, struct ring *rings, size_t nev)
{
	uint64_t t = 1000000;
	size_t i, left = nev;

	for (i = 0; i < ns; i++) {
		uint64_t d = 80 + rnd(60);

		/* spread the events evenly over the run */
		if (left && rnd(ns - i) < left)
			d += activity(rings, t, &left);
		s[i] = (struct lat_sample){ t, t + d, 0, 0, 0 };
		if (!rnd(5000))
			s[i].cpu_end = 1;
		if (!rnd(1000))
			s[i].flags = LAT_SAMPLE_F_REALLOC;
		t += d + 20 + rnd(20);
		if (i % (ns / 5) == ns / 5 - 1)	/* 4-5 lost records on ring 0 */
			put(&rings[0], LATMON_EV_LOST, 0, 0, t, t)->u.lost.count = 100;
	}
}

/* What a reader gets: CHUNK records of ring 0, then of ring 1, and so on. */
static size_t interleave(const struct ring *rings, struct latmon_event *out)
{
	size_t pos[2] = { 0, 0 }, n = 0;
	int r;

	while (pos[0] < rings[0].n || pos[1] < rings[1].n) {
		for (r = 0; r < 2; r++) {
			size_t k = rings[r].n - pos[r] < CHUNK ? rings[r].n - pos[r] : CHUNK;

			memcpy(out + n, rings[r].ev + pos[r], k * sizeof(*out));
			pos[r] += k;
			n += k;
		}
	}
	return n;
}

/* Milliseconds to render the text report (to /dev/null). */
static double print_ms(const cJSON *causes, const cJSON *iters)
{
	FILE *f = fopen("/dev/null", "w");
	double t0 = now_s();

	if (!f)
		return -1;
	join_print(causes, iters, f);
	fclose(f);
	return (now_s() - t0) * 1e3;
}

static int bench(size_t ns, size_t nev)
{
	struct lat_sample *s = malloc(ns * sizeof(*s));
	struct ring rings[2] = { { malloc((nev + 8) * sizeof(struct latmon_event)), 0, 0 },
				 { malloc((nev + 8) * sizeof(struct latmon_event)), 0, 0 } };
	struct latmon_event *ev = malloc((nev + 8) * sizeof(*ev));
	struct join_result r;
	struct join_input in = { .n_samples = ns, .slow_ticks = SLOW_TICKS, .tid = TID,
				 .have_events = true, .tsc_hz = TSC_HZ };
	double t0, t1, t2, t3, text_ms;
	cJSON *iters, *causes, *capped;
	int ret;

	if (!s || !rings[0].ev || !rings[1].ev || !ev) {
		fprintf(stderr, "bench_join: out of memory for %zu samples\n", ns);
		return 1;
	}
	generate(s, ns, rings, nev);
	in.samples = s;
	in.events = ev;
	in.n_events = interleave(rings, ev);
	t0 = now_s();
	ret = join_run(&in, &r);
	t1 = now_s();
	if (ret) {
		fprintf(stderr, "bench_join: join_run failed: %s\n", strerror(-ret));
		return 1;
	}
	iters = join_to_json(&r);
	causes = cause_table_to_json(&r);
	t2 = now_s();
	capped = join_to_json_max(&r, 10000);
	t3 = now_s();
	text_ms = print_ms(causes, iters);
	printf("join: %zu samples, %zu events, %zu slow iterations (>= %d ticks): %.0f ms\n",
	       ns, in.n_events, r.n_iters, SLOW_TICKS, (t1 - t0) * 1e3);
	printf("json: %zu iterations and the cause table as cJSON: %.0f ms\n",
	       r.n_iters, (t2 - t1) * 1e3);
	printf("json: the 10000 slowest (join_to_json_max): %.0f ms\n", (t3 - t2) * 1e3);
	printf("text: cause table and ten slowest from the full JSON: %.0f ms\n", text_ms);
	join_print(causes, NULL, stdout);
	cJSON_Delete(iters);
	cJSON_Delete(causes);
	cJSON_Delete(capped);
	join_result_free(&r);
	free(s);
	free(ev);
	free(rings[0].ev);
	free(rings[1].ev);
	return 0;
}

int main(int argc, char **argv)
{
	size_t ns = argc > 1 ? strtoull(argv[1], NULL, 0) : 4000000;
	size_t nev = argc > 2 ? strtoull(argv[2], NULL, 0) : 1000000;

	if (!ns || nev > ns) {
		fprintf(stderr, "usage: bench_join [SAMPLES [EVENTS]] (EVENTS <= SAMPLES)\n");
		return 2;
	}
	return bench(ns, nev);
}
