// SPDX-License-Identifier: MIT
/* The BPF clock on the TSC (see ktime_tsc.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/bpf/ktime_tsc.h"
#include "lib/tsc.h"

void lat_ktime_point(struct lat_ktime_point *p, int tries)
{
	struct timespec ts;
	uint64_t t0, t1;
	uint16_t cpu;
	int i;

	memset(p, 0, sizeof(*p));
	p->window = UINT64_MAX;
	for (i = 0; i < tries; i++) {
		t0 = lat_tsc(&cpu);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t1 = lat_tsc(&cpu);
		if (t1 < t0 || t1 - t0 >= p->window)
			continue;
		p->window = t1 - t0;
		p->tsc = t0 + (t1 - t0) / 2;
		p->ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	}
}

int lat_ktime_begin(struct lat_ktime_map *m, double tsc_hz)
{
	memset(m, 0, sizeof(*m));
	m->tsc_hz = tsc_hz;
	m->ticks_per_ns = tsc_hz / 1e9;
	m->mid = calloc(LAT_KTIME_MAX_MID, sizeof(*m->mid));
	if (!m->mid)
		return -ENOMEM;
	memset(m->mid, 0, LAT_KTIME_MAX_MID * sizeof(*m->mid));
	lat_ktime_point(&m->start, LAT_KTIME_PAIRS);
	return 0;
}

void lat_ktime_mid(struct lat_ktime_map *m)
{
	if (m->mid && m->n_mid < LAT_KTIME_MAX_MID)
		lat_ktime_point(&m->mid[m->n_mid++], LAT_KTIME_MID_PAIRS);
}

void lat_ktime_free(struct lat_ktime_map *m)
{
	free(m->mid);
	m->mid = NULL;
}

/* Largest distance in ns of a mid point from the mapping, and the widest
 * half-window of all points. */
static void check_mid(struct lat_ktime_map *m, double *half)
{
	double d;
	size_t i;

	*half = (double)(m->start.window > m->end.window ? m->start.window : m->end.window) / 2;
	for (i = 0; i < m->n_mid; i++) {
		d = fabs((double)m->mid[i].tsc - (double)lat_ktime_to_tsc(m, m->mid[i].ns));
		if (d > m->residual_ns)
			m->residual_ns = d;
		if ((double)m->mid[i].window / 2 > *half)
			*half = (double)m->mid[i].window / 2;
	}
	m->residual_ns *= 1e9 / m->tsc_hz;
	*half *= 1e9 / m->tsc_hz;
}

void lat_ktime_end(struct lat_ktime_map *m)
{
	double span, predicted, half;

	lat_ktime_point(&m->end, LAT_KTIME_PAIRS);
	m->have_end = 1;
	span = (double)m->end.ns - (double)m->start.ns;
	if (span > 0)
		m->ticks_per_ns = ((double)m->end.tsc - (double)m->start.tsc) / span;
	predicted = (double)m->start.tsc + span * m->tsc_hz / 1e9;
	m->drift_ns = ((double)m->end.tsc - predicted) * 1e9 / m->tsc_hz;
	check_mid(m, &half);
	m->error_ns = m->residual_ns + half;
	m->worse = m->error_ns > LAT_KTIME_BOUND_NS;
}

uint64_t lat_ktime_to_tsc(const struct lat_ktime_map *m, uint64_t ns)
{
	double d = ((double)ns - (double)m->start.ns) * m->ticks_per_ns;

	return (uint64_t)llround((double)m->start.tsc + d);
}

cJSON *lat_ktime_json(const struct lat_ktime_map *m)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "clock", "bpf_ktime_get_ns (CLOCK_MONOTONIC)");
	cJSON_AddNumberToObject(o, "pairs_per_point", LAT_KTIME_PAIRS);
	cJSON_AddNumberToObject(o, "start_window_ns", (double)m->start.window * 1e9 / m->tsc_hz);
	cJSON_AddNumberToObject(o, "end_window_ns", (double)m->end.window * 1e9 / m->tsc_hz);
	cJSON_AddNumberToObject(o, "span_s", ((double)m->end.ns - (double)m->start.ns) / 1e9);
	cJSON_AddNumberToObject(o, "ticks_per_ns", m->ticks_per_ns);
	cJSON_AddNumberToObject(o, "drift_ns", m->drift_ns);
	cJSON_AddNumberToObject(o, "checkpoints", (double)m->n_mid);
	cJSON_AddNumberToObject(o, "residual_ns", m->residual_ns);
	cJSON_AddNumberToObject(o, "error_ns", m->error_ns);
	cJSON_AddNumberToObject(o, "bound_ns", LAT_KTIME_BOUND_NS);
	cJSON_AddBoolToObject(o, "checked", m->have_end);
	cJSON_AddBoolToObject(o, "worse_than_bound", m->worse);
	return o;
}
