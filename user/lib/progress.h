/* SPDX-License-Identifier: MIT */
/*
 * One updating status line on stderr for something that takes a while
 * (a --vm build or boot, the runs of --repeat): "latctl: PHASE ... 12 s",
 * rewritten in place once a second. Only when stderr is a terminal and
 * LATCTL_PROGRESS is not "0"; otherwise nothing is printed. The ticker is
 * SIGALRM with SA_RESTART: never around a timed loop (lat_progress_hold
 * stops it), and a wait for a child loops on EINTR.
 */
#ifndef LATCTL_PROGRESS_H
#define LATCTL_PROGRESS_H

/* Start or change the phase shown; the seconds count from the first call. */
void lat_progress(const char *phase);
/* As lat_progress, but drawn first a second later: what fails at once
 * (a child's bad input) prints its line alone. */
void lat_progress_later(const char *phase);
/* The same line once, without the seconds and with the ticker stopped:
 * for a timed loop in this process. */
void lat_progress_hold(const char *phase);
/* Erase the line and stop the ticker (before printing anything else). */
void lat_progress_done(void);
/* 1 when progress lines are drawn (stderr a terminal, LATCTL_PROGRESS not 0). */
int lat_progress_wanted(void);
/* For tests: write to fd instead of stderr (-1: back to stderr). */
void lat_progress_fd(int fd);

#endif /* LATCTL_PROGRESS_H */
