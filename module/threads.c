// SPDX-License-Identifier: GPL-2.0
/*
 * The session's targets and their per-thread state, kept outside
 * task_struct: an open-addressing table keyed by tid (the init-namespace
 * pid). START adds the threads of the process it names; sched_process_fork
 * adds every thread or process a target creates, sched_process_exit removes
 * a target that exits. At most max_threads targets live at once.
 *
 * Lookups take no lock. Additions and removals (START, fork, exit) take
 * table_lock, so that a tid is never in the table twice. A removed slot
 * becomes a tombstone (-1) that lookups step over, or free (0) when the slot
 * after it is free, walking back, so chains do not grow with forks. A slot
 * is only written by its thread (THP marks, system call, lock wait), by the
 * CPU switching it out, or under table_lock while it is free or a
 * tombstone; its thread adds no state after its exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/vmalloc.h>
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>
#include <linux/tracepoint.h>
#include "latmon.h"

#define THREAD_BITS	12
#define THREAD_SLOTS	BIT(THREAD_BITS)
#define THREAD_PROBES	64
#define TID_FREE	0
#define TID_DELETED	(-1)

static unsigned int max_threads = 1024;
module_param(max_threads, uint, 0444);
MODULE_PARM_DESC(max_threads, "targets (threads of the recorded processes) alive at once, 1-2048 (default 1024)");

static struct latmon_thread *threads;
static DEFINE_RAW_SPINLOCK(table_lock);
static u32 nr_live;			/* under table_lock */
static atomic64_t nr_followed, nr_refused;

static struct latmon_thread *slot(u32 i)
{
	return &threads[i & (THREAD_SLOTS - 1)];
}

/* The slot of target @tid, or NULL (any context, no lock). */
struct latmon_thread *latmon_thread_find(pid_t tid)
{
	u32 h = hash_32(tid, THREAD_BITS);
	unsigned int i;

	if (tid <= 0)		/* the idle tasks, or a free slot's marks */
		return NULL;
	for (i = 0; i < THREAD_PROBES; i++) {
		pid_t cur = READ_ONCE(slot(h + i)->tid);

		if (cur == tid)
			return slot(h + i);
		if (cur == TID_FREE)
			return NULL;
	}
	return NULL;
}

/* Add @tid under table_lock: 0, or -ENOSPC (limit or chain full). */
static int thread_add_locked(pid_t tid)
{
	u32 h = hash_32(tid, THREAD_BITS);
	struct latmon_thread *free = NULL;
	unsigned int i;

	for (i = 0; i < THREAD_PROBES; i++) {
		pid_t cur = slot(h + i)->tid;

		if (cur == tid)
			return 0;
		if (!free && (cur == TID_FREE || cur == TID_DELETED))
			free = slot(h + i);
		if (cur == TID_FREE)
			break;
	}
	if (!free || nr_live >= max_threads)
		return -ENOSPC;
	memset((char *)free + sizeof(free->tid), 0,
	       sizeof(*free) - sizeof(free->tid));
	/*
	 * the slot's other fields are zero before its tid makes it live
	 * to latmon_thread_find, which reads tid first
	 */
	smp_store_release(&free->tid, tid);
	nr_live++;
	atomic64_inc(&nr_followed);
	return 0;
}

/* Make the tombstone at @i free while the slot after it is free. */
static void thread_reclaim_locked(u32 i)
{
	while (slot(i)->tid == TID_DELETED && slot(i + 1)->tid == TID_FREE) {
		WRITE_ONCE(slot(i)->tid, TID_FREE);
		i--;
	}
}

static void thread_del_locked(pid_t tid)
{
	u32 h = hash_32(tid, THREAD_BITS);
	unsigned int i;

	for (i = 0; i < THREAD_PROBES; i++) {
		pid_t cur = slot(h + i)->tid;

		if (cur == TID_FREE)
			return;
		if (cur != tid)
			continue;
		WRITE_ONCE(slot(h + i)->tid, TID_DELETED);
		nr_live--;
		thread_reclaim_locked(h + i);
		return;
	}
}

static int thread_add(pid_t tid)
{
	unsigned long flags;
	int ret;

	raw_spin_lock_irqsave(&table_lock, flags);
	ret = thread_add_locked(tid);
	raw_spin_unlock_irqrestore(&table_lock, flags);
	if (ret)
		atomic64_inc(&nr_refused);
	return ret;
}

static void thread_del(pid_t tid)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&table_lock, flags);
	thread_del_locked(tid);
	raw_spin_unlock_irqrestore(&table_lock, flags);
}

/* A target creates a thread or a process: the child is a target too. */
static void fork_probe(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	if (latmon_is_target(parent))
		thread_add(child->pid);
}

/* A target exits: it leaves the table. */
static void exit_probe(void *data, struct task_struct *p)
{
	if (latmon_is_target(p))
		thread_del(p->pid);
}

static struct latmon_tp follow_tps[] = {
	{ .name = "sched_process_fork", .probe = fork_probe },
	{ .name = "sched_process_exit", .probe = exit_probe },
};

int latmon_threads_init(void)
{
	char reason[LATMON_REASON_LEN];

	if (max_threads < 1 || max_threads > THREAD_SLOTS / 2) {
		pr_err("max_threads=%u is out of range 1-%lu\n",
		       max_threads, THREAD_SLOTS / 2);
		return -EINVAL;
	}
	if (latmon_tp_lookup(follow_tps, ARRAY_SIZE(follow_tps), reason,
			     sizeof(reason))) {
		pr_err("cannot follow forks: %s\n", reason);
		return -ENOENT;
	}
	threads = vzalloc(THREAD_SLOTS * sizeof(*threads));
	return threads ? 0 : -ENOMEM;
}

void latmon_threads_exit(void)
{
	vfree(threads);
}

/*
 * Add the live threads of @leader's process. A thread that is exiting may
 * have passed sched_process_exit already: it is removed again. Its
 * PF_EXITING store comes before a full barrier (the signal->live decrement)
 * and its exit probe's lookup; the barrier here pairs with that one.
 */
static int threads_add_group(struct task_struct *leader)
{
	struct task_struct *t;
	int ret = 0;

	rcu_read_lock();
	for_each_thread(leader, t) {
		ret = thread_add(t->pid);
		if (ret)
			break;
		/*
		 * the slot is visible before PF_EXITING is read: a thread
		 * exiting meanwhile is seen here or found by the exit probe
		 */
		smp_mb();
		if (READ_ONCE(t->flags) & PF_EXITING)
			thread_del(t->pid);
	}
	rcu_read_unlock();
	return ret;
}

/*
 * START: an empty table, fork and exit followed, then @leader's threads.
 * latmon_target_tgid must be set already. -E2BIG if they are too many.
 */
int latmon_threads_start(struct task_struct *leader,
			 struct netlink_ext_ack *extack)
{
	int ret;

	memset(threads, 0, THREAD_SLOTS * sizeof(*threads));
	nr_live = 0;
	atomic64_set(&nr_followed, 0);
	atomic64_set(&nr_refused, 0);
	ret = latmon_tp_register(follow_tps, ARRAY_SIZE(follow_tps));
	if (ret) {
		NL_SET_ERR_MSG(extack, "latmon: cannot attach to sched_process_fork/exit");
		return ret;
	}
	ret = threads_add_group(leader);
	if (ret) {
		NL_SET_ERR_MSG(extack,
			       "latmon: the process has more threads than latmon follows (module parameter max_threads)");
		latmon_threads_stop();
		tracepoint_synchronize_unregister();
		return -E2BIG;
	}
	return 0;
}

/* STOP: forks no longer followed; the caller synchronises the probes. */
void latmon_threads_stop(void)
{
	latmon_tp_unregister(follow_tps, ARRAY_SIZE(follow_tps));
}

void latmon_threads_stats(struct latmon_threads_stats *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&table_lock, flags);
	st->live = nr_live;
	raw_spin_unlock_irqrestore(&table_lock, flags);
	st->max = max_threads;
	st->followed = atomic64_read(&nr_followed);
	st->refused = atomic64_read(&nr_refused);
}

/*
 * The calling thread reads /dev/latmon: if it is a target, its system calls
 * are not recorded, else each read() would leave a record for the next one.
 */
void latmon_thread_mark_reader(void)
{
	struct latmon_thread *t = READ_ONCE(latmon_target_tgid) ?
				  latmon_thread_find(current->pid) : NULL;

	if (t && !READ_ONCE(t->reader))
		WRITE_ONCE(t->reader, 1);
}
