/* SPDX-License-Identifier: MIT */
/*
 * `latctl run ... --repeat N`: N runs of the same command line, each in a
 * fresh process (this binary run again with --repeat 1 --json TMP --quiet),
 * gathered into one result document: run 1's document with the pooled
 * histogram, and under "repeat"."per_run" every run's start and end time,
 * exit code, summary, counters, cause table ("causes") and latmon state.
 */
#ifndef LATCTL_REPEAT_H
#define LATCTL_REPEAT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "run/opts.h"

/* Run the command N = o->repeat times; doc: this process's new document
 * (its command line and start time are kept). LAT_EXIT_*; a failed run
 * stops the series with its exit status and nothing is written. */
int lat_repeat_run(const struct lat_opts *o, int argc, char **argv, cJSON *doc);

#endif /* LATCTL_REPEAT_H */
