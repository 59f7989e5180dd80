/* SPDX-License-Identifier: MIT */
/*
 * latctl.h: iteration markers for your own program (latctl-markers(3)).
 *
 *	#include <latctl.h>
 *	for (;;) {
 *		latctl_begin();		// an iteration starts
 *		handle(next_request());
 *		latctl_end();		// it ends
 *	}
 *
 * Link with -llatctl (pkg-config --libs latctl). Run the program under
 * `latctl run exec -- ./prog`: each begin/end pair becomes one timed
 * iteration, joined with what the kernel did meanwhile. Outside latctl
 * both calls return at once (one predictable branch).
 *
 * The calls are thread-safe without locks (each thread writes its own
 * region of the ring, taken on its first call), fork-safe (a child takes
 * a region of its own) and async-signal-safe. A full region, a thread
 * beyond the ring's regions and an end without a begin are counted, and
 * latctl shows the counts in its report.
 *
 * The second half of this header is the ring's layout, for writers in
 * other languages (latctl-markers(3), section RING FORMAT).
 */
#ifndef LATCTL_PUBLIC_H
#define LATCTL_PUBLIC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An iteration of the calling thread starts now. */
void latctl_begin(void);
/* The iteration the calling thread began ends now. */
void latctl_end(void);
/* 1 when the program runs under latctl and its ring is mapped, else 0. */
int latctl_active(void);

/* Nonzero when a ring is mapped; read by the inline test below. */
extern volatile int latctl_on;

#if !defined(LATCTL_NO_INLINE) && defined(__GNUC__)
/* The test outside latctl inline: no call when latctl is not there. */
#define latctl_begin() (__builtin_expect(latctl_on, 0) ? latctl_begin() : (void)0)
#define latctl_end() (__builtin_expect(latctl_on, 0) ? latctl_end() : (void)0)
#endif

/*
 * RING FORMAT. latctl creates a shared-memory file and puts its path in the
 * environment variable LATCTL_RING. The file is a head (LATCTL_RING_HEAD
 * bytes) followed by `slots` regions of `slot_bytes` each. All numbers are
 * little-endian, in the machine's native layout below.
 *
 * A thread takes region k by an atomic fetch-and-add of 1 on next_slot; k
 * at or past slots means no region: it adds 1 to threads_refused once and
 * records nothing. It may fault its region in ahead of its records
 * (liblatctl does, with MADV_POPULATE_WRITE: a page first, then as much
 * again as it holds each time it fills, and stores the pages so far in
 * populated), so that no record write faults. In its region it writes
 * its tid and pid, then for each iteration one record at records[count]
 * and then count + 1 (a store with release order). A record that finds
 * count == capacity adds 1 to full instead. Times are TSC reads of
 * `rdtscp; lfence`; CPUs the low 12 bits of rdtscp's TSC_AUX, or getcpu()
 * when head.flags has LATCTL_RING_F_GETCPU.
 */
#define LATCTL_RING_MAGIC	0x524c544cU	/* "LTLR" */
#define LATCTL_RING_VERSION	1
#define LATCTL_RING_HEAD	4096
#define LATCTL_RING_F_GETCPU	(1U << 0)	/* TSC_AUX is not the CPU */

struct latctl_ring_head {
	uint32_t magic;			/* LATCTL_RING_MAGIC */
	uint32_t version;		/* LATCTL_RING_VERSION */
	uint32_t slots;			/* regions after the head */
	uint32_t flags;			/* LATCTL_RING_F_* */
	uint64_t slot_bytes;		/* bytes of one region, head included */
	uint64_t capacity;		/* records one region holds */
	uint32_t next_slot;		/* regions taken (atomic add) */
	uint32_t threads_refused;	/* threads that found no region */
};

/* One iteration: the same 24 bytes as latctl's own samples. */
struct latctl_ring_rec {
	uint64_t tsc_begin;
	uint64_t tsc_end;
	uint16_t cpu_begin;
	uint16_t cpu_end;
	uint32_t flags;			/* 0 */
};

/* The head of one region (128 bytes); its records follow. */
struct latctl_ring_slot {
	uint32_t tid;			/* the writing thread */
	uint32_t pid;			/* its process */
	uint64_t count;			/* records written */
	uint64_t full;			/* iterations lost: region full */
	uint64_t end_without_begin;	/* latctl_end with no iteration open */
	uint64_t begin_twice;		/* latctl_begin with one open: the
					 * first is dropped */
	uint64_t open_tsc;		/* begin of the open iteration */
	uint32_t open;			/* 1 while an iteration is open */
	uint16_t open_cpu;
	uint16_t reserved;
	uint64_t populated;		/* pages of the region the writer
					 * faulted in so far, from its start */
	uint64_t map_addr;		/* where the writer's process mapped
					 * the file, and how many bytes: */
	uint64_t map_bytes;		/* latctl sets apart faults there */
	char comm[16];			/* the writer's name when it took the
					 * region; "" from an older liblatctl */
	uint64_t map_tsc;		/* TSC just before the writer's process
					 * mapped the file: faults there before
					 * it are not the ring's (0: unknown) */
	uint64_t reserved2[3];
};

#ifdef __cplusplus
}
#endif

#endif /* LATCTL_PUBLIC_H */
