/* SPDX-License-Identifier: MIT */
/*
 * The record buffer both backends fill: latmon's reader (monitor.c) and the
 * BPF backend's (bpf/latbpf.c). Allocated and written in full before the
 * timed loop, so the reader never faults while it runs; a record that does
 * not fit is counted per CPU as lost by latctl, and after the drain
 * lat_evbuf_add_own_lost() appends one LATMON_EV_LOST record per such CPU
 * so the join labels the iterations they cover "incomplete".
 */
#ifndef LATCTL_EVBUF_H
#define LATCTL_EVBUF_H

#include <stddef.h>
#include <stdint.h>

#include "latmon.h"

#define LAT_EVBUF_DEFAULT_EVENTS	1048576U	/* 72 MiB of records */
#define LAT_EVBUF_MAX_EVENTS		(1U << 27)
#define LAT_EVBUF_SCRATCH		64

struct lat_evbuf {
	/* cap + n_lost_slots records, faulted in when allocated if
	 * fault_ahead: 1 (the default) when latctl's own threads are
	 * measured, whose reader must not fault beside them */
	struct latmon_event *ev;
	int fault_ahead;
	size_t cap, n, map_bytes;
	unsigned int ncpus;		/* size of the per-CPU drop counts: the
					 * configured CPUs, more if records say so */
	unsigned int n_lost_slots;	/* room for latctl's own lost records */
	uint64_t *cpu_dropped;		/* latctl dropped (buffer full), per CPU */
	uint64_t *cpu_last_tsc;		/* ... and the latest such record's end */
	uint64_t dropped;		/* sum of cpu_dropped */
	uint64_t read_records;		/* every record read, kept or not */
	int reader_cpu;			/* the reader's CPU; -1: not pinned */
	struct latmon_event scratch[LAT_EVBUF_SCRATCH];	/* reads past cap */
};

/* Empty, for events records (0: the default); nothing allocated yet. */
void lat_evbuf_init(struct lat_evbuf *b, uint64_t events);
/* The records and the per-CPU drop counts, written now (the records only
 * if fault_ahead: else they take memory as they come). 0 or -ENOMEM. */
int lat_evbuf_alloc(struct lat_evbuf *b);
/* A record that did not fit: counted per CPU as lost by latctl. */
void lat_evbuf_drop(struct lat_evbuf *b, const struct latmon_event *e);
/* After the drain: one lost record per CPU where the buffer dropped. */
void lat_evbuf_add_own_lost(struct lat_evbuf *b);
void lat_evbuf_free(struct lat_evbuf *b);

/* For a reader thread: pin itself to the first CPU other than avoid (its
 * CPU, or -1), and touch its stack so reading never faults it in. */
int lat_evbuf_pin_elsewhere(int avoid);
void lat_evbuf_warm_stack(void);

#endif /* LATCTL_EVBUF_H */
