/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * latmon's record types and event sources, each described once. The UAPI
 * enums (latmon.h), the module's source names, the BPF program's records
 * and latctl's table of record descriptors (user/events/evtype.c) are all
 * expanded from these two lists; a new record type is one line here, its
 * payload in latmon.h, and its descriptor user/events/ev_*.c (the recipe:
 * module/README.md, "Adding a record type").
 *
 * LATMON_EVENT_TYPES(X): X(NAME, id, sym, "name", "json", source)
 *   NAME    LATMON_EV_NAME, the record's type on the wire
 *   id      its value: fixed, never reused (dense from 1: __LATMON_EV_MAX)
 *   sym     latctl's descriptor lat_ev_SYM (user/events/ev_*.c)
 *   name    its name in lmtool, `latmon record` and the documents
 *   json    the key of its count in an iteration's JSON, or NULL
 *   source  the LATMON_SRC_ that records it; 0: latmon itself (lost records,
 *           migrations seen by the sched source, the tick readings)
 * In the order latctl shows an iteration's details and writes their keys.
 *
 * LATMON_SOURCES(X): X(NAME, id, "name")
 *   LATMON_SRC_NAME = id, its bit LATMON_SRC_BIT(id) in a source mask, and
 *   the name the module reports and `latctl latmon record --sources` takes.
 */
#ifndef _UAPI_LATMON_TYPES_H
#define _UAPI_LATMON_TYPES_H

/* clang-format off */
#define LATMON_EVENT_TYPES(X)							\
	X(FAULT,	1,  fault,	"fault",	"faults",	LATMON_SRC_FAULT)	\
	X(THP_CLEAR,	2,  thp_clear,	"thp-clear",	"thp_clears",	LATMON_SRC_THP_CLEAR)	\
	X(ALLOC_ZERO,	7,  alloc_zero,	"alloc-zero",	"alloc_zeroings", LATMON_SRC_ALLOC_ZERO) \
	X(COMPACT,	8,  compact,	"compaction",	"compactions",	LATMON_SRC_COMPACTION)	\
	X(RECLAIM,	9,  reclaim,	"reclaim",	"reclaims",	LATMON_SRC_RECLAIM)	\
	X(IRQ,		4,  irq,	"irq",		"irqs",		LATMON_SRC_IRQ)		\
	X(SCHED,	3,  sched,	"sched",	"switches",	LATMON_SRC_SCHED)	\
	X(MIGRATE,	5,  migrate,	"migrate",	NULL,		0)			\
	X(LOST,		6,  lost,	"lost",		NULL,		0)			\
	X(SYSCALL,	10, syscall,	"syscall",	"syscalls",	LATMON_SRC_SYSCALL)	\
	X(WAKE,		11, wake,	"wake",		"wakeups",	LATMON_SRC_WAIT)	\
	X(LOCK,		12, lock,	"lock",		"lock_waits",	LATMON_SRC_WAIT)	\
	X(TLB,		13, tlb,	"tlb",		"tlb_shootdowns", LATMON_SRC_WAIT)	\
	X(STEAL,	14, steal,	"steal",	"steal_records", 0)			\
	X(SMI,		15, smi,	"smi",		"smi_records",	0)

#define LATMON_SOURCES(X)			\
	X(FAULT,	1, "fault")		\
	X(THP_CLEAR,	2, "thp-clear")		\
	X(SCHED,	3, "sched")		\
	X(IRQ,		4, "irq")		\
	X(ALLOC_ZERO,	5, "alloc-zero")	\
	X(COMPACTION,	6, "compaction")	\
	X(RECLAIM,	7, "reclaim")		\
	X(SYSCALL,	8, "syscall")		\
	X(WAIT,		9, "wait")

/*
 * LATMON_FAULT_KINDS(X): X(NAME, id, "name", "what it is")
 *   LATMON_FK_NAME = id, latmon_fault.kind: what the fault did, decided in
 *   the kernel (module/sources/src_fault.c from the page table before and
 *   after handle_mm_fault(); the BPF backend from the error code, the
 *   mapping and the fault's tracepoints). 0: the record does not say (an
 *   older latmon). UNKNOWN: this kernel did not tell; latmon_fault.why says
 *   why. Never guessed.
 */
#define LATMON_FAULT_KINDS(X)							\
	X(ANON,		1,  "anon",	"a new page of anonymous memory")	\
	X(ZERO,		2,  "zero",	"the shared zero page mapped on a read") \
	X(COW,		3,  "cow",	"a page copied on write (fork, zero page, private file)") \
	X(FILE,		4,  "file",	"a file page found in the page cache")	\
	X(FILE_IO,	5,  "file-io",	"a file page read from storage")	\
	X(SWAP,		6,  "swap",	"a page swapped in (swap cache or device)") \
	X(THP,		7,  "thp",	"a huge page mapped")			\
	X(NUMA,		8,  "numa",	"a NUMA hinting fault")			\
	X(WP,		9,  "wp",	"write access given back, nothing copied (reuse, soft-dirty, userfaultfd, shared file)") \
	X(OTHER,	10, "other",	"a fault that mapped nothing new (spurious, retried by another thread)") \
	X(UNKNOWN,	11, "unknown",	"the kernel did not tell")

/*
 * LATMON_FAULT_WHY(X): X(NAME, id, "reason"): latmon_fault.why, why a kind
 * is UNKNOWN (0 otherwise).
 */
#define LATMON_FAULT_WHY(X)							\
	X(NO_VMA,	1, "the mapping could not be read at the fault")	\
	X(FAILED,	2, "the fault failed or was retried")			\
	X(NO_TABLE,	3, "the page table could not be read after the fault")	\
	X(OPEN_END,	4, "the fault's end was not seen")			\
	X(SWAP_ON,	5, "swap is on: a swap-in looks like a new page to the BPF backend") \
	X(NUMA_ON,	6, "NUMA balancing is on: a hinting fault looks like a zero-page one to the BPF backend") \
	X(NO_EVIDENCE,	7, "no tracepoint told what the fault mapped")
/* clang-format on */

/* Expansions every user of the lists needs. */
#define __LATMON_EV_ENUM(NAME, id, sym, name, json, src)	LATMON_EV_##NAME = id,
#define __LATMON_SRC_ENUM(NAME, id, name)			LATMON_SRC_##NAME = id,
#define __LATMON_COUNT_EV(NAME, id, sym, name, json, src)	+1
#define __LATMON_COUNT_SRC(NAME, id, name)			+1
#define __LATMON_SRC_NAME(NAME, id, name)			[id] = name,
#define __LATMON_FK_ENUM(NAME, id, name, what)			LATMON_FK_##NAME = id,
#define __LATMON_FKW_ENUM(NAME, id, why)			LATMON_FKW_##NAME = id,
#define __LATMON_COUNT_FK(NAME, id, name, what)			+1

#endif /* _UAPI_LATMON_TYPES_H */
