/* SPDX-License-Identifier: GPL-2.0 */
/* A fault's kind from the page table before and after it: fault_kind.c. */
#ifndef LATMON_FAULT_KIND_H
#define LATMON_FAULT_KIND_H

#include <linux/mm_types.h>

enum latmon_pte_state {
	LATMON_PTE_NONE = 0,	/* nothing mapped, no table */
	LATMON_PTE_PRESENT,	/* a 4 KiB page mapped */
	LATMON_PTE_HUGE,	/* a PMD or PUD maps it */
	LATMON_PTE_SWAP,	/* not present: a swap, migration or marker entry */
	LATMON_PTE_NUMA,	/* a NUMA hinting entry (PROT_NONE) */
	LATMON_PTE_OTHER,
};

struct latmon_pte {
	u8 state;		/* enum latmon_pte_state */
	bool write;		/* present and writable */
	unsigned long pfn;	/* present: its frame */
};

/* What the fault's entry handler saw. */
struct latmon_fault_in {
	struct latmon_pte before;
	u8 map;			/* LATMON_MAP_*, 0: no mapping read */
	bool file;		/* the mapping has a file */
	bool write;		/* a write fault */
	bool tried;		/* FAULT_FLAG_TRIED: a retried fault */
	u64 ino;
};

void latmon_pte_read(struct mm_struct *mm, unsigned long address, struct latmon_pte *p);
u8 latmon_map_of(const struct vm_area_struct *vma, u64 *ino);
u8 latmon_fault_kind(const struct latmon_fault_in *in, const struct latmon_pte *after,
		     vm_fault_t ret, u16 *why);

#endif /* LATMON_FAULT_KIND_H */
