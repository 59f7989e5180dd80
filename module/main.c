// SPDX-License-Identifier: GPL-2.0
/*
 * latmon: records what the kernel does to one process (page faults, THP
 * clears, preemption, interrupts), stamped with the TSC, into per-CPU rings
 * read from /dev/latmon; controlled by the "latmon" generic netlink family.
 *
 * This file: module init/exit, the source table and the session (START/STOP).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <linux/log2.h>
#include <asm/tsc.h>
#include "latmon.h"

const struct latmon_source_ops *const latmon_sources[] = {
	&latmon_src_fault,
	&latmon_src_thp,
	&latmon_src_sched,
	&latmon_src_irq,
	&latmon_src_zero,
	&latmon_src_compact,
	&latmon_src_reclaim,
	&latmon_src_syscall,
	&latmon_src_wait,
};

const unsigned int latmon_nr_sources = ARRAY_SIZE(latmon_sources);

/* Serializes the session: START, STOP, the sources' state and replies. */
DEFINE_MUTEX(latmon_mutex);
DECLARE_WAIT_QUEUE_HEAD(latmon_read_wq);
enum latmon_state latmon_state = LATMON_IDLE;
pid_t latmon_target_tgid;
struct pid_namespace *latmon_pid_ns;

static struct pid *target_pid;
static u32 attached_mask;

/*
 * The subsystems, set up in this order after the sources, torn down in
 * reverse.
 */
struct latmon_subsys {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
};

static const struct latmon_subsys subsystems[] = {
	{ "rings", latmon_rings_init, latmon_rings_exit },
	{ "threads", latmon_threads_init, latmon_threads_exit },
	{ "chardev", latmon_chardev_init, latmon_chardev_exit },
	{ "genl", latmon_genl_init, latmon_genl_exit },
};

/*
 * Test hook of the VM suite (tests/vm/t-15-initfail.sh): make init step N
 * fail as if it ran out of memory, to prove that every failure unwinds.
 * Steps 1..S resolve the S sources (latmon_sources), then one per
 * subsystem, then one after all of them; init_steps (read-only) says how
 * many there are. 0 (default): off.
 */
static unsigned int fail_init_step;
module_param(fail_init_step, uint, 0);
MODULE_PARM_DESC(fail_init_step, "test only: init step that fails with -ENOMEM (1..init_steps, 0 = none)");
static unsigned int init_steps = ARRAY_SIZE(latmon_sources) + ARRAY_SIZE(subsystems) + 1;
module_param(init_steps, uint, 0444);
MODULE_PARM_DESC(init_steps, "number of init steps: the sources, the subsystems, the last one");

static int init_step(unsigned int step, const char *what, int (*fn)(void))
{
	int ret;

	if (step == fail_init_step) {
		pr_info("init step %u (%s) fails: fail_init_step=%u\n",
			step, what, step);
		return -ENOMEM;
	}
	ret = fn ? fn() : 0;
	if (ret)
		pr_err("init step %u (%s) failed: %d\n", step, what, ret);
	return ret;
}

#define WAKE_PERIOD	msecs_to_jiffies(10)
static void wake_reader(struct work_struct *work);
static DECLARE_DELAYED_WORK(wake_work, wake_reader);

/* Periodic reader wake-up, so that probes never wake anyone themselves. */
static void wake_reader(struct work_struct *work)
{
	if (!latmon_rings_empty() && wq_has_sleeper(&latmon_read_wq))
		wake_up_interruptible(&latmon_read_wq);
	queue_delayed_work(LATMON_UNBOUND_WQ, &wake_work, WAKE_PERIOD);
}

/* @task's tid as seen from the session's pid namespace (0 if invisible). */
pid_t latmon_vpid(struct task_struct *task)
{
	struct pid_namespace *ns = READ_ONCE(latmon_pid_ns);

	if (!ns || ns == &init_pid_ns)
		return task->pid;
	return __task_pid_nr_ns(task, PIDTYPE_PID, ns);
}

/* Zero @ev and fill its type and the ids of @task. */
void latmon_event_init(struct latmon_event *ev, u16 type,
		       struct task_struct *task)
{
	struct pid_namespace *ns = READ_ONCE(latmon_pid_ns);

	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	if (!ns || ns == &init_pid_ns) {
		ev->pid = task->tgid;
		ev->tid = task->pid;
	} else {
		ev->pid = __task_pid_nr_ns(task, PIDTYPE_TGID, ns);
		ev->tid = __task_pid_nr_ns(task, PIDTYPE_PID, ns);
	}
}

u64 latmon_source_misses(const struct latmon_source_ops *src)
{
	u64 n = atomic64_read(&src->status->misses);

	return n + (src->misses ? src->misses() : 0);
}

/* The tgid being recorded, in the caller's pid namespace; 0 if none. */
pid_t latmon_session_vtgid(void)
{
	return target_pid ? pid_vnr(target_pid) : 0;
}

/* Detach the sources in @mask in reverse order, then wait for probes. */
static void sources_detach(u32 mask)
{
	unsigned int i;

	for (i = latmon_nr_sources; i-- > 0;) {
		const struct latmon_source_ops *src = latmon_sources[i];

		if (!(mask & LATMON_SRC_BIT(src->id)))
			continue;
		latmon_source_detach(src);
		src->status->attached = false;
	}
	tracepoint_synchronize_unregister();
	synchronize_rcu();
}

/* Attach the sources in @mask; all or nothing. */
static int sources_attach(u32 mask)
{
	u32 done = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < latmon_nr_sources; i++) {
		const struct latmon_source_ops *src = latmon_sources[i];

		if (!(mask & LATMON_SRC_BIT(src->id)))
			continue;
		atomic64_set(&src->status->misses, 0);
		ret = latmon_source_attach(src);
		if (ret) {
			pr_warn("attaching source %s: %d\n",
				src->name, ret);
			sources_detach(done);
			return ret;
		}
		src->status->attached = true;
		done |= LATMON_SRC_BIT(src->id);
	}
	return 0;
}

static u32 available_mask(void)
{
	u32 mask = 0;
	unsigned int i;

	for (i = 0; i < latmon_nr_sources; i++)
		if (latmon_sources[i]->status->available)
			mask |= LATMON_SRC_BIT(latmon_sources[i]->id);
	return mask;
}

/* Look up @nr in the caller's pid namespace; a referenced thread-group pid. */
static struct pid *target_lookup(u32 nr)
{
	struct pid *pid;

	rcu_read_lock();
	pid = find_vpid(nr);
	if (pid && !pid_task(pid, PIDTYPE_TGID))
		pid = NULL;
	pid = get_pid(pid);
	rcu_read_unlock();
	return pid;
}

/* Drop the session's target references; probes are detached. */
static void target_release(void)
{
	WRITE_ONCE(latmon_target_tgid, 0);
	put_pid(target_pid);
	target_pid = NULL;
	if (latmon_pid_ns)
		put_pid_ns(latmon_pid_ns);
	WRITE_ONCE(latmon_pid_ns, NULL);
}

/* Check the START arguments; sets *mask and *slots to what will be used. */
static int start_check(u32 *mask, u32 *slots, struct netlink_ext_ack *extack)
{
	if (latmon_state == LATMON_RUNNING) {
		NL_SET_ERR_MSG(extack, "latmon: a session is already running; send STOP first");
		return -EBUSY;
	}
	if (!*mask) {
		NL_SET_ERR_MSG(extack, "latmon: the source mask is empty");
		return -EINVAL;
	}
	if (*mask & ~available_mask()) {
		NL_SET_ERR_MSG(extack,
			       "latmon: the source mask names an unavailable source (see GET_INFO)");
		return -ENOENT;
	}
	*slots = roundup_pow_of_two(*slots);
	return 0;
}

/* Follow the target process's threads and what they create. */
static int threads_start(struct netlink_ext_ack *extack)
{
	struct task_struct *leader = get_pid_task(target_pid, PIDTYPE_TGID);
	int ret;

	if (!leader) {
		NL_SET_ERR_MSG(extack, "latmon: the process exited");
		return -ESRCH;
	}
	ret = latmon_threads_start(leader, extack);
	put_task_struct(leader);
	return ret;
}

/* Set up rings and target, then attach; called with latmon_mutex held. */
static int start_locked(u32 nr, u32 mask, u32 slots,
			struct netlink_ext_ack *extack)
{
	int ret = start_check(&mask, &slots, extack);

	if (ret)
		return ret;
	target_pid = target_lookup(nr);
	if (!target_pid) {
		NL_SET_ERR_MSG(extack,
			       "latmon: no process with this tgid in the caller's pid namespace");
		return -ESRCH;
	}
	ret = latmon_rings_alloc(slots);
	if (ret) {
		NL_SET_ERR_MSG(extack,
			       "latmon: cannot allocate the per-CPU buffers; use a smaller buffer size");
		goto err_target;
	}
	latmon_pid_ns = get_pid_ns(task_active_pid_ns(current));
	WRITE_ONCE(latmon_target_tgid, pid_nr(target_pid));
	ret = threads_start(extack);
	if (ret)
		goto err_target;
	ret = sources_attach(mask);
	if (ret) {
		NL_SET_ERR_MSG(extack, "latmon: attaching a probe failed (see the kernel log)");
		goto err_threads;
	}
	attached_mask = mask;
	WRITE_ONCE(latmon_state, LATMON_RUNNING);
	queue_delayed_work(LATMON_UNBOUND_WQ, &wake_work, WAKE_PERIOD);
	return 0;

err_threads:
	latmon_threads_stop();
	tracepoint_synchronize_unregister();
err_target:
	target_release();
	return ret;
}

/*
 * START: record process @nr (caller's pid namespace) with the sources in
 * *@mask (default: all available) and rings of *@slots records per CPU.
 */
int latmon_session_start(u32 nr, const u32 *mask, const u32 *slots,
			 struct netlink_ext_ack *extack)
{
	int ret;

	mutex_lock(&latmon_mutex);
	ret = start_locked(nr, mask ? *mask : available_mask(),
			   slots ? *slots : LATMON_DEFAULT_BUFFER_EVENTS, extack);
	mutex_unlock(&latmon_mutex);
	return ret;
}

/* Detach everything, append pending lost records, wake the reader. */
static void stop_locked(void)
{
	WRITE_ONCE(latmon_target_tgid, 0);
	latmon_threads_stop();
	sources_detach(attached_mask);
	attached_mask = 0;
	cancel_delayed_work_sync(&wake_work);
	latmon_rings_flush_lost();
	target_release();
	WRITE_ONCE(latmon_state, LATMON_STOPPED);
	wake_up_interruptible(&latmon_read_wq);
}

int latmon_session_stop(struct netlink_ext_ack *extack)
{
	int ret = 0;

	mutex_lock(&latmon_mutex);
	if (latmon_state == LATMON_RUNNING) {
		stop_locked();
	} else {
		NL_SET_ERR_MSG(extack, "latmon: no session is running");
		ret = -ENOENT;
	}
	mutex_unlock(&latmon_mutex);
	return ret;
}

/* Undo the resolve of the first @n sources, in reverse. */
static void sources_release(unsigned int n)
{
	while (n-- > 0)
		if (latmon_sources[n]->release)
			latmon_sources[n]->release();
}

/* Resolve every source; one that cannot be found is only unavailable. */
static int sources_resolve(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < latmon_nr_sources; i++) {
		const struct latmon_source_ops *src = latmon_sources[i];

		ret = init_step(i + 1, src->name, NULL);
		if (!ret)
			ret = latmon_source_resolve(src);
		if (ret) {
			sources_release(i);
			return ret;
		}
		if (!src->status->available)
			pr_info("source %s unavailable: %s\n",
				src->name, src->status->reason);
	}
	return 0;
}

/* Tear down the first @n subsystems, in reverse. */
static void subsystems_exit(unsigned int n)
{
	while (n-- > 0)
		subsystems[n].exit();
}

/* Set up every subsystem; on failure undo those already set up. */
static int subsystems_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(subsystems); i++) {
		ret = init_step(latmon_nr_sources + 1 + i, subsystems[i].name,
				subsystems[i].init);
		if (ret) {
			subsystems_exit(i);
			return ret;
		}
	}
	return 0;
}

static int __init latmon_init(void)
{
	int ret;

	ret = sources_resolve();
	if (ret)
		return ret;
	ret = subsystems_init();
	if (ret)
		goto err_sources;
	ret = init_step(init_steps, "done", NULL);
	if (ret)
		goto err_subsystems;
	pr_info("%s loaded, tsc_khz %u\n", LATMON_MODULE_VERSION, tsc_khz);
	return 0;

err_subsystems:
	subsystems_exit(ARRAY_SIZE(subsystems));
err_sources:
	sources_release(latmon_nr_sources);
	return ret;
}

/*
 * The mirror of init, with the session stopped once the family (the last
 * subsystem) is gone and no START can come.
 */
static void __exit latmon_exit(void)
{
	subsystems[ARRAY_SIZE(subsystems) - 1].exit();
	mutex_lock(&latmon_mutex);
	if (latmon_state == LATMON_RUNNING)
		stop_locked();
	mutex_unlock(&latmon_mutex);
	subsystems_exit(ARRAY_SIZE(subsystems) - 1);
	sources_release(latmon_nr_sources);
	pr_info("unloaded\n");
}

module_init(latmon_init);
module_exit(latmon_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latctl project");
MODULE_DESCRIPTION("latmon: TSC-stamped page faults, huge-page zeroing, compaction, reclaim, preemption and interrupts of one process");
MODULE_VERSION(LATMON_MODULE_VERSION);
