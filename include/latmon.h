/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * latmon user-space API: the event records read from /dev/latmon and the
 * "latmon" generic netlink family. Included unchanged by the module and by
 * latctl. Only <linux/types.h> types; every struct is padded explicitly to a
 * multiple of 8 bytes and reserved fields must be zero.
 */
#ifndef _UAPI_LATMON_H
#define _UAPI_LATMON_H

#include <linux/types.h>

#include "latmon_types.h"

#define LATMON_UAPI_VERSION	1
/*
 * /dev/latmon (mode 0600, CAP_SYS_ADMIN, opened from the initial network
 * namespace only, one open at a time, else EBUSY):
 * read() returns whole records from every CPU's ring (EINVAL if the buffer
 * holds less than one). With no record to return it blocks (the reader is
 * woken every 10 ms while recording and by STOP), or fails with EAGAIN under
 * O_NONBLOCK; once a session has stopped and all its records are read it
 * returns 0 (EOF) until the next START, which discards unread records. So:
 * open, START, then read until 0 after STOP. poll(): EPOLLIN when records
 * wait, EPOLLIN|EPOLLHUP at that EOF. rmmod fails (EBUSY) while the device
 * is open and works after close; it works while a session runs.
 */
#define LATMON_DEVICE		"/dev/latmon"
#define LATMON_GENL_NAME	"latmon"
#define LATMON_GENL_VERSION	1

/* ---------------------------------------------------------------------- */
/* Event records                                                           */
/* ---------------------------------------------------------------------- */

/* The types: include/latmon_types.h, LATMON_EVENT_TYPES. */
enum latmon_event_type {
	LATMON_EVENT_TYPES(__LATMON_EV_ENUM)
	__LATMON_EV_MAX = 1 LATMON_EVENT_TYPES(__LATMON_COUNT_EV)
};

/*
 * latmon_fault.flags: decoded from the handle_mm_fault() arguments and result.
 * A fault with LATMON_FAULT_F_RETRY or LATMON_FAULT_F_ERROR is not counted by
 * getrusage() (the kernel redoes a retried fault and counts that one); one
 * with LATMON_FAULT_F_MAJOR counts as a major fault, every other as minor.
 */
#define LATMON_FAULT_F_HUGE	(1U << 0)	/* a THP clear ran inside this fault */
#define LATMON_FAULT_F_WRITE	(1U << 1)	/* FAULT_FLAG_WRITE */
#define LATMON_FAULT_F_USER	(1U << 2)	/* FAULT_FLAG_USER: from user mode */
#define LATMON_FAULT_F_INSTRUCTION (1U << 3)	/* FAULT_FLAG_INSTRUCTION */
#define LATMON_FAULT_F_RETRY	(1U << 4)	/* result has VM_FAULT_RETRY */
#define LATMON_FAULT_F_ERROR	(1U << 5)	/* result has a VM_FAULT_ERROR bit */
#define LATMON_FAULT_F_MAJOR	(1U << 6)	/* VM_FAULT_MAJOR or FAULT_FLAG_TRIED */
#define __LATMON_FAULT_F_ALL	((1U << 7) - 1)

struct latmon_fault {
	__u64 address;		/* faulting user address */
	__u32 fault_flags;	/* raw FAULT_FLAG_* passed to handle_mm_fault
				 * (kernel-internal bits; decoded in flags) */
	__u32 result;		/* raw vm_fault_t returned by handle_mm_fault */
	__u32 flags;		/* LATMON_FAULT_F_* */
	__u8 kind;		/* LATMON_FK_*, 0: not told */
	__u8 map;		/* LATMON_MAP_*, the mapping faulted on */
	__u16 why;		/* LATMON_FKW_*: why kind is UNKNOWN */
	__u64 ino;		/* the mapped file's inode number, 0: anonymous */
};

/* The kinds: include/latmon_types.h, LATMON_FAULT_KINDS. */
enum latmon_fault_kind {
	LATMON_FAULT_KINDS(__LATMON_FK_ENUM)
	__LATMON_FK_MAX = 1 LATMON_FAULT_KINDS(__LATMON_COUNT_FK)
};

enum latmon_fault_why {
	LATMON_FAULT_WHY(__LATMON_FKW_ENUM)
};

/* latmon_fault.map: the mapping the address is in, as the kernel saw it. */
enum latmon_fault_map {
	LATMON_MAP_NONE = 0,		/* not read */
	LATMON_MAP_ANON = 1,		/* private anonymous */
	LATMON_MAP_HEAP = 2,		/* anonymous, inside brk's range */
	LATMON_MAP_STACK = 3,		/* anonymous, growing down (a stack) */
	LATMON_MAP_FILE_PRIVATE = 4,	/* a file, private (copy on write) */
	LATMON_MAP_FILE_SHARED = 5,	/* a file, shared; shmem, memfd and
				 * MAP_SHARED|MAP_ANONYMOUS too */
	LATMON_MAP_HUGETLB = 6,		/* hugetlbfs */
	LATMON_MAP_SPECIAL = 7,		/* VM_PFNMAP, VM_IO, VM_MIXEDMAP */
	__LATMON_MAP_MAX
};

struct latmon_thp_clear {
	__u64 address;		/* user address of the huge page */
	__u64 size;		/* bytes cleared */
};

/*
 * latmon_alloc_zero: the page allocator zeroed a new folio of order > 0 for
 * user memory (gfp has __GFP_MOVABLE and __GFP_COMP: anonymous THP and mTHP,
 * large page-cache folios) while allocating it for a target thread, because
 * init_on_alloc is on or the caller passed __GFP_ZERO. With init_on_alloc a
 * huge page is zeroed here and, before Linux 6.13, once more by the THP clear.
 * The interval is the allocation from the free lists, which ends with that
 * zeroing (for a 2 MiB page nearly all of it; see the module's compat.h).
 * Marks the fault huge like a THP clear does.
 */
#define LATMON_ZERO_F_INIT_ON_ALLOC (1U << 0)	/* init_on_alloc is on */
#define LATMON_ZERO_F_GFP_ZERO	(1U << 1)	/* the caller asked: __GFP_ZERO */
#define LATMON_ZERO_F_COMPACT	(1U << 2)	/* a page direct compaction captured:
						 * the interval spans that compaction
						 * (its records lie inside) */
#define __LATMON_ZERO_F_ALL	((1U << 3) - 1)

struct latmon_alloc_zero {
	__u64 size;		/* bytes zeroed: PAGE_SIZE << order */
	__u32 order;
	__u32 flags;		/* LATMON_ZERO_F_* */
	__u32 gfp;		/* raw gfp_t of the allocation (kernel-internal) */
	__u32 reserved;
};

/*
 * latmon_compact: a target thread compacted one zone itself (direct
 * compaction, from mm_compaction_begin to mm_compaction_end); kcompactd's
 * work is not recorded. order and prio come from the preceding
 * mm_compaction_try_to_compact_pages (0 if it was not seen).
 */
#define LATMON_COMPACT_F_SYNC	(1U << 0)	/* synchronous (may migrate dirty pages) */
#define LATMON_COMPACT_F_ORDER	(1U << 1)	/* order and prio are known */
#define __LATMON_COMPACT_F_ALL	((1U << 2) - 1)

struct latmon_compact {
	__u32 order;		/* order of the allocation that compacts */
	__u32 prio;		/* raw enum compact_priority (kernel-internal) */
	__u32 status;		/* raw enum compact_result (kernel-internal) */
	__u32 flags;		/* LATMON_COMPACT_F_* */
};

/*
 * latmon_reclaim: a target thread reclaimed memory itself, for the page
 * allocator (mm_vmscan_direct_reclaim_begin/end) or because its memory
 * cgroup reached its limit (mm_vmscan_memcg_reclaim_begin/end).
 */
enum latmon_reclaim_kind {
	LATMON_RECLAIM_DIRECT = 1,	/* page allocator: free memory is low */
	LATMON_RECLAIM_MEMCG,		/* memory cgroup at its limit */
	__LATMON_RECLAIM_MAX
};

struct latmon_reclaim {
	__u64 nr_reclaimed;	/* pages reclaimed */
	__u32 kind;		/* enum latmon_reclaim_kind */
	__u32 order;		/* order of the allocation that reclaims */
	__u32 gfp;		/* raw gfp_t of that allocation (kernel-internal) */
	__u32 reserved;
};

/*
 * latmon_sched: written when a target thread is switched back in, on the CPU
 * that switches it in; tsc_begin is the switch-out, tsc_end the switch-in.
 */
#define LATMON_SCHED_F_PREEMPTED (1U << 0)	/* runnable when switched out */
/*
 * No switch-in was reported before the thread's next switch-out (some
 * kernels do not trace every switch): tsc_end is that switch-out, written
 * on its CPU; latctl bounds it by the thread's next sign of running.
 */
#define LATMON_SCHED_F_IN_MISSED (1U << 1)
#define __LATMON_SCHED_F_ALL	((1U << 2) - 1)

struct latmon_sched {
	__u32 flags;		/* LATMON_SCHED_F_* */
	__u32 other_pid;	/* tid of the task switched in when the target
				 * left (0 if not visible in the pid namespace) */
	char other_comm[16];	/* its comm, NUL-terminated */
	__u32 out_cpu;		/* CPU the target was switched out on */
	__u32 prev_state;	/* task state when switched out (0 = running) */
};

enum latmon_irq_kind {
	LATMON_IRQ_HARD = 1,	/* number = irq, name = action name */
	LATMON_IRQ_SOFT,	/* number = softirq vector, name = "TIMER", ... */
	LATMON_IRQ_TIMER,	/* x86 local APIC timer; number = vector */
	LATMON_IRQ_IPI,		/* number = vector, name = "reschedule", ... */
	LATMON_IRQ_NMI,		/* number = handled, name = "nmi"; tsc_begin is
				 * tsc_end minus the handler's duration */
	__LATMON_IRQ_MAX
};

struct latmon_irq {
	__u32 kind;		/* enum latmon_irq_kind */
	__u32 number;
	char name[16];
};

struct latmon_migrate {
	__u32 from_cpu;
	__u32 to_cpu;
};

/*
 * latmon_syscall: entry to exit of one system call (raw_syscalls sys_enter
 * and sys_exit), written at exit. nr is the number of the calling ABI
 * (x86-64 unless LATMON_SYSCALL_F_COMPAT), args[] its first two arguments.
 * A target thread that has read or polled /dev/latmon in this session
 * leaves no syscall records (each read would leave one for the next).
 */
#define LATMON_SYSCALL_F_COMPAT	(1U << 0)	/* 32-bit (ia32) system call */
#define __LATMON_SYSCALL_F_ALL	((1U << 1) - 1)

struct latmon_syscall {
	__s64 ret;		/* return value (negative errno on failure) */
	__u32 nr;		/* system call number */
	__u32 flags;		/* LATMON_SYSCALL_F_* */
	__u64 args[2];		/* first two arguments (address and length
				 * for mmap/munmap/mprotect/madvise) */
};

/*
 * latmon_wake: a target thread was woken (sched_waking), written at once on
 * the waker's CPU; tsc_begin == tsc_end. pid and tid are the woken thread's.
 * The blocked switch-out that it ends is the sched record of the same tid
 * whose [tsc_begin, tsc_end] contains this time.
 */
#define LATMON_WAKE_F_IRQ	(1U << 0)	/* woken from interrupt context:
						 * waker_* is the interrupted task */
#define LATMON_WAKE_F_TARGET	(1U << 1)	/* the waker is a target thread */
#define __LATMON_WAKE_F_ALL	((1U << 2) - 1)

struct latmon_wake {
	__u32 waker_pid;	/* tid of the waker (0 if not visible) */
	__u32 waker_cpu;	/* CPU the wake-up ran on */
	__u32 target_cpu;	/* CPU the woken thread last ran on */
	__u32 flags;		/* LATMON_WAKE_F_* */
	char waker_comm[16];	/* its comm, NUL-terminated */
};

/*
 * latmon_lock: a lock acquisition during which the target thread slept
 * (switched out voluntarily at least once); tsc_begin is the start of the
 * acquisition, tsc_end its return. Acquisitions that did not sleep are not
 * recorded.
 */
enum latmon_lock_kind {
	LATMON_LOCK_MMAP = 1,	/* mmap_lock (mmap_lock_start_locking to
				 * mmap_lock_acquire_returned) */
	__LATMON_LOCK_MAX
};

#define LATMON_LOCK_F_WRITE	(1U << 0)	/* taken for writing */
#define LATMON_LOCK_F_FAILED	(1U << 1)	/* acquisition failed (killed) */
#define __LATMON_LOCK_F_ALL	((1U << 2) - 1)

struct latmon_lock {
	__u32 kind;		/* enum latmon_lock_kind */
	__u32 flags;		/* LATMON_LOCK_F_* */
	__u32 sleeps;		/* voluntary switch-outs while waiting */
	__u32 reserved;
};

/*
 * latmon_tlb: a TLB shoot-down (tlb_flush tracepoint): sent by a target
 * thread to other CPUs, or received by a CPU while a target thread was
 * current there. tsc_begin == tsc_end.
 */
enum latmon_tlb_kind {
	LATMON_TLB_SENT = 1,	/* TLB_REMOTE_SEND_IPI */
	LATMON_TLB_RECEIVED,	/* TLB_REMOTE_SHOOTDOWN */
	__LATMON_TLB_MAX
};

struct latmon_tlb {
	__u32 kind;		/* enum latmon_tlb_kind */
	__u32 reserved;
	__u64 pages;		/* pages flushed (TLB_FLUSH_ALL: all) */
};

/*
 * latmon_steal: the CPU's steal clock (the time its hypervisor ran something
 * else while this virtual CPU was runnable) moved by steal_ns between two
 * readings taken while the target thread was current there: somewhere in
 * [tsc_begin, tsc_end], where no code of the guest ran. clock_ns is the
 * clock at tsc_end. latmon reads it at the ticks of the target (kcpustat),
 * the BPF backend at its switches and ticks too.
 */
struct latmon_steal {
	__u64 steal_ns;		/* steal inside the interval */
	__u64 clock_ns;		/* the CPU's steal clock at its end */
};

/*
 * latmon_smi: the CPU counted smis system management interrupts (the
 * firmware ran; the CPU and its kernel stood still, the TSC ran on)
 * between two ticks that both interrupted the target thread, with no
 * switch between them: somewhere in [tsc_begin, tsc_end]. From
 * MSR_SMI_COUNT (0x34) on bare-metal Intel CPUs; latmon only.
 */
struct latmon_smi {
	__u64 smis;		/* SMIs inside the interval */
	__u64 msr;		/* MSR_SMI_COUNT at its end */
};

struct latmon_lost {
	__u64 count;		/* events dropped just before this record */
	__u32 cpu;		/* the CPU whose ring dropped them */
	__u32 reserved;
};

/*
 * One record (72 bytes). Records are read whole from /dev/latmon; read() with
 * a buffer smaller than sizeof(struct latmon_event) fails with EINVAL.
 * Every byte not named below is zero (the module zeroes each record first).
 *
 * Timestamps are raw TSC values (rdtsc_ordered), the clock latctl reads with
 * rdtscp. For a migration tsc_begin == tsc_end. A lost record has pid and
 * tid 0 and spans the drops it reports: tsc_begin and tsc_end are the end
 * times of the first and last dropped event (events that began earlier and
 * ended in that window are missing too).
 * Interval records (fault, THP clear, sched, irq) are written when the
 * interval ends, on the CPU where it ends.
 *
 * cpu and seq: each CPU has its own ring; cpu names the ring the record was
 * written to and seq counts the records of that ring, starting at 0 at START.
 * A dropped event consumes no seq: the reader sees, per CPU, seq 0, 1, 2, ...
 * without gaps, and a LATMON_EV_LOST record (which has its own seq) sits at
 * the point where u.lost.count events were dropped. A gap in seq is a bug.
 *
 * pid and tid are the target's ids in the pid namespace of the process that
 * sent START (as is sched.other_pid); 0 in lost records.
 */
struct latmon_event {
	__u16 type;		/* enum latmon_event_type */
	__u16 size;		/* sizeof(struct latmon_event) */
	__u16 cpu;		/* CPU (ring) the record was written on */
	__u16 reserved;
	__u32 pid;		/* tgid of the target */
	__u32 tid;		/* thread of the target */
	__u64 seq;		/* per-CPU record number, contiguous */
	__u64 tsc_begin;
	__u64 tsc_end;
	union {
		struct latmon_fault fault;
		struct latmon_thp_clear thp;
		struct latmon_sched sched;
		struct latmon_irq irq;
		struct latmon_migrate migrate;
		struct latmon_lost lost;
		struct latmon_alloc_zero zero;
		struct latmon_compact compact;
		struct latmon_reclaim reclaim;
		struct latmon_syscall syscall;
		struct latmon_wake wake;
		struct latmon_lock lock;
		struct latmon_tlb tlb;
		struct latmon_steal steal;
		struct latmon_smi smi;
		__u8 raw[32];
	} u;
};

/* ---------------------------------------------------------------------- */
/* Event sources                                                           */
/* ---------------------------------------------------------------------- */

/* The sources: include/latmon_types.h, LATMON_SOURCES. */
enum latmon_source_id {
	LATMON_SOURCES(__LATMON_SRC_ENUM)
	__LATMON_SRC_MAX = 1 LATMON_SOURCES(__LATMON_COUNT_SRC)
};

#define LATMON_SRC_BIT(id)	(1U << ((id) - 1))
#define __LATMON_SRC_F_ALL	(LATMON_SRC_BIT(__LATMON_SRC_MAX) - 1)

/*
 * Probes are resolved at module load and registered only while a session
 * runs (so a loaded, stopped module costs nothing on the fault path).
 */
enum latmon_source_state {
	LATMON_SRC_ATTACHED = 1,	/* probes registered: a session is running */
	LATMON_SRC_UNAVAILABLE,		/* cannot attach, see LATMON_SRC_A_REASON */
	LATMON_SRC_AVAILABLE,		/* resolved, registered at the next START */
};

/* ---------------------------------------------------------------------- */
/* Generic netlink family "latmon"                                         */
/* ---------------------------------------------------------------------- */

/*
 * Every command needs CAP_NET_ADMIN (GENL_ADMIN_PERM) and CAP_SYS_ADMIN, in
 * the initial namespaces; the family is not visible from another network
 * namespace.
 *
 * LATMON_CMD_GET_INFO: request has no attribute; reply:
 *   LATMON_A_MODULE_VERSION: NLA_NUL_STRING
 *   LATMON_A_UAPI_VERSION: NLA_U32
 *   LATMON_A_TSC_KHZ: NLA_U32
 *   LATMON_A_KERNEL_RELEASE: NLA_NUL_STRING
 *   LATMON_A_RUNNING: NLA_U32 (0 or 1)
 *   LATMON_A_TGID: NLA_U32 (target while running)
 *   LATMON_A_THREADS_MAX: NLA_U32 (targets that may live at once)
 *   LATMON_A_SOURCES: NLA_NESTED
 *     LATMON_A_SOURCE: NLA_NESTED (one per source)
 *       LATMON_SRC_A_ID: NLA_U32 (enum latmon_source_id)
 *       LATMON_SRC_A_NAME: NLA_NUL_STRING ("fault", "thp-clear", ...)
 *       LATMON_SRC_A_STATE: NLA_U32 (enum latmon_source_state)
 *       LATMON_SRC_A_REASON: NLA_NUL_STRING (why unavailable, or which
 *         tracepoints are missing when only some are)
 *       LATMON_SRC_A_SYMBOL: NLA_NUL_STRING (probed symbol, if any)
 *       LATMON_SRC_A_MISSING: NLA_U32 (symbols/tracepoints not found)
 *
 * LATMON_CMD_START: request:
 *   LATMON_A_TGID: NLA_U32, required, an existing process (thread-group
 *     leader), looked up in the caller's pid namespace. Its threads are the
 *     session's targets, and so is every thread and process that a target
 *     creates from then on (sched_process_fork); a target that exits
 *     (sched_process_exit) leaves the session. At most LATMON_A_THREADS_MAX
 *     targets live at once: START fails with E2BIG if the process already
 *     has more threads; a thread created beyond the limit is not followed
 *     and counted in LATMON_A_THREADS_REFUSED.
 *   LATMON_A_SOURCE_MASK: NLA_U32, LATMON_SRC_BIT()s, default all available;
 *     naming an unavailable source fails with ENOENT
 *   LATMON_A_BUFFER_EVENTS: NLA_U32, record slots per CPU ring (rounded up
 *     to a power of two, LATMON_MIN_BUFFER_EVENTS..LATMON_MAX_BUFFER_EVENTS);
 *     one slot is kept for a lost record, so a ring buffers at most N - 1
 *     events. Default LATMON_DEFAULT_BUFFER_EVENTS.
 *   LATMON_A_FLAGS: NLA_U32, must be 0 (no flags defined yet)
 *   EBUSY if already running. Frees records not yet read, clears counters.
 *
 * LATMON_CMD_STOP: no attribute. ENOENT if not running. Events already
 *   recorded stay readable; pending lost counts are appended as lost
 *   records; a reader blocked in read() wakes up and gets the rest, then
 *   EOF (read returns 0) until the next START.
 *
 * LATMON_CMD_GET_STATS: no attribute; reply:
 *   LATMON_A_CPUS: NLA_NESTED
 *     LATMON_A_CPU: NLA_NESTED (one per possible CPU)
 *       LATMON_CPU_A_ID: NLA_U32
 *       LATMON_CPU_A_RECORDED: NLA_U64 (written to the ring)
 *       LATMON_CPU_A_DROPPED: NLA_U64 (ring full)
 *       LATMON_CPU_A_READ: NLA_U64 (records delivered, lost records too)
 *       LATMON_CPU_A_LOST_RECORDS: NLA_U64 (lost records written)
 *     After STOP and a full read: READ == RECORDED + LOST_RECORDS and
 *     DROPPED == the sum of the lost records' counts.
 *   LATMON_A_THREADS: NLA_U32 (targets alive now; after STOP: at STOP)
 *   LATMON_A_THREADS_FOLLOWED: NLA_U64 (targets added since START: the
 *     first process's threads and every one created since)
 *   LATMON_A_THREADS_REFUSED: NLA_U64 (threads not followed: the limit)
 *   LATMON_A_SOURCES: NLA_NESTED
 *     LATMON_A_SOURCE: NLA_NESTED
 *       LATMON_SRC_A_ID: NLA_U32
 *       LATMON_SRC_A_NAME: NLA_NUL_STRING
 *       LATMON_SRC_A_MISSES: NLA_U64 (events missed before reaching a
 *         ring: kretprobe/kprobe misses, thread table full; system-wide
 *         counts, they may include other processes' faults)
 */
enum latmon_cmd {
	LATMON_CMD_UNSPEC,
	LATMON_CMD_GET_INFO,
	LATMON_CMD_START,
	LATMON_CMD_STOP,
	LATMON_CMD_GET_STATS,
	__LATMON_CMD_MAX
};
#define LATMON_CMD_MAX (__LATMON_CMD_MAX - 1)

enum latmon_attr {
	LATMON_A_UNSPEC,
	LATMON_A_MODULE_VERSION,
	LATMON_A_UAPI_VERSION,
	LATMON_A_TSC_KHZ,
	LATMON_A_KERNEL_RELEASE,
	LATMON_A_RUNNING,
	LATMON_A_TGID,
	LATMON_A_SOURCE_MASK,
	LATMON_A_BUFFER_EVENTS,
	LATMON_A_FLAGS,
	LATMON_A_SOURCES,
	LATMON_A_CPUS,
	/* processes and system calls */
	LATMON_A_THREADS_MAX,
	LATMON_A_THREADS,
	LATMON_A_THREADS_FOLLOWED,
	LATMON_A_THREADS_REFUSED,
	LATMON_A_PAD,
	__LATMON_A_MAX
};
#define LATMON_A_MAX (__LATMON_A_MAX - 1)

/* nested in LATMON_A_SOURCES and LATMON_A_CPUS */
enum latmon_list_attr {
	LATMON_A_LIST_UNSPEC,
	LATMON_A_SOURCE,
	LATMON_A_CPU,
	__LATMON_A_LIST_MAX
};

enum latmon_source_attr {
	LATMON_SRC_A_UNSPEC,
	LATMON_SRC_A_ID,
	LATMON_SRC_A_NAME,
	LATMON_SRC_A_STATE,
	LATMON_SRC_A_REASON,
	LATMON_SRC_A_SYMBOL,
	LATMON_SRC_A_MISSES,
	LATMON_SRC_A_PAD,
	LATMON_SRC_A_MISSING,
	__LATMON_SRC_A_MAX
};
#define LATMON_SRC_A_MAX (__LATMON_SRC_A_MAX - 1)

enum latmon_cpu_attr {
	LATMON_CPU_A_UNSPEC,
	LATMON_CPU_A_ID,
	LATMON_CPU_A_RECORDED,
	LATMON_CPU_A_DROPPED,
	LATMON_CPU_A_READ,
	LATMON_CPU_A_PAD,
	LATMON_CPU_A_LOST_RECORDS,
	__LATMON_CPU_A_MAX
};
#define LATMON_CPU_A_MAX (__LATMON_CPU_A_MAX - 1)

/* LATMON_A_FLAGS: none defined yet; the module rejects any set bit. */
#define __LATMON_START_F_ALL	0U

#define LATMON_DEFAULT_BUFFER_EVENTS	65536U
#define LATMON_MIN_BUFFER_EVENTS	4U
#define LATMON_MAX_BUFFER_EVENTS	(1U << 20)

#endif /* _UAPI_LATMON_H */
