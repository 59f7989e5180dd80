// SPDX-License-Identifier: MIT
/* `latctl list`: the workloads, their modes, default size and options. */
#include <stdio.h>

#include "latctl.h"
#include "opts.h"
#include "workload.h"

static void print_accepts(unsigned int accepts)
{
	unsigned int bit;

	for (bit = 1; bit <= LAT_ACCEPT_DURATION; bit <<= 1)
		if (accepts & bit)
			printf(" %s", lat_opts_accept_name(bit));
}

int cmd_list(int argc, char **argv)
{
	const struct workload_ops *const *w;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "latctl list: takes no argument\n");
		return LAT_EXIT_USAGE;
	}
	for (w = lat_workloads; *w; w++) {
		printf("%-8s %s\n", (*w)->name, (*w)->summary);
		if ((*w)->modes)
			printf("         modes: %s (the first is the default)\n", (*w)->modes);
		printf("         default --iters %llu\n", (unsigned long long)(*w)->default_iters);
		if ((*w)->accepts) {
			printf("         also takes:");
			print_accepts((*w)->accepts);
			putchar('\n');
		}
	}
	return LAT_EXIT_OK;
}
