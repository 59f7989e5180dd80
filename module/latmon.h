/* SPDX-License-Identifier: GPL-2.0 */
/* latmon internal interfaces shared by the module's files. */
#ifndef LATMON_INTERNAL_H
#define LATMON_INTERNAL_H

#include <linux/types.h>
#include <linux/sched.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/atomic.h>
#include <linux/netlink.h>
#include <linux/kprobes.h>
#include <linux/ftrace.h>
#include "../include/latmon.h"
#include "compat.h"

#define LATMON_MODULE_VERSION	"0.1.0"
#define LATMON_REASON_LEN	128

/* What GET_INFO says about one source; filled by its resolve(). */
struct latmon_source_status {
	bool available;
	bool attached;
	u32 missing;			/* symbols or tracepoints not found */
	const char *symbol;		/* probed symbol, NULL for tracepoints */
	char reason[LATMON_REASON_LEN];
	atomic64_t misses;		/* events lost before reaching a ring */
};

/* One event source; the const table in main.c is what start/stop loop over. */
struct latmon_tp_source;

struct latmon_source_ops {
	u32 id;				/* enum latmon_source_id: its name too */
	struct latmon_source_status *status;
	int (*resolve)(struct latmon_source_status *st); /* <0: load fails */
	int (*attach)(void);		/* START: begin recording */
	void (*detach)(void);		/* STOP: caller then synchronises */
	void (*release)(void);		/* unload: undo resolve (may be NULL) */
	u64 (*misses)(void);		/* probe misses, e.g. kretprobe nmissed */
	/*
	 * A source made of tracepoints only (tp.c) sets tp and leaves
	 * resolve, attach and detach NULL: the table drives them.
	 */
	const struct latmon_tp_source *tp;
};

/* Resolve, attach and detach of any source: its own or the table's. */
int latmon_source_resolve(const struct latmon_source_ops *src);
int latmon_source_attach(const struct latmon_source_ops *src);
void latmon_source_detach(const struct latmon_source_ops *src);

extern const struct latmon_source_ops latmon_src_fault;
extern const struct latmon_source_ops latmon_src_thp;
extern const struct latmon_source_ops latmon_src_sched;
extern const struct latmon_source_ops latmon_src_irq;
extern const struct latmon_source_ops latmon_src_zero;
extern const struct latmon_source_ops latmon_src_compact;
extern const struct latmon_source_ops latmon_src_reclaim;
extern const struct latmon_source_ops latmon_src_syscall;
extern const struct latmon_source_ops latmon_src_wait;

/* A source's name (include/latmon_types.h), "?" for an unknown id. */
static inline const char *latmon_source_name(u32 id)
{
	static const char *const names[__LATMON_SRC_MAX] = {
		LATMON_SOURCES(__LATMON_SRC_NAME)
	};

	return id < __LATMON_SRC_MAX && names[id] ? names[id] : "?";
}

extern const struct latmon_source_ops *const latmon_sources[];
extern const unsigned int latmon_nr_sources;

/* krp.c: a kretprobe registered disabled, enabled while a session runs */
struct latmon_krp {
	struct kretprobe rp;
	bool registered;
};

/* Register on sym (maxactive 0: 64 + 4 per possible CPU); 0 or -errno. */
int latmon_krp_register(struct latmon_krp *k, const char *sym,
			kretprobe_handler_t entry, kretprobe_handler_t ret,
			size_t data_size, unsigned int maxactive);
int latmon_krp_enable(struct latmon_krp *k);	/* resets the misses */
void latmon_krp_disable(struct latmon_krp *k);
void latmon_krp_unregister(struct latmon_krp *k);	/* if registered */
u64 latmon_krp_misses(const struct latmon_krp *k);

/*
 * ftr.c: an ftrace_ops on one function's entry, registered while a session
 * runs. Only in kernels with CONFIG_DYNAMIC_FTRACE (module/Kbuild builds
 * src_zero_none.c instead of ftr.c and src_zero.c without it).
 */
#ifdef CONFIG_DYNAMIC_FTRACE
struct latmon_ftr {
	struct ftrace_ops ops;
	bool filtered;			/* the filter holds the function */
	bool enabled;			/* registered */
};

int latmon_ftr_init(struct latmon_ftr *f, const char *sym, ftrace_func_t func);
int latmon_ftr_enable(struct latmon_ftr *f);
void latmon_ftr_disable(struct latmon_ftr *f);
void latmon_ftr_release(struct latmon_ftr *f);
#endif

/* main.c: session state */
enum latmon_state { LATMON_IDLE, LATMON_RUNNING, LATMON_STOPPED };

extern struct mutex latmon_mutex;
extern wait_queue_head_t latmon_read_wq;
/* written under latmon_mutex with WRITE_ONCE; read without it with READ_ONCE */
extern enum latmon_state latmon_state;
extern pid_t latmon_target_tgid;	/* init-ns tgid, 0 when stopped */
extern struct pid_namespace *latmon_pid_ns;

int latmon_session_start(u32 nr, const u32 *mask, const u32 *slots,
			 struct netlink_ext_ack *extack);
int latmon_session_stop(struct netlink_ext_ack *extack);
/* The module's exit: stop a running session (no START can come). */
void latmon_session_end(void);
pid_t latmon_session_vtgid(void);
u64 latmon_source_misses(const struct latmon_source_ops *src);

struct latmon_thread *latmon_thread_find(pid_t tid);

/*
 * True if @task is a target: a thread of the process START named or of one
 * it created since, i.e. in the thread table (any context).
 */
static inline bool latmon_is_target(const struct task_struct *task)
{
	return READ_ONCE(latmon_target_tgid) && latmon_thread_find(task->pid);
}

pid_t latmon_vpid(struct task_struct *task);

/*
 * ticks.c: readings of per-CPU counters at the ticks of a target (irq
 * source), ended by a switch of a target (sched source); irqs off, this
 * CPU's state. A window: the last tick that read a counter.
 */
struct latmon_tick_window {
	u64 tick_tsc;		/* the last tick that read it */
	u64 value;		/* the reading then */
	pid_t tid;		/* the target that tick interrupted; 0: none */
};

/*
 * The reading @value at @tsc, a tick of current (a target): how much it
 * moved since the window's last tick (0: not moved, or no window: another
 * thread, a switch, more than two ticks); *begin: that tick.
 */
u64 latmon_window_next(struct latmon_tick_window *w, u64 tsc, u64 value,
		       u64 *begin);
void latmon_ticks(void);
void latmon_ticks_end(void);
/* steal.c and smi.c: one reading at a tick of a target; the end of it */
void latmon_steal_tick(u64 tsc);
void latmon_steal_end(void);
void latmon_smi_tick(u64 tsc);
void latmon_smi_end(void);
void latmon_event_init(struct latmon_event *ev, u16 type,
		       struct task_struct *task);

/* ring.c: per-CPU rings */
struct latmon_ring_stats {
	u64 recorded, dropped, read, lost_records;
};

int latmon_rings_init(void);
void latmon_rings_exit(void);
int latmon_rings_alloc(u32 slots);
void latmon_rings_flush_lost(void);
void latmon_ring_write(struct latmon_event *ev);
ssize_t latmon_rings_read(char __user *buf, size_t count);
bool latmon_rings_empty(void);
void latmon_ring_stats(unsigned int cpu, struct latmon_ring_stats *st);

/*
 * threads.c: the session's targets and their per-thread state (sched out
 * time, THP marks, the open system call and lock wait). A slot is written
 * by its thread or by the CPU switching it out, see threads.c.
 */
struct latmon_thread {
	pid_t tid;			/* 0: free slot, -1: deleted */
	u32 thp_clears;			/* THP clears run by this thread */
	u64 out_tsc;			/* switch-out TSC, 0 if running */
	u32 out_cpu;
	u32 out_state;
	u32 out_flags;			/* LATMON_SCHED_F_* */
	pid_t other_pid;
	char other_comm[TASK_COMM_LEN];
	u64 compact_tsc;		/* zone compaction began, 0 if none */
	u32 compact_order, compact_prio;
	bool compact_known;		/* order and prio seen */
	u64 reclaim_tsc[2];		/* by latmon_reclaim_kind - 1 */
	u32 reclaim_order[2], reclaim_gfp[2];
	u64 sys_tsc;			/* entry of the open system call, 0: none */
	u64 sys_args[2];
	u32 sys_nr;
	u32 sys_flags;			/* LATMON_SYSCALL_F_* */
	u64 lock_tsc;			/* start of a lock acquisition, 0: none */
	unsigned long lock_nvcsw;	/* voluntary switches at that start */
	u32 lock_flags;			/* LATMON_LOCK_F_WRITE */
	u32 reader;			/* it reads /dev/latmon: syscalls not recorded */
	u64 zero_tsc;			/* an allocation that will zero began, 0: none */
	u32 zero_flags;			/* LATMON_ZERO_F_* */
	u32 zero_gfp;
	u32 zero_order;
};

struct latmon_threads_stats {
	u32 max, live;
	u64 followed, refused;
};

int latmon_threads_init(void);
void latmon_threads_exit(void);
int latmon_threads_start(struct task_struct *leader,
			 struct netlink_ext_ack *extack);
void latmon_threads_stop(void);
void latmon_threads_stats(struct latmon_threads_stats *st);
void latmon_thread_mark_reader(void);

/*
 * The slot of target @tid, or NULL. Threads join the table only at START and
 * at fork, so @create adds nothing: a thread that is not there is no target.
 */
static inline struct latmon_thread *latmon_thread_get(pid_t tid, bool create)
{
	return latmon_thread_find(tid);
}

/* chardev.c and genl.c */
int latmon_chardev_init(void);
void latmon_chardev_exit(void);
int latmon_genl_init(void);
void latmon_genl_exit(void);

/* tp.c: tracepoints found with for_each_kernel_tracepoint() */
struct latmon_tp {
	const char *name;
	void *probe;
	void *data;
	struct tracepoint *tp;		/* NULL if this kernel lacks it */
	bool registered;
};

/*
 * A source of tracepoints: its table, and which of them it needs to be
 * available (NULL: any one). A kernel without some of them names them in
 * the source's reason; a group that only works together (start and end of
 * one span) is dropped whole by its own rule.
 */
struct latmon_tp_source {
	struct latmon_tp *tps;
	unsigned int n;
	bool (*available)(struct latmon_tp *tps);
};

u32 latmon_tp_lookup(struct latmon_tp *tps, unsigned int n,
		     char *reason, size_t len);
int latmon_tp_register(struct latmon_tp *tps, unsigned int n);
void latmon_tp_unregister(struct latmon_tp *tps, unsigned int n);

#endif /* LATMON_INTERNAL_H */
