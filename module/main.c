// SPDX-License-Identifier: GPL-2.0
/*
 * latmon: records what the kernel does to one process (page faults, THP
 * clears, preemption, interrupts), stamped with the TSC, into per-CPU rings
 * read from /dev/latmon; controlled by the "latmon" generic netlink family.
 *
 * This file: module init/exit and the source table; the session (START,
 * STOP) is session.c.
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

		ret = init_step(i + 1, latmon_source_name(src->id), NULL);
		if (!ret)
			ret = latmon_source_resolve(src);
		if (ret) {
			sources_release(i);
			return ret;
		}
		if (!src->status->available)
			pr_info("source %s unavailable: %s\n",
				latmon_source_name(src->id), src->status->reason);
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
	latmon_session_end();
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
