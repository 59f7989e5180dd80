// SPDX-License-Identifier: MIT
/* The ordinary iterations around the slowest ones (see context.h). */
#include <stdlib.h>

#include "run/context.h"

static uint64_t ticks(const struct lat_sample *s)
{
	return s->tsc_end > s->tsc_begin ? s->tsc_end - s->tsc_begin : 0;
}

/* The positions of the slowest iterations, in run order; how many. */
static size_t slowest(const struct lat_run *run, size_t *pos)
{
	size_t i, j, n = 0;

	for (i = 0; i < run->n; i++) {
		for (j = n; j > 0 && ticks(&run->samples[pos[j - 1]]) < ticks(&run->samples[i]);
		     j--)
			if (j < LAT_CONTEXT_SLOWEST)
				pos[j] = pos[j - 1];
		if (j < LAT_CONTEXT_SLOWEST)
			pos[j] = i;
		n += n < LAT_CONTEXT_SLOWEST;
	}
	for (i = 1; i < n; i++) /* into run order */
		for (j = i; j > 0 && pos[j - 1] > pos[j]; j--) {
			size_t t = pos[j];

			pos[j] = pos[j - 1];
			pos[j - 1] = t;
		}
	return n;
}

static int new_stream(const struct lat_run *run, size_t i)
{
	return i && (run->samples[i].flags & LAT_SAMPLE_F_NEWSTREAM);
}

/* Which stream sample i is in: its thread, from 0. */
static size_t stream_of(const struct lat_run *run, size_t i)
{
	size_t j, k = 0;

	for (j = 1; j <= i; j++)
		k += new_stream(run, j);
	return k;
}

static cJSON *window_json(const struct lat_run *run, size_t lo, size_t hi)
{
	cJSON *w = cJSON_CreateObject();
	cJSON *b = cJSON_AddArrayToObject(w, "tsc_begin");
	cJSON *d = cJSON_AddArrayToObject(w, "duration_ticks");
	size_t i;

	cJSON_AddNumberToObject(w, "stream", (double)stream_of(run, lo));
	cJSON_AddNumberToObject(w, "from", (double)lo);
	for (i = lo; i <= hi; i++) {
		cJSON_AddItemToArray(b, cJSON_CreateNumber((double)run->samples[i].tsc_begin));
		cJSON_AddItemToArray(d, cJSON_CreateNumber((double)ticks(&run->samples[i])));
	}
	return w;
}

cJSON *lat_run_context_json(const struct lat_run *run)
{
	size_t pos[LAT_CONTEXT_SLOWEST], n = slowest(run, pos), k, lo, hi, end = 0;
	cJSON *o = cJSON_CreateObject(), *ws = cJSON_AddArrayToObject(o, "windows");

	cJSON_AddNumberToObject(o, "around", LAT_CONTEXT_AROUND);
	for (k = 0; k < n; k++) {
		lo = pos[k];
		while (lo > 0 && pos[k] - lo < LAT_CONTEXT_AROUND && !new_stream(run, lo))
			lo--;
		hi = pos[k];
		while (hi + 1 < run->n && hi - pos[k] < LAT_CONTEXT_AROUND &&
		       !new_stream(run, hi + 1))
			hi++;
		if (k && lo < end) /* meets the last window: from its end on */
			lo = end;
		if (lo < end || hi < lo)
			continue;
		cJSON_AddItemToArray(ws, window_json(run, lo, hi));
		end = hi + 1;
	}
	return o;
}
