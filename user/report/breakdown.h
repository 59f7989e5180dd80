/* SPDX-License-Identifier: MIT */
/*
 * The breakdown of one slow iteration, "thp-zero 97%, fault 2% (by pid 321
 * (stress-ng)), unexplained <1%", from its JSON: shared by the ten slowest
 * (render_causes.c) and the one-phrase causes (describe.c).
 */
#ifndef LATCTL_BREAKDOWN_H
#define LATCTL_BREAKDOWN_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

struct lat_rd;

/* The JSON array of strings list holds s. */
bool lat_is_listed(const cJSON *list, const char *s);
/* "fault~" for a label whose times the backend estimated. */
const char *lat_mark_label(const char *label, bool estimated, char *buf, size_t len);
/* The numbers of object o (at most JOIN_NR_LABELS) into v, largest first;
 * their sum into *sum. Anything but a number there is refused as key. */
int lat_by_value(struct lat_rd *r, const cJSON *o, const char *key, const cJSON **v, double *sum);
/* What a label's share was, after it in the breakdown: blocked " (waiting
 * for mmap_lock, woken by pid 812 (lmprocs) on CPU 1)", preemption " (by pid
 * 321 (stress-ng))", interrupt " (timer LOC x3)"; nothing if unknown. */
void lat_label_note(const cJSON *it, const char *label, FILE *out, struct lat_rd *r);
/* The breakdown line of one iteration, largest share first, each with its
 * note; the labels in est (a JSON array, or NULL) marked "~". */
void lat_print_breakdown(const cJSON *it, const cJSON *est, FILE *out, struct lat_rd *r);

#endif /* LATCTL_BREAKDOWN_H */
