/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Compile-time layout checks of the latmon records (no kernel bytes leak to
 * user space). A hole the compiler inserts between or after members is never
 * written by the module's field stores, so it could carry kernel stack or
 * heap bytes to user space and it would not be covered by "reserved fields
 * must be zero". Hence: the size of each struct must equal the sum of its
 * members' sizes (no hole anywhere) and a multiple of 8 (then no hole on
 * i386 either, where a __u64 is 4-aligned), and the record keeps 72 bytes.
 *
 * Included by the module (module/ring.c, gnu11) and by the user-space tests;
 * it only declares assertions, no object.
 */
#ifndef _UAPI_LATMON_LAYOUT_H
#define _UAPI_LATMON_LAYOUT_H

#include "latmon.h"

#if defined(__cplusplus)
#define __LATMON_ASSERT(e, msg)	static_assert(e, msg)
#else
#define __LATMON_ASSERT(e, msg)	_Static_assert(e, msg)
#endif

/* Size of member m of type t, without an object. */
#define __LATMON_MSZ(t, m)	sizeof(((t *)0)->m)

/* t is exactly its members (no hole) and a multiple of 8 bytes. */
#define __LATMON_NO_HOLES(t, sum)					\
	__LATMON_ASSERT(sizeof(t) == (sum), #t " has padding");	\
	__LATMON_ASSERT(sizeof(t) % 8 == 0, #t " is not a multiple of 8 bytes")

__LATMON_NO_HOLES(struct latmon_fault,
	__LATMON_MSZ(struct latmon_fault, address) +
	__LATMON_MSZ(struct latmon_fault, fault_flags) +
	__LATMON_MSZ(struct latmon_fault, result) +
	__LATMON_MSZ(struct latmon_fault, flags) +
	__LATMON_MSZ(struct latmon_fault, kind) +
	__LATMON_MSZ(struct latmon_fault, map) +
	__LATMON_MSZ(struct latmon_fault, why) +
	__LATMON_MSZ(struct latmon_fault, ino));

__LATMON_NO_HOLES(struct latmon_thp_clear,
	__LATMON_MSZ(struct latmon_thp_clear, address) +
	__LATMON_MSZ(struct latmon_thp_clear, size));

__LATMON_NO_HOLES(struct latmon_sched,
	__LATMON_MSZ(struct latmon_sched, flags) +
	__LATMON_MSZ(struct latmon_sched, other_pid) +
	__LATMON_MSZ(struct latmon_sched, other_comm) +
	__LATMON_MSZ(struct latmon_sched, out_cpu) +
	__LATMON_MSZ(struct latmon_sched, prev_state));

__LATMON_NO_HOLES(struct latmon_irq,
	__LATMON_MSZ(struct latmon_irq, kind) +
	__LATMON_MSZ(struct latmon_irq, number) +
	__LATMON_MSZ(struct latmon_irq, name));

__LATMON_NO_HOLES(struct latmon_migrate,
	__LATMON_MSZ(struct latmon_migrate, from_cpu) +
	__LATMON_MSZ(struct latmon_migrate, to_cpu));

__LATMON_NO_HOLES(struct latmon_lost,
	__LATMON_MSZ(struct latmon_lost, count) +
	__LATMON_MSZ(struct latmon_lost, cpu) +
	__LATMON_MSZ(struct latmon_lost, reserved));

__LATMON_NO_HOLES(struct latmon_alloc_zero,
	__LATMON_MSZ(struct latmon_alloc_zero, size) +
	__LATMON_MSZ(struct latmon_alloc_zero, order) +
	__LATMON_MSZ(struct latmon_alloc_zero, flags) +
	__LATMON_MSZ(struct latmon_alloc_zero, gfp) +
	__LATMON_MSZ(struct latmon_alloc_zero, reserved));

__LATMON_NO_HOLES(struct latmon_compact,
	__LATMON_MSZ(struct latmon_compact, order) +
	__LATMON_MSZ(struct latmon_compact, prio) +
	__LATMON_MSZ(struct latmon_compact, status) +
	__LATMON_MSZ(struct latmon_compact, flags));

__LATMON_NO_HOLES(struct latmon_reclaim,
	__LATMON_MSZ(struct latmon_reclaim, nr_reclaimed) +
	__LATMON_MSZ(struct latmon_reclaim, kind) +
	__LATMON_MSZ(struct latmon_reclaim, order) +
	__LATMON_MSZ(struct latmon_reclaim, gfp) +
	__LATMON_MSZ(struct latmon_reclaim, reserved));
__LATMON_NO_HOLES(struct latmon_syscall,
	__LATMON_MSZ(struct latmon_syscall, ret) +
	__LATMON_MSZ(struct latmon_syscall, nr) +
	__LATMON_MSZ(struct latmon_syscall, flags) +
	__LATMON_MSZ(struct latmon_syscall, args));

__LATMON_NO_HOLES(struct latmon_wake,
	__LATMON_MSZ(struct latmon_wake, waker_pid) +
	__LATMON_MSZ(struct latmon_wake, waker_cpu) +
	__LATMON_MSZ(struct latmon_wake, target_cpu) +
	__LATMON_MSZ(struct latmon_wake, flags) +
	__LATMON_MSZ(struct latmon_wake, waker_comm));

__LATMON_NO_HOLES(struct latmon_lock,
	__LATMON_MSZ(struct latmon_lock, kind) +
	__LATMON_MSZ(struct latmon_lock, flags) +
	__LATMON_MSZ(struct latmon_lock, sleeps) +
	__LATMON_MSZ(struct latmon_lock, reserved));

__LATMON_NO_HOLES(struct latmon_tlb,
	__LATMON_MSZ(struct latmon_tlb, kind) +
	__LATMON_MSZ(struct latmon_tlb, reserved) +
	__LATMON_MSZ(struct latmon_tlb, pages));

__LATMON_NO_HOLES(struct latmon_event,
	__LATMON_MSZ(struct latmon_event, type) +
	__LATMON_MSZ(struct latmon_event, size) +
	__LATMON_MSZ(struct latmon_event, cpu) +
	__LATMON_MSZ(struct latmon_event, reserved) +
	__LATMON_MSZ(struct latmon_event, pid) +
	__LATMON_MSZ(struct latmon_event, tid) +
	__LATMON_MSZ(struct latmon_event, seq) +
	__LATMON_MSZ(struct latmon_event, tsc_begin) +
	__LATMON_MSZ(struct latmon_event, tsc_end) +
	__LATMON_MSZ(struct latmon_event, u));

/*
 * The union is raw[] exactly: a member larger than raw[] would grow the
 * record past the bytes the user-space checks walk.
 */
#define __LATMON_U(m)		__LATMON_MSZ(struct latmon_event, u.m)
__LATMON_ASSERT(__LATMON_U(raw) == 32, "latmon_event.u is not 32 bytes");
__LATMON_ASSERT(__LATMON_MSZ(struct latmon_event, u) == __LATMON_U(raw),
		"a latmon_event.u member is larger than raw[]");
__LATMON_ASSERT(sizeof(struct latmon_event) == 72, "latmon_event is not 72 bytes");

#undef __LATMON_U
#undef __LATMON_NO_HOLES
#undef __LATMON_MSZ
#undef __LATMON_ASSERT

#endif /* _UAPI_LATMON_LAYOUT_H */
