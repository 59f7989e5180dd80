/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System calls of the followed processes other than latctl's own (the exec
 * workload's command): entry at raw_syscalls:sys_enter kept in the thread's
 * storage, one LATMON_EV_SYSCALL record at sys_exit, as latmon's syscall
 * source writes them. Loaded only when the workload asks (exec); a call
 * that does not return (exit, a successful execve) leaves no record.
 * Included from latbpf.bpf.c.
 */
#define SYS_COMPAT_BIT	0x40000000	/* x32: not the compat flag */

struct sys_entry {
	__u64 begin_ns;		/* 0: no call open */
	__u64 args[2];
	__u32 nr;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct sys_entry);
} sys_open SEC(".maps");

static __always_inline bool sys_traced(__u64 ids)
{
	return (__u32)(ids >> 32) != target_tgid && tgid_is_target(ids >> 32);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(on_sys_enter, struct pt_regs *regs, long id)
{
	__u64 ids = current_ids();
	struct sys_entry *s;

	if (!sys_traced(ids))
		return 0;
	s = bpf_task_storage_get(&sys_open, bpf_get_current_task_btf(), NULL,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!s)
		return 0;
	s->nr = (__u32)id;
	s->args[0] = BPF_CORE_READ(regs, di);
	s->args[1] = BPF_CORE_READ(regs, si);
	s->begin_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(on_sys_exit, struct pt_regs *regs, long ret)
{
	struct latmon_event e = { .type = LATMON_EV_SYSCALL };
	__u64 ids = current_ids(), now;
	struct sys_entry *s;

	if (!sys_traced(ids))
		return 0;
	s = bpf_task_storage_get(&sys_open, bpf_get_current_task_btf(), NULL, 0);
	if (!s || !s->begin_ns)
		return 0;
	now = bpf_ktime_get_ns();
	e.tsc_begin = s->begin_ns;
	e.tsc_end = now;
	e.u.syscall.ret = ret;
	e.u.syscall.nr = s->nr;
	e.u.syscall.args[0] = s->args[0];
	e.u.syscall.args[1] = s->args[1];
	s->begin_ns = 0;
	submit(&e, ids, now);
	return 0;
}
