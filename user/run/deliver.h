/* SPDX-License-Identifier: MIT */
/*
 * The end of a run: its report printed (unless quiet), then its
 * document written to the --json file. Each can fail alone: a full disk
 * under --json keeps the printed report, a closed stdout keeps the file.
 */
#ifndef LATCTL_DELIVER_H
#define LATCTL_DELIVER_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "doc/result.h"

/* file NULL: no --json. 0, or LAT_EXIT_FAIL after one line per failure. */
int lat_deliver(struct lat_result_file *file, const cJSON *doc, int quiet, FILE *out);
/* Where a workload's report goes: stderr for exec, whose program owns
 * stdout (as perf stat and time(1) do), else stdout. */
FILE *lat_report_stream(const char *workload);

#endif /* LATCTL_DELIVER_H */
