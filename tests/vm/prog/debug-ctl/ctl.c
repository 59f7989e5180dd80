// SPDX-License-Identifier: GPL-2.0
/*
 * Positive control of scripts/testbed/debug-kernel.sh --check: a module whose init
 * commits one bug of each kind the debug kernel must report (KASAN
 * out-of-bounds read, sleep under a spinlock, UBSAN array index, a leak
 * kmemleak finds after rmmod, two mutexes taken in both orders, which
 * lockdep reports as a possible deadlock although none happens). Never
 * loaded outside that self-test.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>

static DEFINE_SPINLOCK(ctl_lock);
static int ctl_arr[4];
static volatile int ctl_idx = 5;
static void *ctl_leak;
static DEFINE_MUTEX(ctl_a);
static DEFINE_MUTEX(ctl_b);

/* A then B, later B then A: an ABBA order lockdep must flag. */
static void ctl_abba(void)
{
	mutex_lock(&ctl_a);
	mutex_lock(&ctl_b);
	mutex_unlock(&ctl_b);
	mutex_unlock(&ctl_a);
	mutex_lock(&ctl_b);
	mutex_lock(&ctl_a);
	mutex_unlock(&ctl_a);
	mutex_unlock(&ctl_b);
}

static int __init ctl_init(void)
{
	char *p = kmalloc(32, GFP_KERNEL);
	volatile char c;

	ctl_abba();	/* first: a KASAN report turns lockdep off */
	ctl_leak = kmalloc(100, GFP_KERNEL);
	ctl_leak = NULL;
	if (p) {
		c = p[40];
		(void)c;
		kfree(p);
	}
	spin_lock(&ctl_lock);
	might_sleep();
	spin_unlock(&ctl_lock);
	pr_info("latmon-debug-ctl: %d\n", ctl_arr[ctl_idx]);
	return 0;
}

static void __exit ctl_exit(void)
{
}

module_init(ctl_init);
module_exit(ctl_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("positive control for the latmon debug-kernel run");
