// SPDX-License-Identifier: MIT
/* The table of workloads. Adding a workload: one file, one extern, one line. */
#include <string.h>

#include "workload/workload.h"

extern const struct workload_ops wl_grow;
extern const struct workload_ops wl_chase, wl_request, wl_alloc, wl_mmap;
/* other workloads: add "extern const struct workload_ops wl_NAME;" here */

const struct workload_ops *const lat_workloads[] = {
	&wl_grow,
	&wl_chase,
	&wl_request,
	&wl_alloc,
	&wl_mmap,
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
