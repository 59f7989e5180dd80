// SPDX-License-Identifier: GPL-2.0
/*
 * latctl's BPF backend: static tracepoints (tp_btf) of the target process
 * turned into the records latmon writes (include/latmon.h), into one BPF ring
 * buffer. Times are bpf_ktime_get_ns(); latctl maps them to the TSC.
 *
 * What the tracepoints give and what is estimated:
 *   fault      begins at exceptions:page_fault_user; ends (estimated) at the
 *              thread's next kmem:rss_stat (the new page is accounted just
 *              before it is mapped), its switch-out, or its next fault
 *              (marked LATBPF_REC_OPEN_END: latctl clips it to the iteration)
 *   thp clear  (estimated) from the order-9 kmem:mm_page_alloc inside a fault
 *              to that fault's rss_stat; the fault is flagged huge
 *   sched      switch-out to switch-in (sched_switch), exact
 *   migrate    sched_migrate_task, exact
 *   irq        hardirq, softirq, x86 vector entry/exit pairs while a target
 *              thread is current, exact; NMIs from nmi_handler's duration
 * Failed reservations are counted per CPU and reported by a LATMON_EV_LOST
 * record before the CPU's next record (or by latctl after detaching).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#define _LINUX_TYPES_H		/* vmlinux.h has the __u* types */
#include "latmon.h"
#include "latbpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid;

#define HPAGE_ORDER	9
#define HPAGE_SIZE	(1ULL << 21)
#define X86_PF_WRITE	(1UL << 1)
#define X86_PF_USER	(1UL << 2)
#define X86_PF_INSTR	(1UL << 4)
#define TASK_RUNNING	0

/* Per target thread: its open fault and its last switch-out. */
struct thread {
	__u64 fault_ns;		/* 0: no fault open */
	__u64 address;
	__u64 alloc9_ns;	/* order-9 allocation inside the open fault */
	__u32 fault_flags;	/* LATMON_FAULT_F_* so far */
	__u32 out_cpu;
	__u64 out_ns;		/* 0: not switched out */
	__u32 out_flags, out_state, other_pid, pad;
	char other_comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct thread);
} threads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct latbpf_cpu);
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);	/* set by latctl before load */
} rb SEC(".maps");

static const char softirq_names[10][16] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

static __always_inline bool is_target(struct task_struct *t)
{
	return BPF_CORE_READ(t, tgid) == (int)target_tgid;
}

static __always_inline bool current_is_target(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == target_tgid;
}

static __always_inline struct latbpf_cpu *this_cpu(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpus, &zero);
}

/* A zeroed record of type with this CPU's next number, or NULL. */
static __always_inline struct latmon_event *reserve(struct latbpf_cpu *c, __u16 type)
{
	struct latmon_event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return NULL;
	__builtin_memset(e, 0, sizeof(*e));
	e->type = type;
	e->size = sizeof(*e);
	e->cpu = bpf_get_smp_processor_id();
	e->seq = __sync_fetch_and_add(&c->seq, 1);
	return e;
}

/* Report drops still pending on this CPU; they stay pending if it fails. */
static __always_inline void flush_lost(struct latbpf_cpu *c)
{
	struct latmon_event *e;

	if (!c->lost)
		return;
	e = reserve(c, LATMON_EV_LOST);
	if (!e)
		return;
	e->tsc_begin = c->lost_first;
	e->tsc_end = c->lost_last;
	e->u.lost.count = __sync_lock_test_and_set(&c->lost, 0);
	e->u.lost.cpu = e->cpu;
	c->lost_records++;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* A record of type for task ids (pid_tgid as the helper gives it). */
static __always_inline struct latmon_event *start_record(__u16 type, __u64 ids, __u64 now)
{
	struct latbpf_cpu *c = this_cpu();
	struct latmon_event *e;

	if (!c)
		return NULL;
	if (type < LATBPF_NR_TYPES)
		c->tries[type]++;
	flush_lost(c);
	e = reserve(c, type);
	if (!e) {		/* an event dropped: reported by the next lost record */
		if (__sync_fetch_and_add(&c->lost, 1) == 0)
			c->lost_first = now;
		c->lost_last = now;
		__sync_fetch_and_add(&c->dropped, 1);
		return NULL;
	}
	e->pid = ids >> 32;
	e->tid = (__u32)ids;
	return e;
}

static __always_inline void submit(struct latmon_event *e)
{
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

static __always_inline struct thread *thread_of(struct task_struct *t, bool create)
{
	return bpf_task_storage_get(&threads, t, NULL,
				    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

/* The open fault of the current thread ends at now; end_mark: how we know. */
static __always_inline void end_fault(struct thread *t, __u64 now, __u16 end_mark)
{
	__u64 ids = bpf_get_current_pid_tgid();
	struct latmon_event *e;

	if (t->alloc9_ns && !end_mark) {
		e = start_record(LATMON_EV_THP_CLEAR, ids, now);
		if (e) {
			e->tsc_begin = t->alloc9_ns;
			e->tsc_end = now;
			e->u.thp.address = t->address & ~(HPAGE_SIZE - 1);
			e->u.thp.size = HPAGE_SIZE;
			submit(e);
		}
	}
	e = start_record(LATMON_EV_FAULT, ids, now);
	if (e) {
		e->reserved = end_mark;
		e->tsc_begin = t->fault_ns;
		e->tsc_end = now;
		e->u.fault.address = t->address;
		e->u.fault.flags = t->fault_flags;
		submit(e);
	}
	t->fault_ns = 0;
	t->alloc9_ns = 0;
}

SEC("tp_btf/page_fault_user")
int BPF_PROG(on_fault, unsigned long address, struct pt_regs *regs, unsigned long error_code)
{
	struct thread *t;
	__u64 now;

	if (!current_is_target())
		return 0;
	t = thread_of(bpf_get_current_task_btf(), true);
	if (!t)
		return 0;
	now = bpf_ktime_get_ns();
	if (t->fault_ns)
		end_fault(t, now, LATBPF_REC_OPEN_END);
	t->fault_ns = now;
	t->address = address;
	t->fault_flags = ((error_code & X86_PF_WRITE) ? LATMON_FAULT_F_WRITE : 0) |
			 ((error_code & X86_PF_USER) ? LATMON_FAULT_F_USER : 0) |
			 ((error_code & X86_PF_INSTR) ? LATMON_FAULT_F_INSTRUCTION : 0);
	return 0;
}

SEC("tp_btf/mm_page_alloc")
int BPF_PROG(on_page_alloc, struct page *page, unsigned int order, gfp_t gfp, int migratetype)
{
	struct thread *t;

	if (order != HPAGE_ORDER || !current_is_target())
		return 0;
	t = thread_of(bpf_get_current_task_btf(), false);
	if (t && t->fault_ns && !t->alloc9_ns) {
		t->alloc9_ns = bpf_ktime_get_ns();
		t->fault_flags |= LATMON_FAULT_F_HUGE;
	}
	return 0;
}

SEC("tp_btf/rss_stat")
int BPF_PROG(on_rss_stat, struct mm_struct *mm, int member)
{
	struct thread *t;

	if (!current_is_target())
		return 0;
	t = thread_of(bpf_get_current_task_btf(), false);
	if (t && t->fault_ns)
		end_fault(t, bpf_ktime_get_ns(), 0);
	return 0;
}

/* A target thread leaves the CPU: end its fault, remember why and who next. */
static __always_inline void switched_out(struct task_struct *prev, struct task_struct *next,
					 bool preempt, unsigned int prev_state, __u64 now)
{
	struct thread *t = thread_of(prev, true);

	if (!t)
		return;
	if (t->fault_ns)
		end_fault(t, now, 0);	/* prev is current here */
	t->out_ns = now;
	t->out_cpu = bpf_get_smp_processor_id();
	t->out_state = prev_state;
	t->out_flags = (preempt || prev_state == TASK_RUNNING) ? LATMON_SCHED_F_PREEMPTED : 0;
	t->other_pid = BPF_CORE_READ(next, pid);
	BPF_CORE_READ_STR_INTO(&t->other_comm, next, comm);
}

/* A target thread comes back: one record for the whole time it was out. */
static __always_inline void switched_in(struct task_struct *next, __u64 now)
{
	struct thread *t = thread_of(next, false);
	struct latmon_event *e;
	__u64 ids;

	if (!t || !t->out_ns)
		return;
	ids = ((__u64)BPF_CORE_READ(next, tgid) << 32) | (__u32)BPF_CORE_READ(next, pid);
	e = start_record(LATMON_EV_SCHED, ids, now);
	if (e) {
		e->tsc_begin = t->out_ns;
		e->tsc_end = now;
		e->u.sched.flags = t->out_flags;
		e->u.sched.other_pid = t->other_pid;
		__builtin_memcpy(e->u.sched.other_comm, t->other_comm, 16);
		e->u.sched.out_cpu = t->out_cpu;
		e->u.sched.prev_state = t->out_state;
		submit(e);
	}
	t->out_ns = 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	bool out = is_target(prev), in = is_target(next);
	__u64 now;

	if (!out && !in)
		return 0;
	now = bpf_ktime_get_ns();
	if (out)
		switched_out(prev, next, preempt, prev_state, now);
	if (in)
		switched_in(next, now);
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(on_migrate, struct task_struct *p, int dest_cpu)
{
	struct latmon_event *e;
	__u64 now, ids;

	if (!is_target(p))
		return 0;
	now = bpf_ktime_get_ns();
	ids = ((__u64)BPF_CORE_READ(p, tgid) << 32) | (__u32)BPF_CORE_READ(p, pid);
	e = start_record(LATMON_EV_MIGRATE, ids, now);
	if (!e)
		return 0;
	e->tsc_begin = e->tsc_end = now;
	e->u.migrate.from_cpu = BPF_CORE_READ(p, thread_info.cpu);
	e->u.migrate.to_cpu = dest_cpu;
	submit(e);
	return 0;
}

/* Interrupt entry: remember the time if a target thread was interrupted. */
static __always_inline void irq_mark(int slot)
{
	struct latbpf_cpu *c;

	if (!current_is_target())
		return;
	c = this_cpu();
	if (c && slot >= 0 && slot < LATBPF_NR_SLOTS)
		c->irq_ns[slot] = bpf_ktime_get_ns();
}

/* Interrupt exit: the record, if the entry was marked; its name set after. */
static __always_inline struct latmon_event *irq_record(int slot, __u32 kind, __u32 number)
{
	struct latbpf_cpu *c = this_cpu();
	struct latmon_event *e;
	__u64 begin, now;

	if (!c || slot < 0 || slot >= LATBPF_NR_SLOTS || !c->irq_ns[slot])
		return NULL;
	begin = c->irq_ns[slot];
	c->irq_ns[slot] = 0;
	now = bpf_ktime_get_ns();
	e = start_record(LATMON_EV_IRQ, bpf_get_current_pid_tgid(), now);
	if (!e)
		return NULL;
	e->tsc_begin = begin;
	e->tsc_end = now;
	e->u.irq.kind = kind;
	e->u.irq.number = number;
	return e;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(on_hard_entry, int irq, struct irqaction *action)
{
	irq_mark(LATBPF_SLOT_HARD);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(on_hard_exit, int irq, struct irqaction *action, int ret)
{
	struct latmon_event *e = irq_record(LATBPF_SLOT_HARD, LATMON_IRQ_HARD, irq);

	if (e) {
		bpf_probe_read_kernel_str(e->u.irq.name, sizeof(e->u.irq.name),
					  BPF_CORE_READ(action, name));
		submit(e);
	}
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(on_soft_entry, unsigned int vec)
{
	irq_mark(LATBPF_SLOT_SOFT);
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(on_soft_exit, unsigned int vec)
{
	struct latmon_event *e = irq_record(LATBPF_SLOT_SOFT, LATMON_IRQ_SOFT, vec);

	if (!e)
		return 0;
	if (vec < 10)
		__builtin_memcpy(e->u.irq.name, softirq_names[vec], 16);
	else
		e->u.irq.name[0] = '?';
	submit(e);
	return 0;
}

/* The x86 vectors: an entry and an exit program each, named like latmon. */
#define VECTOR(tp, slot, kind, label)						\
SEC("tp_btf/" #tp "_entry")							\
int BPF_PROG(on_##tp##_entry, int vector)					\
{										\
	irq_mark(slot);								\
	return 0;								\
}										\
SEC("tp_btf/" #tp "_exit")							\
int BPF_PROG(on_##tp##_exit, int vector)					\
{										\
	struct latmon_event *e = irq_record(slot, kind, vector);		\
										\
	if (e) {								\
		__builtin_memcpy(e->u.irq.name, label, sizeof(label));		\
		submit(e);							\
	}									\
	return 0;								\
}

VECTOR(local_timer, LATBPF_SLOT_TIMER, LATMON_IRQ_TIMER, "local_timer")
VECTOR(reschedule, LATBPF_SLOT_RESCHED, LATMON_IRQ_IPI, "reschedule")
VECTOR(call_function, LATBPF_SLOT_CALL, LATMON_IRQ_IPI, "call_function")
VECTOR(call_function_single, LATBPF_SLOT_CALL_SINGLE, LATMON_IRQ_IPI, "call_function_s")
VECTOR(irq_work, LATBPF_SLOT_IRQ_WORK, LATMON_IRQ_IPI, "irq_work")
VECTOR(x86_platform_ipi, LATBPF_SLOT_PLATFORM, LATMON_IRQ_IPI, "x86_platform_ip")

/* nmi_handler fires after each handler with its duration. */
SEC("tp_btf/nmi_handler")
int BPF_PROG(on_nmi, void *handler, s64 delta_ns, int handled)
{
	struct latmon_event *e;
	__u64 now;

	if (!current_is_target())
		return 0;
	now = bpf_ktime_get_ns();
	e = start_record(LATMON_EV_IRQ, bpf_get_current_pid_tgid(), now);
	if (!e)
		return 0;
	e->tsc_begin = delta_ns > 0 && (__u64)delta_ns < now ? now - delta_ns : now;
	e->tsc_end = now;
	e->u.irq.kind = LATMON_IRQ_NMI;
	e->u.irq.number = handled;
	__builtin_memcpy(e->u.irq.name, "nmi", 4);
	submit(e);
	return 0;
}
