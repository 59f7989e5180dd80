/* SPDX-License-Identifier: MIT */
/* The exec workload's state, shared by the files of the workload: the
 * command and its ring, its iterations from markers or system calls, its
 * extras and report lines (user/README.md says which file does which). */
#ifndef LATCTL_WL_EXEC_H
#define LATCTL_WL_EXEC_H

#include <stdint.h>
#include <sys/types.h>

#include "latctl.h"
#include "latmon.h"
#include "workload/workload.h"

struct lat_exec {
	char *const *cmd;		/* COMMAND [ARGS...] */
	double duration_s;		/* --duration, 0 = none */
	struct latctl_ring_head *ring;
	uint64_t ring_bytes, slot_bytes;
	uint32_t slots;
	int fd;				/* the ring's memfd */
	char path[64];			/* LATCTL_RING */
	pid_t pid;			/* the command */
	int status;			/* its wait status */
	int ended;
	int stop_signal;		/* last signal latctl sent, 0 = none */
	int sent[3], n_sent;		/* every signal latctl sent, in order */
	const char *stop_why;		/* "--duration" or "a second SIGINT" */
	int exec_errno;			/* the command could not be exec'd: errno */
	const char *source;		/* "markers" or "syscalls" */
	uint64_t threads, processes;	/* streams taken, distinct pids */
	uint64_t ring_faults;		/* fault records on the ring, set apart */
};

/* Region k of the ring. */
static inline struct latctl_ring_slot *lat_exec_slot(const struct lat_exec *ex, uint32_t k)
{
	return (struct latctl_ring_slot *)((char *)ex->ring + LATCTL_RING_HEAD + k * ex->slot_bytes);
}

/* Regions the command's threads took (at most the ring's). */
static inline uint32_t lat_exec_taken(const struct lat_exec *ex)
{
	uint32_t n = __atomic_load_n(&ex->ring->next_slot, __ATOMIC_ACQUIRE);

	return n < ex->slots ? n : ex->slots;
}

/* The counters of the regions the command's threads took, summed. */
struct lat_exec_sums {
	uint64_t full, end_without_begin, begin_twice, open;
	uint64_t populated;	/* pages faulted in by latctl's ring when taken */
};
void lat_exec_sum_regions(const struct lat_exec *ex, struct lat_exec_sums *m);

/* Records the command's threads wrote so far (over every region). */
uint64_t lat_exec_marker_count(const struct lat_exec *ex);
/* The marker records into run->samples, one stream per region. -errno. */
int lat_exec_take_markers(struct lat_run *run, struct lat_exec *ex);
/* Fault records of the command's threads on their own ring mapping (the
 * markers' regions faulted in) get tid 0: not the program's. */
void lat_exec_set_apart(struct lat_exec *ex, struct latmon_event *ev, size_t n);
/* The command's system calls (records of other processes than latctl's)
 * into run->samples, one stream per thread. -errno. */
int lat_exec_take_syscalls(struct lat_run *run, struct lat_exec *ex,
			   const struct latmon_event *ev, size_t n);

/* wl_exec_tree.c: latctl a child subreaper before the fork; the command's
 * pid once forked; every process of its tree signalled (the number); the
 * processes it started still running; the ended orphans reaped and the
 * subreaper undone once it is waited for. */
void lat_exec_tree_begin(void);
void lat_exec_tree_started(pid_t pid);
int lat_exec_tree_kill(int sig);
int lat_exec_tree_alive(void);
void lat_exec_tree_end(void);

cJSON *lat_exec_extras(const struct lat_run *run);
void lat_exec_print_extras(const cJSON *x, FILE *out, struct lat_rd *rd);
/* The report's head line when markers were lost: "kept N of M". */
void lat_exec_print_head(const cJSON *x, FILE *out, struct lat_rd *rd);

#endif /* LATCTL_WL_EXEC_H */
