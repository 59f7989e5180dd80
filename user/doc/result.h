/* SPDX-License-Identifier: MIT */
/*
 * The result document of one run (cJSON) and its file. Every result shares
 * one wrapper (lat_result_new/lat_result_finish):
 *   schema "latctl.result", schema_version, command_line, argv,
 *   kernel_release, start_time, end_time (UTC, ISO 8601), exit_code.
 * `latctl run` adds: environment, options, run, clock, summary, histogram,
 * counters, extras, slow; see README.md "JSON result" for every key.
 * The text report is rendered from the document only (lat_result_render),
 * so `latctl report FILE.json` prints exactly what the run printed.
 */
#ifndef LATCTL_RESULT_H
#define LATCTL_RESULT_H

#include <limits.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "file/outfile.h"

#include "system/counters.h"
#include "stats/hist.h"
#include "stats/stats.h"

#define LAT_RESULT_SCHEMA		"latctl.result"
#define LAT_RESULT_SCHEMA_VERSION	2
/* The longest time a result holds: 1e15 ns, 11.6 days (a reader refuses more). */
#define LAT_RESULT_MAX_NS		1e15

cJSON *lat_result_new(int argc, char **argv);
void lat_result_finish(cJSON *doc, int exit_code);

/* Kernel, CPU, TSC, THP, governor, isolated CPUs of this machine, now. */
cJSON *lat_result_environment(void);
cJSON *lat_result_summary(const struct lat_summary *s);
cJSON *lat_result_histogram(const struct lat_hist *h);
/* Event counters (-1 -> null), migrations and free 2 MiB blocks. */
cJSON *lat_result_counters(const struct lat_counters *d, long long migr_within,
			   long long migr_between, long long free_2m_blocks);

/* A result file written as file/outfile.h says (atomically, a device or a
 * FIFO written through, a symlink followed); abort (or a signal) removes
 * its temporary file. A zeroed struct is closed. */
struct lat_result_file {
	const char *path;
	struct lat_outfile out;
	int open;		/* out is open */
};

/* Create the temporary file now, so an unwritable path fails before the run;
 * "-" is stdout, written through as /dev/stdout. */
int lat_result_open(struct lat_result_file *f, const char *path);
int lat_result_commit(struct lat_result_file *f, const cJSON *doc);
void lat_result_abort(struct lat_result_file *f);

/* Read and parse any JSON file; one line on stderr why not (missing,
 * empty, truncated, not JSON, a key twice in one object with two values):
 * -errno or -EINVAL. */
int lat_json_read(const char *path, cJSON **doc);

/* Read and check a result file (its schema, and its times: finite, 0 to
 * LAT_RESULT_MAX_NS); one line on stderr on failure. */
int lat_result_read(const char *path, cJSON **doc);

#endif /* LATCTL_RESULT_H */
