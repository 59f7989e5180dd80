// SPDX-License-Identifier: MIT
/* TSC frequency (from the kernel or calibrated) and the cost of a read pair. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lib/tsc.h"

#define CALIBRATE_NS	80000000ULL	/* 80 ms against CLOCK_MONOTONIC_RAW */
#define PAIR_ROUNDS	100000

static double tsc_hz;
static const char *tsc_hz_from = "unknown";

static uint64_t mono_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The kernel's own tsc_khz, where a sysfs file exports it. 0 if none. */
static double tsc_hz_from_sysfs(void)
{
	const char *path = getenv("LATCTL_TSC_KHZ_FILE");
	unsigned long long khz = 0;
	FILE *f;

	if (!path)
		path = "/sys/devices/system/cpu/cpu0/tsc_freq_khz";
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &khz) != 1)
		khz = 0;
	fclose(f);
	return (double)khz * 1000.0;
}

/* Count TSC ticks across ~80 ms of CLOCK_MONOTONIC_RAW (not NTP-slewed). */
static double tsc_hz_calibrate(void)
{
	uint64_t t0, t1, c0, c1;
	uint16_t cpu;

	t0 = mono_raw_ns();
	c0 = lat_tsc(&cpu);
	do {
		t1 = mono_raw_ns();
		c1 = lat_tsc(&cpu);
	} while (t1 - t0 < CALIBRATE_NS);
	return (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
}

int lat_tsc_aux_not_cpu;

/* Whether TSC_AUX holds Linux's CPU number, once at start: most of 8 reads
 * next to getcpu() disagree when it does not. */
__attribute__((constructor)) static void check_aux(void)
{
	uint32_t lo, hi, aux;
	int differ = 0, i;

	for (i = 0; i < 8; i++) {
		__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
		differ += (int)(aux & 0xfff) != sched_getcpu();
	}
	lat_tsc_aux_not_cpu = differ > 4;
}

double lat_tsc_hz(void)
{
	if (tsc_hz > 0)
		return tsc_hz;
	tsc_hz = tsc_hz_from_sysfs();
	if (tsc_hz > 0) {
		tsc_hz_from = "from the kernel, tsc_freq_khz";
		return tsc_hz;
	}
	tsc_hz = tsc_hz_calibrate();
	tsc_hz_from = "calibrated against CLOCK_MONOTONIC_RAW over 80 ms";
	return tsc_hz;
}

void lat_tsc_use_hz(double hz, const char *from)
{
	if (hz <= 0)
		return;
	tsc_hz = hz;
	tsc_hz_from = from;
}

const char *lat_tsc_hz_source(void)
{
	lat_tsc_hz();
	return tsc_hz_from;
}

/* Smallest delta of back-to-back lat_tsc() pairs: what an empty iteration costs. */
uint64_t lat_tsc_pair_cost(void)
{
	uint64_t best = UINT64_MAX, a, b;
	uint16_t cpu;
	int i;

	for (i = 0; i < PAIR_ROUNDS; i++) {
		a = lat_tsc(&cpu);
		b = lat_tsc(&cpu);
		if (b > a && b - a < best)
			best = b - a;
	}
	return best == UINT64_MAX ? 0 : best;
}
