/* SPDX-License-Identifier: MIT */
/*
 * The end of a run: its report printed on stdout (unless quiet), then its
 * document written to the --json file. Each can fail alone: a full disk
 * under --json keeps the printed report, a closed stdout keeps the file.
 */
#ifndef LATCTL_DELIVER_H
#define LATCTL_DELIVER_H

#include <cjson/cJSON.h>

#include "doc/result.h"

/* file NULL: no --json. 0, or LAT_EXIT_FAIL after one line per failure. */
int lat_deliver(struct lat_result_file *file, const cJSON *doc, int quiet);

#endif /* LATCTL_DELIVER_H */
