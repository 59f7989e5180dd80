// SPDX-License-Identifier: GPL-2.0
/*
 * latctl's BPF backend: static tracepoints (tp_btf) of the target processes
 * (latctl's and those it forks: latbpf_follow.bpf.h) turned into the records
 * latmon writes (include/latmon.h), into one BPF ring buffer. Times are
 * bpf_ktime_get_ns(); latctl maps them to the TSC.
 *
 * What the tracepoints give and what is estimated:
 *   fault      begins at exceptions:page_fault_user (or page_fault_kernel on
 *              a user address); ends (estimated) at the thread's next
 *              kmem:rss_stat (the new page is accounted just before it is
 *              mapped), its switch-out (marked LATBPF_REC_OUT_END), or its
 *              next fault (marked LATBPF_REC_OPEN_END: latctl clips it to
 *              the iteration)
 *   thp clear  (estimated) from the order-9 kmem:mm_page_alloc inside a fault
 *              to that fault's end (as the fault's, an open end marked), or where the allocator zeroes pages
 *              (init_on_alloc) from the fault's begin to that allocation;
 *              the fault is flagged huge
 *   sched      switch-out to switch-in (sched_switch), exact
 *   migrate    sched_migrate_task, exact
 *   wake       sched_waking of a target thread: who woke it (the task
 *              current then, or the interrupt it was in), exact
 *   irq        hardirq, softirq, x86 vector entry/exit pairs while a target
 *              thread is current, exact; NMIs from nmi_handler's duration
 *   steal      the CPU's steal clock read at the thread's switches and
 *              ticks: how much of the time between two readings the
 *              hypervisor ran something else (latbpf_steal.bpf.h)
 *   syscall    sys_enter to sys_exit of the exec workload's command, exact
 *              (latbpf_sys.bpf.h; loaded for exec only)
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
/* Set by latctl before load: a swap-in or a NUMA hinting fault can happen
 * (swap on, NUMA balancing on), so the kinds they look like are unknown. */
const volatile bool swap_on, numa_on;
/* mm_filemap_fault is attached (Linux 6.10 and later): a new anonymous page
 * in a fault that did not read a file is anonymous memory's. */
const volatile bool have_filemap_fault;
/* The allocator zeroes pages itself (init_on_alloc=1, Debian's default):
 * a static key, read where the kernel lets libbpf find it. */
extern const void init_on_alloc __ksym __weak;

#define HPAGE_ORDER	9
#define HPAGE_SIZE	(1ULL << 21)
#define X86_PF_PROT (1UL << 0)
#define X86_PF_WRITE	(1UL << 1)
#define X86_PF_USER	(1UL << 2)
#define X86_PF_INSTR	(1UL << 4)
#define TASK_RUNNING	0

/* A fault that has begun and not ended: one per CPU (the fault path only
 * touches this CPU's), moved into its thread while the thread is off-CPU. */
struct open_fault {
	__u64 begin_ns;		/* 0: none */
	__u64 address;
	__u64 alloc9_ns;	/* order-9 allocation inside it */
	__u64 zeroed_ns;	/* the huge page came zeroed (init_on_alloc): when */
	__u32 tid;
	__u32 flags;		/* LATMON_FAULT_F_* so far */
	__u8 present;		/* the error code's P: a present page it may not use */
	__u8 rss;		/* 1 + the first rss_stat member it changed, 0: none */
	__u8 alloc0;		/* a 4 KiB page was allocated inside it */
	__u8 cache_add;		/* a page was added to the page cache inside it */
	__u8 file_fault;	/* it asked the page cache for a file's page */
};

/* Per target thread: its last switch-out, and a fault it left open. */
struct thread {
	struct open_fault fault;
	__u64 out_ns;		/* 0: not switched out */
	__u32 out_cpu, out_flags, out_state, other_pid;
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
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct open_fault);
} faults SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct latbpf_batch);
} batches SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);	/* set by latctl before load */
} rb SEC(".maps");

static const char softirq_names[10][16] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

#include "latbpf_follow.bpf.h"

static __always_inline bool is_target(struct task_struct *t)
{
	return tgid_is_target(BPF_CORE_READ(t, tgid));
}

static __always_inline bool current_is_target(void)
{
	return tgid_is_target(bpf_get_current_pid_tgid() >> 32);
}

static __always_inline struct latbpf_cpu *this_cpu(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpus, &zero);
}

/*
 * Records are built on the stack. Those of the fault path and the scheduler
 * (task context, never nested: tracepoint probes run with preemption off,
 * and interrupt programs write directly) are gathered per CPU in batches of
 * LATBPF_BATCH and written to the ring as one entry, which saves a ring
 * reservation per record on the fault path; interrupt records, migrations
 * and lost records go straight into the ring. A record's number (seq) is
 * taken when it gets room in the ring, so a dropped one leaves no hole. No
 * wakeup: latctl drains the ring on a timer and reads the partial batches
 * at the end.
 */

/* e into the ring, numbered: 0, or -1 when the ring is full. */
static __always_inline long put(struct latbpf_cpu *c, const struct latmon_event *e)
{
	struct latmon_event *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	if (!r)
		return -1;
	__builtin_memcpy(r, e, sizeof(*r));
	r->seq = __sync_fetch_and_add(&c->seq, 1);
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

/* n events dropped, the first of them ended at first, the last at now. */
static __always_inline void count_lost(struct latbpf_cpu *c, __u64 first, __u64 now, __u64 n)
{
	if (__sync_fetch_and_add(&c->lost, n) == 0)
		c->lost_first = first;
	c->lost_last = now;
	__sync_fetch_and_add(&c->dropped, n);
}

/* Report drops still pending on this CPU; they stay pending if it fails. */
static __always_inline void flush_lost(struct latbpf_cpu *c)
{
	struct latmon_event e = { .type = LATMON_EV_LOST, .size = sizeof(e) };

	if (!c->lost)
		return;
	e.cpu = bpf_get_smp_processor_id();
	e.tsc_begin = c->lost_first;
	e.tsc_end = c->lost_last;
	e.u.lost.count = c->lost;
	e.u.lost.cpu = e.cpu;
	if (put(c, &e))
		return;
	__sync_fetch_and_sub(&c->lost, e.u.lost.count);
	c->lost_records++;
}

static __always_inline struct latbpf_batch *this_batch(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&batches, &zero);
}

/* A full batch into the ring as one entry, numbered in order. */
static __always_inline void flush_batch(struct latbpf_cpu *c, struct latbpf_batch *b, __u64 now)
{
	struct latmon_event *r;
	__u64 seq;
	int i;

	flush_lost(c);
	b->n = 0;
	r = bpf_ringbuf_reserve(&rb, sizeof(b->ev), 0);
	if (!r) {
		count_lost(c, b->ev[0].tsc_end, now, LATBPF_BATCH);
		return;
	}
	seq = __sync_fetch_and_add(&c->seq, LATBPF_BATCH);
	for (i = 0; i < LATBPF_BATCH; i++) {
		__builtin_memcpy(&r[i], &b->ev[i], sizeof(r[i]));
		r[i].seq = seq + i;
	}
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
}

/* Write record e (type, times and payload set) for the task of ids
 * (tgid << 32 | pid), through this CPU's batch or straight; a failure is
 * counted and reported later. */
static __always_inline void submit_how(struct latmon_event *e, __u64 ids, __u64 now, bool batched)
{
	struct latbpf_cpu *c = this_cpu();
	struct latbpf_batch *b;
	__u32 n;

	if (!c)
		return;
	if (e->type < LATBPF_NR_TYPES)
		c->tries[e->type]++;
	e->size = sizeof(*e);
	e->cpu = bpf_get_smp_processor_id();
	e->pid = ids >> 32;
	e->tid = (__u32)ids;
	b = batched ? this_batch() : NULL;
	if (b) {
		n = b->n & (LATBPF_BATCH - 1);
		__builtin_memcpy(&b->ev[n], e, sizeof(*e));
		b->n = n + 1;
		if (b->n == LATBPF_BATCH)
			flush_batch(c, b, now);
		return;
	}
	flush_lost(c);
	if (put(c, e))
		count_lost(c, now, now, 1);
}

/* Task-context records: faults, huge-page zeroing, switches. */
static __always_inline void submit(struct latmon_event *e, __u64 ids, __u64 now)
{
	submit_how(e, ids, now, true);
}

/* Records of interrupt context (which may nest into a task's program). */
static __always_inline void submit_now(struct latmon_event *e, __u64 ids, __u64 now)
{
	submit_how(e, ids, now, false);
}

/* This CPU's open fault slot. */
static __always_inline struct open_fault *cpu_fault(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&faults, &zero);
}

/* The open fault of the current thread tid, or NULL. */
static __always_inline struct open_fault *fault_of(__u32 tid)
{
	struct open_fault *f = cpu_fault();

	return f && f->begin_ns && f->tid == tid ? f : NULL;
}

static __always_inline struct thread *thread_of(struct task_struct *t, bool create)
{
	return bpf_task_storage_get(&threads, t, NULL,
				    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

/* The evidence's kind: what it mapped, told by the counters it moved and
 * what it allocated; latctl refines those that depend on the mapping
 * (ANON on a private file is a copy, COW on a shared one is WP). */
static __always_inline __u8 fault_kind(const struct open_fault *f, __u16 end_mark, __u16 *why)
{
	*why = 0;
	if (f->flags & LATMON_FAULT_F_HUGE)
		return LATMON_FK_THP;
	if (f->present)
		return !(f->flags & LATMON_FAULT_F_WRITE) ? LATMON_FK_OTHER :
		       f->alloc0			  ? LATMON_FK_COW :
							    LATMON_FK_WP;
	if (f->rss == 1 + MM_FILEPAGES || f->rss == 1 + MM_SHMEMPAGES || f->cache_add)
		return f->cache_add ? LATMON_FK_FILE_IO : LATMON_FK_FILE;
	if (f->rss == 1 + MM_ANONPAGES) {
		if (f->file_fault)
			return LATMON_FK_COW; /* a private file's page, copied */
		if (!swap_on)
			return LATMON_FK_ANON;
		*why = LATMON_FKW_SWAP_ON;
	} else if (f->rss) {
		*why = LATMON_FKW_NO_EVIDENCE;
	} else if (end_mark == LATBPF_REC_OPEN_END && !(f->flags & LATMON_FAULT_F_WRITE)) {
		/* a read that mapped nothing counted: the zero page */
		if (!numa_on)
			return LATMON_FK_ZERO;
		*why = LATMON_FKW_NUMA_ON;
	} else {
		*why = end_mark == LATBPF_REC_OUT_END ? LATMON_FKW_OPEN_END :
							LATMON_FKW_NO_EVIDENCE;
	}
	return LATMON_FK_UNKNOWN;
}

/* The open fault f of the current thread ends at now; end_mark: how we know. */
static __always_inline void end_fault(struct open_fault *f, __u64 ids, __u64 now, __u16 end_mark)
{
	struct latmon_event e = { .type = LATMON_EV_FAULT };

	if (f->alloc9_ns) {
		struct latmon_event thp = { .type = LATMON_EV_THP_CLEAR };

		/* zeroed inside the allocation (before its tracepoint) or after;
		 * an open end is clipped by latctl as the fault's is */
		thp.reserved = end_mark == LATBPF_REC_OPEN_END ? end_mark : 0;
		thp.tsc_begin = f->zeroed_ns ? f->begin_ns : f->alloc9_ns;
		thp.tsc_end = f->zeroed_ns ? f->zeroed_ns : now;
		thp.u.thp.address = f->address & ~(HPAGE_SIZE - 1);
		thp.u.thp.size = HPAGE_SIZE;
		submit(&thp, ids, now);
	}
	e.reserved = end_mark;
	e.tsc_begin = f->begin_ns;
	e.tsc_end = now;
	e.u.fault.address = f->address;
	e.u.fault.flags = f->flags;
	e.u.fault.kind = fault_kind(f, end_mark, &e.u.fault.why);
	submit(&e, ids, now);
	f->begin_ns = 0;
	f->alloc9_ns = 0;
	f->zeroed_ns = 0;
	f->rss = f->alloc0 = f->cache_add = f->file_fault = 0;
}

/* tgid << 32 | pid of the current task, from its task_struct (CO-RE field
 * reads of a trusted pointer: no helper call on the hot paths). */
static __always_inline __u64 current_ids(void)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return ((__u64)(__u32)t->tgid << 32) | (__u32)t->pid;
}

#include "latbpf_steal.bpf.h"

/* A fault of the current thread begins. */
static __always_inline int fault_begin(unsigned long address, unsigned long error_code)
{
	__u64 ids = current_ids(), now;
	struct open_fault *f;

	if (!tgid_is_target(ids >> 32))
		return 0;
	f = cpu_fault();
	if (!f)
		return 0;
	now = bpf_ktime_get_ns();
	if (f->begin_ns)
		end_fault(f, (ids & ~0xffffffffULL) | f->tid, now, LATBPF_REC_OPEN_END);
	f->begin_ns = now;
	f->address = address;
	f->tid = (__u32)ids;
	f->flags = ((error_code & X86_PF_WRITE) ? LATMON_FAULT_F_WRITE : 0) |
		   ((error_code & X86_PF_USER) ? LATMON_FAULT_F_USER : 0) |
		   ((error_code & X86_PF_INSTR) ? LATMON_FAULT_F_INSTRUCTION : 0);
	f->present = !!(error_code & X86_PF_PROT);
	f->rss = f->alloc0 = f->cache_add = f->file_fault = 0;
	return 0;
}

/* Whether the page allocator zeroes what it hands out (init_on_alloc's
 * static key enabled); false where the symbol cannot be found. */
static __always_inline bool zeroing_allocator(void)
{
	int enabled = 0;

	if (!&init_on_alloc)
		return false;
	bpf_probe_read_kernel(&enabled, sizeof(enabled), &init_on_alloc);
	return enabled > 0;
}

SEC("tp_btf/page_fault_user")
int BPF_PROG(on_fault, unsigned long address, struct pt_regs *regs, unsigned long error_code)
{
	return fault_begin(address, error_code);
}

/* The kernel faulting on user memory for the thread (a system call writing
 * into a fresh buffer, the child tid written at fork); getrusage counts
 * these too. Kernel addresses (the upper half) are not the thread's, nor
 * an access with page faults disabled (a futex's atomic access to a page
 * not mapped yet): it is not handled, only fixed up, and the caller faults
 * the page in again with a fault of its own, which getrusage counts once. */
SEC("tp_btf/page_fault_kernel")
int BPF_PROG(on_kernel_fault, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	struct task_struct *t = bpf_get_current_task_btf();

	if ((long)address < 0 || t->pagefault_disabled)
		return 0;
	return fault_begin(address, error_code);
}

SEC("tp_btf/mm_page_alloc")
int BPF_PROG(on_page_alloc, struct page *page, unsigned int order, gfp_t gfp, int migratetype)
{
	struct open_fault *f;
	__u64 ids;

	if (order != HPAGE_ORDER && order != 0)
		return 0;
	ids = current_ids();
	if (!tgid_is_target(ids >> 32))
		return 0;
	f = fault_of((__u32)ids);
	if (f && order == 0) {
		f->alloc0 = 1;
		return 0;
	}
	if (f && !f->alloc9_ns) {
		f->alloc9_ns = bpf_ktime_get_ns();
		f->zeroed_ns = zeroing_allocator() ? f->alloc9_ns : 0;
		f->flags |= LATMON_FAULT_F_HUGE;
	}
	return 0;
}

/* The fault the current thread has open, when it is a target; ids: its. */
static __always_inline struct open_fault *current_fault(__u64 *ids)
{
	*ids = current_ids();
	return tgid_is_target(*ids >> 32) ? fault_of((__u32)*ids) : NULL;
}

SEC("tp_btf/rss_stat")
int BPF_PROG(on_rss_stat, struct mm_struct *mm, int member)
{
	__u64 ids;
	struct open_fault *f = current_fault(&ids);

	if (f) {
		f->rss = 1 + member;
		end_fault(f, ids, bpf_ktime_get_ns(), 0);
	}
	return 0;
}

/* A fault asks the page cache for a file's page. */
SEC("tp_btf/mm_filemap_fault")
int BPF_PROG(on_filemap_fault)
{
	__u64 ids;
	struct open_fault *f = current_fault(&ids);

	if (f)
		f->file_fault = 1;
	return 0;
}

/* A page enters the page cache inside a fault: it is being read. */
SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(on_cache_add)
{
	__u64 ids;
	struct open_fault *f = current_fault(&ids);

	if (f)
		f->cache_add = 1;
	return 0;
}

static __always_inline __u64 task_ids(struct task_struct *t)
{
	return ((__u64)(__u32)BPF_CORE_READ(t, tgid) << 32) | (__u32)BPF_CORE_READ(t, pid);
}

/* One record for the time thread t was out, from its switch-out to end. */
static __always_inline void sched_record(struct thread *t, __u64 ids, __u64 end, __u32 flags)
{
	struct latmon_event e = { .type = LATMON_EV_SCHED };

	e.tsc_begin = t->out_ns;
	e.tsc_end = end;
	e.u.sched.flags = t->out_flags | flags;
	e.u.sched.other_pid = t->other_pid;
	__builtin_memcpy(e.u.sched.other_comm, t->other_comm, 16);
	e.u.sched.out_cpu = t->out_cpu;
	e.u.sched.prev_state = t->out_state;
	submit(&e, ids, end);
	t->out_ns = 0;
}

/* A target thread leaves the CPU (it is current here): a 4 KiB fault ends,
 * a huge one (zeroing may go on after) moves into the thread; remember why
 * and who runs next. A switch-out still open had its switch-in unreported:
 * its record ends here, marked. */
static __always_inline void switched_out(struct task_struct *prev, struct task_struct *next,
					 bool preempt, unsigned int prev_state, __u64 now)
{
	struct thread *t = thread_of(prev, true);
	__u64 ids = task_ids(prev);
	struct open_fault *f = fault_of((__u32)ids);

	steal_read(prev, ids, now, true, true);
	if (f && (!t || !f->alloc9_ns))
		end_fault(f, ids, now, LATBPF_REC_OUT_END);
	if (!t)
		return;
	if (f && f->begin_ns) {
		t->fault = *f;
		f->begin_ns = 0;
	}
	if (t->out_ns)
		sched_record(t, ids, now, LATMON_SCHED_F_IN_MISSED);
	t->out_ns = now;
	t->out_cpu = bpf_get_smp_processor_id();
	t->out_state = prev_state;
	t->out_flags = (preempt || prev_state == TASK_RUNNING) ? LATMON_SCHED_F_PREEMPTED : 0;
	t->other_pid = BPF_CORE_READ(next, pid);
	BPF_CORE_READ_STR_INTO(&t->other_comm, next, comm);
}

/* A target thread comes back: its moved fault goes on here, and one record
 * for the whole time it was out. */
static __always_inline void switched_in(struct task_struct *next, __u64 now)
{
	struct thread *t = thread_of(next, false);
	struct open_fault *f;

	steal_read(next, task_ids(next), now, false, true);
	if (!t)
		return;
	f = cpu_fault();
	if (f && t->fault.begin_ns && !f->begin_ns) {
		*f = t->fault;
		t->fault.begin_ns = 0;
	}
	if (t->out_ns)
		sched_record(t, task_ids(next), now, 0);
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
	struct latmon_event e = { .type = LATMON_EV_MIGRATE };
	__u64 now;

	if (!is_target(p))
		return 0;
	now = bpf_ktime_get_ns();
	e.tsc_begin = e.tsc_end = now;
	e.u.migrate.from_cpu = BPF_CORE_READ(p, thread_info.cpu);
	e.u.migrate.to_cpu = dest_cpu;
	submit_now(&e, task_ids(p), now);
	return 0;
}

/* A target thread is woken: by the current task, or by an interrupt of
 * this CPU (latbpf_irq.bpf.h marks which it is in). */
SEC("tp_btf/sched_waking")
int BPF_PROG(on_waking, struct task_struct *p)
{
	struct latmon_event e = { .type = LATMON_EV_WAKE };
	struct task_struct *cur = bpf_get_current_task_btf();
	struct latbpf_cpu *c;
	__u64 now;

	if (!is_target(p))
		return 0;
	now = bpf_ktime_get_ns();
	c = this_cpu();
	e.tsc_begin = e.tsc_end = now;
	e.u.wake.waker_cpu = bpf_get_smp_processor_id();
	e.u.wake.target_cpu = BPF_CORE_READ(p, thread_info.cpu);
	e.u.wake.flags = (c && c->irq_in ? LATMON_WAKE_F_IRQ : 0) |
			 (is_target(cur) ? LATMON_WAKE_F_TARGET : 0);
	e.u.wake.waker_pid = BPF_CORE_READ(cur, pid);
	BPF_CORE_READ_STR_INTO(&e.u.wake.waker_comm, cur, comm);
	submit_now(&e, task_ids(p), now);
	return 0;
}

#include "latbpf_irq.bpf.h"
#include "latbpf_sys.bpf.h"
