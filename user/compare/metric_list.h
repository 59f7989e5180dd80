/* SPDX-License-Identifier: MIT */
/*
 * `latctl report --metrics`: the headline metrics of a result, one line each,
 * "NAME VALUE UNIT", for test harnesses that collect measurements by name
 * (LAVA's lava-test-case, LKP, a spreadsheet). Names are stable across
 * versions and hold only [a-z0-9_-]: the metric names of compare and check
 * with '.', ':' and ' ' made '_' and '/' made "_per_" (p99.9 -> p99_9,
 * fault:p50 -> fault_p50, faults/iter -> faults_per_iter), one share_LABEL
 * per cause, primary_share (the largest share), lost_events and runs.
 * Values are medians over the runs of a --repeat document; a metric the run
 * has no value for (fault_p50 without a backend) has no line.
 */
#ifndef LATCTL_METRIC_LIST_H
#define LATCTL_METRIC_LIST_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "doc/runs.h"

/* The lines of doc on out; 0, or -ENOMEM. */
int lat_metric_list_print(const cJSON *doc, FILE *out);

/* Median of m over the runs of doc; NAN when no run has a value. */
double lat_metric_median(const cJSON *doc, const struct lat_metric *m);

/* A metric name as a test-case name into buf (see above). */
void lat_metric_case_name(const char *metric, char *buf, size_t len);

#endif /* LATCTL_METRIC_LIST_H */
