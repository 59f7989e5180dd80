// SPDX-License-Identifier: GPL-2.0
/*
 * The session: START attaches the sources to one process and starts the
 * threads and the reader's wake-up, STOP undoes it; the state every source
 * and reply reads, under latmon_mutex. Called by genl.c (the requests) and
 * main.c (the module's exit).
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

/* Serializes the session: START, STOP, the sources' state and replies. */
DEFINE_MUTEX(latmon_mutex);
DECLARE_WAIT_QUEUE_HEAD(latmon_read_wq);
enum latmon_state latmon_state = LATMON_IDLE;
pid_t latmon_target_tgid;
struct pid_namespace *latmon_pid_ns;

static struct pid *target_pid;
static u32 attached_mask;

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
				latmon_source_name(src->id), ret);
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

void latmon_session_end(void)
{
	mutex_lock(&latmon_mutex);
	if (latmon_state == LATMON_RUNNING)
		stop_locked();
	mutex_unlock(&latmon_mutex);
}
