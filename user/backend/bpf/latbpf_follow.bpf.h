/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Part of latbpf.bpf.c (included once, after its maps): which processes are
 * targets, and the two programs that keep the set of followed processes.
 */
#ifndef LATBPF_FOLLOW_BPF_H
#define LATBPF_FOLLOW_BPF_H

/*
 * The targets: latctl's process (target_tgid) and every process it or a
 * followed one forks from attach on (a new thread of a target is one by
 * its tgid). A forked process is followed until its last thread exits; at
 * most max_entries (set by latctl) at once, a fork beyond is refused and
 * counted. follow.live is 0 while nothing is followed: one compare and one
 * load then, no lookup.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LATBPF_FOLLOW_MAX);
	__type(key, __u32);
	__type(value, __u32);
} followed SEC(".maps");

/* Every tgid followed ([0, LOG)) and refused ([LOG, 2 LOG)), in order. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * LATBPF_FOLLOW_LOG);
	__type(key, __u32);
	__type(value, __u32);
} follow_log SEC(".maps");

struct latbpf_follow follow;

/* Per CPU: the last answer of followed, (gen << 33 | tgid << 1 | yes) in one
 * word (a nested program may overwrite it, never tear it), valid while
 * follow.gen (moved by every add and removal) has not moved. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} follow_cache SEC(".maps");

static __always_inline bool tgid_followed(__u32 tgid)
{
	__u64 gen = follow.gen & 0x7fffffff, key = gen << 33 | (__u64)tgid << 1, *c;
	__u32 zero = 0;
	bool yes;

	c = bpf_map_lookup_elem(&follow_cache, &zero);
	if (c && (*c & ~1ULL) == key)
		return *c & 1;
	yes = bpf_map_lookup_elem(&followed, &tgid);
	if (c)
		*c = key | yes;
	return yes;
}

static __always_inline bool tgid_is_target(__u32 tgid)
{
	return tgid == target_tgid || (follow.live && tgid_followed(tgid));
}

/* Slot n of follow_log's half from base, if there is one. */
static __always_inline void log_tgid(__u32 base, __u64 n, __u32 tgid)
{
	__u32 i = base + (__u32)n;

	if (n < LATBPF_FOLLOW_LOG)
		bpf_map_update_elem(&follow_log, &i, &tgid, BPF_ANY);
}

/* A target forks a process: follow it, or count the refusal. The child has
 * not run yet (the tracepoint fires before it is woken). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_proc_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 tgid = BPF_CORE_READ(child, tgid), from = BPF_CORE_READ(parent, tgid), one = 1;
	long err;

	if (tgid == from || !tgid_is_target(from))
		return 0;
	err = bpf_map_update_elem(&followed, &tgid, &one, BPF_NOEXIST);
	if (err == -17)		/* EEXIST: followed already */
		return 0;
	if (err) {
		log_tgid(LATBPF_FOLLOW_LOG, __sync_fetch_and_add(&follow.refused, 1), tgid);
		return 0;
	}
	__sync_fetch_and_add(&follow.live, 1);
	__sync_fetch_and_add(&follow.gen, 1);
	log_tgid(0, __sync_fetch_and_add(&follow.followed, 1), tgid);
	return 0;
}

/* The last thread of a followed process exits (signal->live has dropped to
 * 0 before the tracepoint): it leaves the map. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_proc_exit, struct task_struct *p)
{
	__u32 tgid;

	if (!follow.live || BPF_CORE_READ(p, signal, live.counter))
		return 0;
	tgid = BPF_CORE_READ(p, tgid);
	if (bpf_map_delete_elem(&followed, &tgid))
		return 0;
	__sync_fetch_and_sub(&follow.live, 1);
	__sync_fetch_and_add(&follow.gen, 1);
	return 0;
}

#endif /* LATBPF_FOLLOW_BPF_H */
