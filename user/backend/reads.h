/* SPDX-License-Identifier: MIT */
/*
 * The measured threads' own TSC reads (the begin and end of each iteration):
 * a thread reading the TSC is running, so the first read after a time
 * bounds anything that kept the thread from running since.
 */
#ifndef LATCTL_READS_H
#define LATCTL_READS_H

#include <stddef.h>
#include <stdint.h>

struct lat_run;
struct lat_reads;

/* The sample streams of run, each with its thread; NULL without memory. */
struct lat_reads *lat_reads_new(const struct lat_run *run);
/* The first TSC read of thread tid after t; UINT64_MAX if none (or r NULL). */
uint64_t lat_reads_next(const struct lat_reads *r, uint32_t tid, uint64_t t);
void lat_reads_free(struct lat_reads *r);

#endif
