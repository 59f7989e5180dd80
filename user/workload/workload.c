// SPDX-License-Identifier: MIT
/* The table of workloads. Adding a workload: one file, one extern, one line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "workload/workload.h"

extern const struct workload_ops wl_grow;
extern const struct workload_ops wl_chase, wl_request, wl_alloc, wl_mmap, wl_file, wl_exec;
/* other workloads: add "extern const struct workload_ops wl_NAME;" here */

const struct workload_ops *const lat_workloads[] = {
	&wl_grow,
	&wl_chase,
	&wl_request,
	&wl_alloc,
	&wl_mmap,
	&wl_file,
	&wl_exec,
	/* ... and "&wl_NAME," here */
	NULL,
};

const struct workload_ops *lat_workload_find(const char *name)
{
	const struct workload_ops *const *w;

	for (w = lat_workloads; name && *w; w++)
		if (!strcmp((*w)->name, name))
			return *w;
	return NULL;
}

int lat_run_resize(struct lat_run *run, size_t cap)
{
	struct lat_sample *s = mmap(NULL, (cap ? cap : 1) * sizeof(*s), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (s == MAP_FAILED)
		return -ENOMEM;
	memset(s, 0, (cap ? cap : 1) * sizeof(*s));
	if (run->samples)
		munmap(run->samples, run->cap * sizeof(*s));
	run->samples = s;
	run->cap = cap ? cap : 1;
	return 0;
}

int lat_run_streams(struct lat_run *run, size_t n)
{
	size_t cap = run->n_streams ? run->n_streams : 16;
	struct lat_stream *v;

	if (n <= run->n_streams)
		return 0;
	while (cap < n)
		cap *= 2;
	v = realloc(run->streams, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memset(v + run->n_streams, 0, (cap - run->n_streams) * sizeof(*v));
	run->streams = v;
	run->n_streams = cap;
	return 0;
}

struct lat_stream *lat_run_stream(struct lat_run *run, size_t k)
{
	return lat_run_streams(run, k + 1) ? NULL : &run->streams[k];
}

uint32_t lat_run_tid(const struct lat_run *run, size_t k)
{
	return k < run->n_streams ? run->streams[k].tid : 0;
}

void lat_run_streams_free(struct lat_run *run)
{
	free(run->streams);
	run->streams = NULL;
	run->n_streams = 0;
}
