// SPDX-License-Identifier: MIT
/* The table of workloads. Adding a workload: one file, one extern, one line. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "workload/workload.h"

extern const struct workload_ops wl_grow;
extern const struct workload_ops wl_chase, wl_request, wl_alloc, wl_mmap, wl_exec;
/* other workloads: add "extern const struct workload_ops wl_NAME;" here */

const struct workload_ops *const lat_workloads[] = {
	&wl_grow,
	&wl_chase,
	&wl_request,
	&wl_alloc,
	&wl_mmap,
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
