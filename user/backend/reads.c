// SPDX-License-Identifier: MIT
/* The measured threads' TSC reads, by thread (see reads.h). */
#include <stdlib.h>

#include "backend/reads.h"
#include "workload/workload.h"

struct stream {
	size_t first, end;
	uint32_t tid;
};

struct lat_reads {
	const struct lat_run *run;
	struct stream *v;
	size_t n;
};

struct lat_reads *lat_reads_new(const struct lat_run *run)
{
	struct lat_reads *r = calloc(1, sizeof(*r));
	size_t first = 0, i, count = 1;

	for (i = 1; run && i < run->n; i++)
		count += !!(run->samples[i].flags & LAT_SAMPLE_F_NEWSTREAM);
	if (r)
		r->v = calloc(count, sizeof(*r->v));
	if (!r || !r->v) {
		free(r);
		return NULL;
	}
	r->run = run;
	for (i = 1; run && i <= run->n; i++) {
		if (i < run->n && !(run->samples[i].flags & LAT_SAMPLE_F_NEWSTREAM))
			continue;
		r->v[r->n] = (struct stream){ first, i, lat_run_tid(run, r->n) };
		r->n++;
		first = i;
	}
	return r;
}

/* The first TSC read of samples [first, end) after t: a sample's begin, or
 * the end of the sample t falls in; UINT64_MAX if none. */
static uint64_t next_read(const struct lat_sample *s, size_t first, size_t end, uint64_t t)
{
	size_t lo = first, hi = end, mid;

	while (lo < hi) { /* first sample beginning after t */
		mid = lo + (hi - lo) / 2;
		if (s[mid].tsc_begin > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo > first && s[lo - 1].tsc_end > t)
		return s[lo - 1].tsc_end;
	return lo < end ? s[lo].tsc_begin : UINT64_MAX;
}

uint64_t lat_reads_next(const struct lat_reads *r, uint32_t tid, uint64_t t)
{
	uint64_t best = UINT64_MAX, b;
	size_t k;

	for (k = 0; r && k < r->n; k++) {
		if (r->v[k].tid != tid)
			continue;
		b = next_read(r->run->samples, r->v[k].first, r->v[k].end, t);
		best = b < best ? b : best;
	}
	return best;
}

void lat_reads_free(struct lat_reads *r)
{
	if (r)
		free(r->v);
	free(r);
}
