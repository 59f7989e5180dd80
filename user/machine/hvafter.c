// SPDX-License-Identifier: MIT
/* A run's own evidence of the hypervisor's time, where no probe is stored
 * (hvprobe.h): around a fault, and the idle pass's gaps. */
#include <stdlib.h>
#include <string.h>

#include "latmon.h"
#include "machine/hvprobe.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median duration of the fault records in ticks; 0 with fewer than
 * LAT_HV_AFTER_MIN_FAULTS of them. */
static uint64_t fault_median(const struct latmon_event *ev, size_t n, size_t *count)
{
	uint64_t *d = malloc((n ? n : 1) * sizeof(*d)), m = 0;
	size_t i, k = 0;

	if (!d)
		return 0;
	for (i = 0; i < n; i++)
		if (ev[i].type == LATMON_EV_FAULT && ev[i].tsc_end >= ev[i].tsc_begin)
			d[k++] = ev[i].tsc_end - ev[i].tsc_begin;
	*count = k;
	if (k >= LAT_HV_AFTER_MIN_FAULTS) {
		qsort(d, k, sizeof(*d), cmp_u64);
		m = d[k / 2];
	}
	free(d);
	return m;
}

int lat_hv_real_guest(const cJSON *facts)
{
	const char *hv =
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(facts, "hypervisor"));
	const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(facts, "kind"));

	return hv && !(kind && strstr(kind, "TCG"));
}

int lat_hv_after_fault(const cJSON *facts, const struct latmon_event *ev, size_t n, double tsc_hz,
		       cJSON **o)
{
	const cJSON *ft = cJSON_GetObjectItemCaseSensitive(facts, "first_touch_ns");
	const cJSON *hv = cJSON_GetObjectItemCaseSensitive(facts, "hypervisor");
	size_t faults = 0;
	uint64_t med = fault_median(ev, n, &faults);
	double fm = tsc_hz > 0 ? (double)med * 1e9 / tsc_hz : 0;
	int shown;

	*o = NULL;
	if (!cJSON_IsString(hv) || !cJSON_IsNumber(ft) || !med)
		return -1;
	shown = ft->valuedouble > 2 * fm && ft->valuedouble - fm > LAT_HV_AFTER_MIN_NS;
	*o = cJSON_CreateObject();
	cJSON_AddNumberToObject(*o, "first_touch_ns", ft->valuedouble);
	cJSON_AddNumberToObject(*o, "fault_median_ns", (double)(long long)(fm + 0.5));
	cJSON_AddNumberToObject(*o, "faults", (double)faults);
	cJSON_AddBoolToObject(*o, "shown", shown);
	return shown;
}

int lat_hv_idle_quick(double secs, double hz, double *rate, cJSON **o)
{
	struct lat_hv_probe p = { .guest = 1 };
	size_t cap = 1 << 16;
	uint64_t *gap = malloc(cap * sizeof(*gap));
	int ret = gap ? lat_hv_idle_run(&p.idle, secs, hz, gap, cap) : -1;

	free(gap);
	*o = NULL;
	*rate = 0;
	if (ret)
		return -1;
	lat_hv_idle_judge(&p);
	*rate = p.noise && p.idle.secs > 0 ? (double)p.idle.gaps / p.idle.secs : 0;
	*o = cJSON_CreateObject();
	cJSON_AddNumberToObject(*o, "secs", p.idle.secs);
	cJSON_AddNumberToObject(*o, "gaps", (double)p.idle.gaps);
	cJSON_AddNumberToObject(*o, "interrupts", (double)p.idle.irqs);
	cJSON_AddNumberToObject(*o, "switches", (double)p.idle.switches);
	cJSON_AddBoolToObject(*o, "shown", p.noise);
	return p.noise;
}
