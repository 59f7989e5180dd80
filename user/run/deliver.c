// SPDX-License-Identifier: MIT
/* A run's report and result file, each written whatever the other did. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/latctl.h"
#include "report/render.h"
#include "run/deliver.h"

/* The report on stdout, flushed: a write error is seen here, not lost. */
static int print_report(const cJSON *doc)
{
	int ret = lat_result_render(doc, stdout, "result");

	if (!ret && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "latctl: writing the report to stdout failed: %s\n",
			strerror(errno ? errno : EIO));
		ret = -EIO;
	}
	return ret;
}

int lat_deliver(struct lat_result_file *file, const cJSON *doc, int quiet)
{
	int ret = 0;

	if (!quiet && print_report(doc))
		ret = LAT_EXIT_FAIL;
	if (file && lat_result_commit(file, doc))
		ret = LAT_EXIT_FAIL;
	return ret;
}
