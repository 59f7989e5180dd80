// SPDX-License-Identifier: GPL-2.0
/*
 * Source "syscall": the raw system-call tracepoints sys_enter and sys_exit
 * give, for each system call of a target thread, one record from entry to
 * exit with its number, first two arguments and return value. The entry
 * half is kept in the thread's slot (threads.c); the record is written at
 * exit, on the CPU where the call returns. A call that does not return
 * (exit, a successful execve's old image) leaves no record, nor do the calls
 * of a target thread that reads /dev/latmon (each read would record one).
 */
#include <linux/compat.h>
#include <linux/ptrace.h>
#include <asm/syscall.h>
#include <asm/msr.h>
#include "latmon.h"

static struct latmon_source_status syscall_status;

static void sys_enter_probe(void *data, struct pt_regs *regs, long id)
{
	struct latmon_thread *t;
	unsigned long args[6];

	if (!READ_ONCE(latmon_target_tgid))
		return;
	t = latmon_thread_find(current->pid);
	if (!t || READ_ONCE(t->reader))
		return;
	syscall_get_arguments(current, regs, args);
	t->sys_args[0] = args[0];
	t->sys_args[1] = args[1];
	t->sys_nr = id;
	t->sys_flags = in_compat_syscall() ? LATMON_SYSCALL_F_COMPAT : 0;
	WRITE_ONCE(t->sys_tsc, rdtsc_ordered());
}

static void sys_exit_probe(void *data, struct pt_regs *regs, long ret)
{
	struct latmon_thread *t;
	struct latmon_event ev;
	u64 begin;

	if (!READ_ONCE(latmon_target_tgid))
		return;
	t = latmon_thread_find(current->pid);
	begin = t ? READ_ONCE(t->sys_tsc) : 0;
	if (!begin)
		return;		/* entered before START */
	latmon_event_init(&ev, LATMON_EV_SYSCALL, current);
	ev.tsc_begin = begin;
	ev.tsc_end = rdtsc_ordered();
	ev.u.syscall.ret = ret;
	ev.u.syscall.nr = t->sys_nr;
	ev.u.syscall.flags = t->sys_flags;
	ev.u.syscall.args[0] = t->sys_args[0];
	ev.u.syscall.args[1] = t->sys_args[1];
	WRITE_ONCE(t->sys_tsc, 0);
	latmon_ring_write(&ev);
}

static struct latmon_tp syscall_tps[] = {
	{ .name = "sys_enter", .probe = sys_enter_probe },
	{ .name = "sys_exit", .probe = sys_exit_probe },
};

/* Available only with both tracepoints (CONFIG_HAVE_SYSCALL_TRACEPOINTS). */
static bool syscall_available(struct latmon_tp *tps)
{
	return tps[0].tp && tps[1].tp;
}

static const struct latmon_tp_source syscall_source = {
	.tps = syscall_tps,
	.n = ARRAY_SIZE(syscall_tps),
	.available = syscall_available,
};

const struct latmon_source_ops latmon_src_syscall = {
	.id = LATMON_SRC_SYSCALL,
	.status = &syscall_status,
	.tp = &syscall_source,
};
