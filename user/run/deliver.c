// SPDX-License-Identifier: MIT
/* A run's report and result file, each written whatever the other did. */
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#include "lib/latctl.h"
#include "report/render.h"
#include "run/deliver.h"

/* The report on out, flushed: a write error is seen here, not lost. */
static int print_report(const cJSON *doc, FILE *out)
{
	int ret = lat_result_render(doc, out, "result");

	if (!ret && (fflush(out) || ferror(out))) {
		fprintf(stderr, "latctl: writing the report to %s failed: %s\n",
			out == stdout ? "stdout" : "stderr", strerror(errno ? errno : EIO));
		__fpurge(out);		/* said once: nothing left for exit to fail on */
		clearerr(out);
		ret = -EIO;
	}
	return ret;
}

FILE *lat_report_stream(const char *workload)
{
	return workload && !strcmp(workload, "exec") ? stderr : stdout;
}

int lat_deliver(struct lat_result_file *file, const cJSON *doc, int quiet, FILE *out)
{
	int ret = 0;

	if (!quiet && print_report(doc, out))
		ret = LAT_EXIT_FAIL;
	if (file && lat_result_commit(file, doc))
		ret = LAT_EXIT_FAIL;
	return ret;
}
