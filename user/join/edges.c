// SPDX-License-Identifier: MIT
/* The unexplained time around faults (edges.h). */
#include <stdlib.h>

#include "join/edges.h"
#include "stats/stats.h"

/* Whether an iteration's ticks are only faults' and uncovered ones, from
 * fault records alone. */
static int only_faults(const struct join_iter *it)
{
	int l;

	if (it->incomplete || it->migrated || !it->n_type[LATMON_EV_FAULT] ||
	    it->n_events != it->n_type[LATMON_EV_FAULT])
		return 0;
	for (l = 0; l < JOIN_NR_LABELS; l++)
		if (it->ticks[l] && l != JOIN_FAULT && l != JOIN_UNEXPLAINED)
			return 0;
	return 1;
}

cJSON *lat_fault_edges_json(const struct join_result *r, uint64_t typical)
{
	double *per = malloc((r->n_iters ? r->n_iters : 1) * sizeof(*per)), ns_tick, rest = 0;
	uint64_t faults = 0, left;
	size_t i, n = 0;
	cJSON *o = NULL;

	if (!per || !(r->tsc_hz > 0))
		goto out;
	ns_tick = 1e9 / r->tsc_hz;
	for (i = 0; i < r->n_iters; i++) {
		const struct join_iter *it = &r->iters[i];

		if (!only_faults(it))
			continue;
		left = it->ticks[JOIN_UNEXPLAINED] > typical ?
			       it->ticks[JOIN_UNEXPLAINED] - typical :
			       0;
		per[n++] = (double)left * ns_tick / it->n_type[LATMON_EV_FAULT];
		faults += it->n_type[LATMON_EV_FAULT];
		rest += (double)left * ns_tick;
	}
	if (!n)
		goto out;
	qsort(per, n, sizeof(*per), lat_cmp_double);
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "iterations", (double)n);
	cJSON_AddNumberToObject(o, "faults", (double)faults);
	cJSON_AddNumberToObject(o, "typical_ns", (double)typical * ns_tick);
	cJSON_AddNumberToObject(o, "ns_per_fault_median",
				n % 2 ? per[n / 2] : (per[n / 2 - 1] + per[n / 2]) / 2);
	cJSON_AddNumberToObject(o, "unexplained_ns", rest);
	cJSON_AddNumberToObject(o, "share",
				r->slow_total ? rest / ((double)r->slow_total * ns_tick) : 0);
out:
	free(per);
	return o;
}
