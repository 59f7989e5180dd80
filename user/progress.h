/* SPDX-License-Identifier: MIT */
/*
 * One updating status line on stderr for something that takes a while
 * (a --vm build or boot): "latctl: PHASE ... 12 s", rewritten in place once a
 * second. Only when stderr is a terminal; otherwise nothing is printed.
 * Never used around a timed loop (the ticker is a signal).
 */
#ifndef LATCTL_PROGRESS_H
#define LATCTL_PROGRESS_H

/* Start or change the phase shown; the seconds count from the first call. */
void lat_progress(const char *phase);
/* Erase the line and stop the ticker (before printing anything else). */
void lat_progress_done(void);
/* For tests: write to fd instead of stderr (-1: back to stderr). */
void lat_progress_fd(int fd);

#endif /* LATCTL_PROGRESS_H */
