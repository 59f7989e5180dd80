// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/latmon: one reader at a time reads whole records. read() blocks until
 * records arrive (woken every 10 ms while recording, and by STOP), honours
 * O_NONBLOCK (EAGAIN), and returns 0 (EOF) once a stopped session's records
 * are all read; the next START makes it block again.
 */
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/capability.h>
#include <linux/nsproxy.h>
#include <net/net_namespace.h>
#include "latmon.h"

static atomic_t reader_open = ATOMIC_INIT(0);

static int latmon_open(struct inode *inode, struct file *file)
{
	/* as the genl family: CAP_SYS_ADMIN, and only from the initial netns */
	if (!capable(CAP_SYS_ADMIN) || !net_eq(current->nsproxy->net_ns, &init_net))
		return -EPERM;
	if (atomic_cmpxchg(&reader_open, 0, 1))
		return -EBUSY;
	return stream_open(inode, file);
}

static int latmon_release(struct inode *inode, struct file *file)
{
	atomic_set(&reader_open, 0);
	return 0;
}

/* True when read() would not block: records, or EOF of a stopped session. */
static bool latmon_readable(void)
{
	return !latmon_rings_empty() || READ_ONCE(latmon_state) == LATMON_STOPPED;
}

static ssize_t latmon_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	ssize_t ret;
	bool eof;

	if (count < sizeof(struct latmon_event))
		return -EINVAL;
	latmon_thread_mark_reader();
	for (;;) {
		if (mutex_lock_interruptible(&latmon_mutex))
			return -ERESTARTSYS;
		ret = latmon_rings_read(buf, count);
		eof = READ_ONCE(latmon_state) == LATMON_STOPPED;
		mutex_unlock(&latmon_mutex);
		if (ret || eof)
			return ret;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(latmon_read_wq, latmon_readable()))
			return -ERESTARTSYS;
	}
}

/* EPOLLIN when records wait; EPOLLIN|EPOLLHUP at EOF of a stopped session. */
static __poll_t latmon_poll(struct file *file, poll_table *wait)
{
	latmon_thread_mark_reader();
	poll_wait(file, &latmon_read_wq, wait);
	if (!latmon_rings_empty())
		return EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(latmon_state) == LATMON_STOPPED)
		return EPOLLIN | EPOLLRDNORM | EPOLLHUP;
	return 0;
}

static const struct file_operations latmon_fops = {
	.owner = THIS_MODULE,
	.open = latmon_open,
	.release = latmon_release,
	.read = latmon_read,
	.poll = latmon_poll,
};

static struct miscdevice latmon_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "latmon",
	.fops = &latmon_fops,
	.mode = 0600,
};

int latmon_chardev_init(void)
{
	return misc_register(&latmon_misc);
}

void latmon_chardev_exit(void)
{
	misc_deregister(&latmon_misc);
}
