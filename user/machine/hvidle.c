// SPDX-License-Identifier: MIT
/* The hypervisor probe's idle pass (hvprobe.h): gaps no guest event explains. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "machine/hvprobe.h"
#include "lib/tsc.h"

#define NOISE_MIN_UNSEEN 10 /* idle gaps no guest event explains, at least */
#define NOISE_MIN_RATE 20.0 /* ... and this many a second */

/* The count in column cpu of one /proc/interrupts row ("LOC: 1 2 ..."); 0
 * for rows with one count for all CPUs (ERR, MIS). */
static uint64_t row_count(const char *line, int cpu, int ncpu)
{
	const char *p = strchr(line, ':');
	unsigned long long v = 0;
	char *end;
	int i;

	if (!p)
		return 0;
	for (p++, i = 0; i < ncpu; i++, p = end) {
		unsigned long long x = strtoull(p, &end, 10);

		if (end == p)
			return 0;
		if (i == cpu)
			v = x;
	}
	return v;
}

/* Interrupts of this CPU so far (every row: NMIs and IPIs too); rows are
 * read whole, however many CPUs they have columns for. */
static uint64_t cpu_irqs(int cpu)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char *line = NULL, *p;
	size_t cap = 0;
	uint64_t n = 0;
	int ncpu = 0;

	if (!f)
		return 0;
	if (getline(&line, &cap, f) > 0)
		for (p = line; (p = strstr(p, "CPU")); p += 3)
			ncpu++;
	while (cpu < ncpu && getline(&line, &cap, f) > 0)
		n += row_count(line, cpu, ncpu);
	free(line);
	fclose(f);
	return n;
}

static uint64_t switches(void)
{
	struct rusage r;

	if (getrusage(RUSAGE_THREAD, &r))
		return 0;
	return (uint64_t)r.ru_nvcsw + (uint64_t)r.ru_nivcsw;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Read the TSC back to back for secs; gaps into gap (up to cap). */
static void spin(struct lat_hv_idle *s, double secs, double hz, uint64_t *gap, size_t cap)
{
	uint64_t lo = (uint64_t)(LAT_HV_GAP_MIN_NS * hz / 1e9);
	uint64_t hi = (uint64_t)(LAT_HV_GAP_MAX_NS * hz / 1e9);
	uint64_t start, prev, t, d;
	uint16_t cpu;

	start = prev = lat_tsc(&cpu);
	while ((double)(prev - start) < secs * hz) {	/* not truncated: at least secs */
		t = lat_tsc(&cpu);
		d = t - prev;
		prev = t;
		if (d >= lo && d < hi && s->gaps < cap)
			gap[s->gaps++] = d;
	}
	s->secs = (double)(prev - start) / hz;
}

int lat_hv_idle_run(struct lat_hv_idle *s, double secs, double hz, uint64_t *gap, size_t cap)
{
	int cpu = sched_getcpu();
	uint64_t irq0, sw0;

	memset(s, 0, sizeof(*s));
	if (cpu < 0)
		return -errno;
	irq0 = cpu_irqs(cpu);
	sw0 = switches();
	spin(s, secs, hz, gap, cap);
	s->switches = switches() - sw0;
	s->irqs = cpu_irqs(cpu) - irq0;
	qsort(gap, s->gaps, sizeof(*gap), cmp_u64);
	s->gap_median_ns = s->gaps ? (double)gap[s->gaps / 2] * 1e9 / hz : 0;
	return 0;
}

uint64_t lat_hv_idle_unseen(const struct lat_hv_idle *s)
{
	uint64_t seen = s->irqs + s->switches;

	return s->gaps > seen ? s->gaps - seen : 0;
}

void lat_hv_idle_judge(struct lat_hv_probe *p)
{
	const struct lat_hv_idle *s = &p->idle;
	uint64_t unseen = lat_hv_idle_unseen(s);
	double rate = s->secs > 0 ? (double)unseen / s->secs : 0;

	p->noise = p->guest && unseen >= NOISE_MIN_UNSEEN && rate >= NOISE_MIN_RATE;
	if (!p->guest)
		snprintf(p->noise_verdict, sizeof(p->noise_verdict),
			 "not a guest: no hypervisor to show");
	else if (p->noise)
		snprintf(
			p->noise_verdict, sizeof(p->noise_verdict),
			"shown: %llu gaps in %.2f s of doing nothing, %llu interrupts and %llu switches: at least %llu gaps (%.0f a second) are time the guest does not see",
			(unsigned long long)s->gaps, s->secs, (unsigned long long)s->irqs,
			(unsigned long long)s->switches, (unsigned long long)unseen, rate);
	else
		snprintf(
			p->noise_verdict, sizeof(p->noise_verdict),
			"not shown: %llu gaps in %.2f s of doing nothing, %llu interrupts and %llu switches could make them all but %llu (shown needs %d and %.0f a second)",
			(unsigned long long)s->gaps, s->secs, (unsigned long long)s->irqs,
			(unsigned long long)s->switches, (unsigned long long)unseen,
			NOISE_MIN_UNSEEN, NOISE_MIN_RATE);
}

double lat_hv_noise_rate(const cJSON *doc)
{
	const cJSON *idle = cJSON_GetObjectItemCaseSensitive(doc, "idle");
	double rate = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(idle, "gaps_per_s"));

	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "noise")) || !(rate > 0))
		return 0;
	return rate;
}
