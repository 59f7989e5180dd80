// SPDX-License-Identifier: MIT
/*
 * The record layout user space relies on: latmon_layout.h
 * rejects padding at build time; here the offsets are pinned (reordering
 * members keeps the size, not the ABI), a record laid out byte by byte as
 * the header documents decodes through the struct, and the reserved fields
 * tests/vm/prog/stress.c checks sit where it looks for them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latmon_layout.h"

#define OFF(m)		offsetof(struct latmon_event, m)
#define SZ(t, m)	sizeof(((t *)0)->m)

/* The header of every record: type, size, cpu, reserved, ids, seq, TSCs. */
static void header_offsets(void **state)
{
	(void)state;
	assert_int_equal(OFF(type), 0);
	assert_int_equal(OFF(size), 2);
	assert_int_equal(OFF(cpu), 4);
	assert_int_equal(OFF(reserved), 6);
	assert_int_equal(OFF(pid), 8);
	assert_int_equal(OFF(tid), 12);
	assert_int_equal(OFF(seq), 16);
	assert_int_equal(OFF(tsc_begin), 24);
	assert_int_equal(OFF(tsc_end), 32);
	assert_int_equal(OFF(u), 40);
	assert_int_equal(sizeof(struct latmon_event), 72);
}

/* Every union member starts at u; the fields inside at fixed record offsets. */
static void union_offsets(void **state)
{
	(void)state;
	assert_int_equal(OFF(u.fault.address), 40);
	assert_int_equal(OFF(u.fault.fault_flags), 48);
	assert_int_equal(OFF(u.fault.result), 52);
	assert_int_equal(OFF(u.fault.flags), 56);
	assert_int_equal(OFF(u.fault.kind), 60);
	assert_int_equal(OFF(u.fault.map), 61);
	assert_int_equal(OFF(u.fault.why), 62);
	assert_int_equal(OFF(u.fault.ino), 64);
	assert_int_equal(LATMON_FK_ANON, 1);
	assert_int_equal(LATMON_FK_UNKNOWN, 11);
	assert_int_equal(__LATMON_FK_MAX, 12);
	assert_int_equal(LATMON_FKW_NO_EVIDENCE, 7);
	assert_int_equal(OFF(u.thp.size), 48);
	assert_int_equal(OFF(u.sched.other_pid), 44);
	assert_int_equal(OFF(u.sched.other_comm), 48);
	assert_int_equal(OFF(u.sched.out_cpu), 64);
	assert_int_equal(OFF(u.sched.prev_state), 68);
	assert_int_equal(OFF(u.irq.number), 44);
	assert_int_equal(OFF(u.irq.name), 48);
	assert_int_equal(OFF(u.migrate.to_cpu), 44);
	assert_int_equal(OFF(u.lost.count), 40);
	assert_int_equal(OFF(u.lost.cpu), 48);
	assert_int_equal(OFF(u.lost.reserved), 52);
	assert_int_equal(OFF(u.zero.size), 40);
	assert_int_equal(OFF(u.zero.order), 48);
	assert_int_equal(OFF(u.zero.flags), 52);
	assert_int_equal(OFF(u.zero.gfp), 56);
	assert_int_equal(OFF(u.zero.reserved), 60);
	assert_int_equal(OFF(u.compact.order), 40);
	assert_int_equal(OFF(u.compact.prio), 44);
	assert_int_equal(OFF(u.compact.status), 48);
	assert_int_equal(OFF(u.compact.flags), 52);
	assert_int_equal(OFF(u.reclaim.nr_reclaimed), 40);
	assert_int_equal(OFF(u.reclaim.kind), 48);
	assert_int_equal(OFF(u.reclaim.order), 52);
	assert_int_equal(OFF(u.reclaim.gfp), 56);
	assert_int_equal(OFF(u.reclaim.reserved), 60);
	assert_int_equal(OFF(u.syscall.ret), 40);
	assert_int_equal(OFF(u.wake.waker_pid), 40);
	assert_int_equal(OFF(u.lock.kind), 40);
	assert_int_equal(OFF(u.tlb.kind), 40);
	assert_int_equal(OFF(u.steal.steal_ns), 40);
	assert_int_equal(OFF(u.steal.clock_ns), 48);
	assert_int_equal(OFF(u.smi.smis), 40);
	assert_int_equal(OFF(u.smi.msr), 48);
}

/* Types and sources added later keep the numbers of the older ones. */
static void enum_values(void **state)
{
	(void)state;
	assert_int_equal(LATMON_EV_FAULT, 1);
	assert_int_equal(LATMON_EV_LOST, 6);
	assert_int_equal(LATMON_EV_ALLOC_ZERO, 7);
	assert_int_equal(LATMON_EV_COMPACT, 8);
	assert_int_equal(LATMON_EV_RECLAIM, 9);
	assert_int_equal(LATMON_EV_SYSCALL, 10);
	assert_int_equal(LATMON_EV_WAKE, 11);
	assert_int_equal(LATMON_EV_LOCK, 12);
	assert_int_equal(LATMON_EV_TLB, 13);
	assert_int_equal(LATMON_EV_STEAL, 14);
	assert_int_equal(LATMON_EV_SMI, 15);
	assert_int_equal(LATMON_SRC_IRQ, 4);
	assert_int_equal(LATMON_SRC_ALLOC_ZERO, 5);
	assert_int_equal(LATMON_SRC_COMPACTION, 6);
	assert_int_equal(LATMON_SRC_RECLAIM, 7);
	assert_int_equal(LATMON_SRC_SYSCALL, 8);
	assert_int_equal(LATMON_SRC_WAIT, 9);
	assert_int_equal(__LATMON_SRC_F_ALL, 0x1ff);
}

/*
 * stress leak checks "U(lost) - 4" as reserved: that holds only while
 * reserved is the last member of that struct.
 */
static void reserved_is_last(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct latmon_lost, reserved) + SZ(struct latmon_lost, reserved),
			 sizeof(struct latmon_lost));
	assert_int_equal(SZ(struct latmon_lost, reserved), 4);
}

static void put_le(unsigned char *p, size_t off, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[off + i] = (unsigned char)(v >> (8 * i));
}

/* A sched record written byte by byte as documented, read through the struct. */
static void decode_sched_bytes(void **state)
{
	unsigned char raw[72] = { 0 };
	struct latmon_event e;

	(void)state;
	put_le(raw, 0, LATMON_EV_SCHED, 2);
	put_le(raw, 2, 72, 2);
	put_le(raw, 4, 3, 2);
	put_le(raw, 8, 1234, 4);
	put_le(raw, 12, 1235, 4);
	put_le(raw, 16, 0x0102030405060708ULL, 8);
	put_le(raw, 24, 1000, 8);
	put_le(raw, 32, 2500, 8);
	put_le(raw, 40, LATMON_SCHED_F_PREEMPTED, 4);
	put_le(raw, 44, 77, 4);
	memcpy(raw + 48, "kworker/3:1", 12);
	put_le(raw, 64, 5, 4);
	put_le(raw, 68, 2, 4);
	memcpy(&e, raw, sizeof(e));
	assert_int_equal(e.type, LATMON_EV_SCHED);
	assert_int_equal(e.size, 72);
	assert_int_equal(e.cpu, 3);
	assert_int_equal(e.reserved, 0);
	assert_int_equal(e.pid, 1234);
	assert_int_equal(e.tid, 1235);
	assert_true(e.seq == 0x0102030405060708ULL);
	assert_int_equal(e.tsc_end - e.tsc_begin, 1500);
	assert_int_equal(e.u.sched.flags, LATMON_SCHED_F_PREEMPTED);
	assert_int_equal(e.u.sched.other_pid, 77);
	assert_string_equal(e.u.sched.other_comm, "kworker/3:1");
	assert_int_equal(e.u.sched.out_cpu, 5);
	assert_int_equal(e.u.sched.prev_state, 2);
}

/* A lost record: count and cpu overlay the start of u, the rest is reserved. */
static void decode_lost_bytes(void **state)
{
	unsigned char raw[72] = { 0 };
	struct latmon_event e;
	size_t i;

	(void)state;
	put_le(raw, 0, LATMON_EV_LOST, 2);
	put_le(raw, 40, 0xdeadbeefcafeULL, 8);
	put_le(raw, 48, 7, 4);
	memcpy(&e, raw, sizeof(e));
	assert_int_equal(e.type, LATMON_EV_LOST);
	assert_true(e.u.lost.count == 0xdeadbeefcafeULL);
	assert_int_equal(e.u.lost.cpu, 7);
	assert_int_equal(e.u.lost.reserved, 0);
	for (i = 16; i < sizeof(e.u.raw); i++)
		assert_int_equal(e.u.raw[i], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_offsets),
		cmocka_unit_test(union_offsets),
		cmocka_unit_test(reserved_is_last),
		cmocka_unit_test(enum_values),
		cmocka_unit_test(decode_sched_bytes),
		cmocka_unit_test(decode_lost_bytes),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("uapi", tests, NULL, NULL);
}
