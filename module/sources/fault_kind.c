// SPDX-License-Identifier: GPL-2.0
/*
 * A fault's kind, from the page table entry of its address before
 * handle_mm_fault() and after it, with the mapping and the result: what
 * the fault found (nothing, a present page it may not write, a swap entry,
 * a NUMA hinting entry) and what it left (the zero page, an anonymous page,
 * a file page, a huge page). The table is read as the fault handler reads
 * it, under the mapping's lock the fault holds, in the kretprobe's handlers
 * (preemption off: page tables freed under RCU stay readable). The rules,
 * and why each kind is what it says: include/latmon_types.h and
 * module/README.md, "Fault kinds".
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/pgtable.h>
#include "latmon.h"
#include "compat.h"
#include "fault_kind.h"

/* What is at address in mm: the level that maps it and the entry's facts. */
void latmon_pte_read(struct mm_struct *mm, unsigned long address, struct latmon_pte *p)
{
	pgd_t *pgd;
	p4d_t *p4d;
	pud_t *pud;
	pmd_t pmd;
	pte_t pte;

	memset(p, 0, sizeof(*p));
	pgd = pgd_offset(mm, address);
	if (pgd_none(READ_ONCE(*pgd)))
		return;
	p4d = p4d_offset(pgd, address);
	if (p4d_none(READ_ONCE(*p4d)))
		return;
	pud = pud_offset(p4d, address);
	if (pud_none(READ_ONCE(*pud)))
		return;
	if (pud_leaf(READ_ONCE(*pud))) {
		p->state = LATMON_PTE_HUGE;
		return;
	}
	pmd = READ_ONCE(*pmd_offset(pud, address));
	if (pmd_none(pmd))
		return;
	if (pmd_trans_huge(pmd) || pmd_leaf(pmd)) {
		p->state = LATMON_PTE_HUGE;
		p->pfn = pmd_pfn(pmd);
		return;
	}
	if (!pmd_present(pmd)) {
		p->state = LATMON_PTE_OTHER;	/* a huge page being migrated */
		return;
	}
	pte = ptep_get(pte_offset_kernel(&pmd, address));
	if (pte_none(pte))
		return;
	if (pte_protnone(pte)) {
		p->state = LATMON_PTE_NUMA;
	} else if (pte_present(pte)) {
		p->state = LATMON_PTE_PRESENT;
		p->pfn = pte_pfn(pte);
		p->write = pte_write(pte);
	} else {
		p->state = LATMON_PTE_SWAP;	/* swap, migration or marker entry */
	}
}

static bool is_stack(const struct vm_area_struct *vma, const struct mm_struct *mm)
{
	return (vma->vm_flags & VM_GROWSDOWN) ||
	       (vma->vm_start <= mm->start_stack && mm->start_stack < vma->vm_end);
}

/* LATMON_MAP_* of vma, and the inode number behind it (0 for none). */
u8 latmon_map_of(const struct vm_area_struct *vma, u64 *ino)
{
	const struct mm_struct *mm = vma->vm_mm;

	*ino = vma->vm_file ? file_inode(vma->vm_file)->i_ino : 0;
	if (vma->vm_flags & (VM_PFNMAP | VM_IO | VM_MIXEDMAP))
		return LATMON_MAP_SPECIAL;
	if (vma->vm_flags & VM_HUGETLB)
		return LATMON_MAP_HUGETLB;
	if (vma->vm_file)
		return (vma->vm_flags & VM_SHARED) ? LATMON_MAP_FILE_SHARED :
						     LATMON_MAP_FILE_PRIVATE;
	if (is_stack(vma, mm))
		return LATMON_MAP_STACK;
	if (vma->vm_start <= mm->brk && vma->vm_end > mm->start_brk)
		return LATMON_MAP_HEAP;
	return LATMON_MAP_ANON;
}

/*
 * A huge PMD on anonymous memory mapping a folio no anonymous mapping
 * owns: the huge zero page, mapped on a read (is_huge_zero_pmd() reads
 * huge_zero_pfn, which 6.1 and 6.12 do not export).
 */
static bool is_huge_zero(const struct latmon_fault_in *in, const struct latmon_pte *after)
{
	return !in->file && after->pfn && pfn_valid(after->pfn) &&
	       !folio_test_anon(page_folio(pfn_to_page(after->pfn)));
}

/* The kind of a page newly mapped at an empty entry. */
static u8 kind_new(const struct latmon_fault_in *in, const struct latmon_pte *after,
		   vm_fault_t ret)
{
	struct page *page;

	if (after->state == LATMON_PTE_HUGE)
		return is_huge_zero(in, after) ? LATMON_FK_ZERO : LATMON_FK_THP;
	if (after->state != LATMON_PTE_PRESENT)
		return LATMON_FK_OTHER;
	if (is_zero_pfn(after->pfn))
		return LATMON_FK_ZERO;
	if (!pfn_valid(after->pfn))
		return LATMON_FK_OTHER;		/* a special mapping's frame */
	page = pfn_to_page(after->pfn);
	if (folio_test_anon(page_folio(page)))
		return in->file ? LATMON_FK_COW : LATMON_FK_ANON;
	/* a retry finds the page its first attempt waited to be read */
	return (ret & VM_FAULT_MAJOR) || in->tried ? LATMON_FK_FILE_IO : LATMON_FK_FILE;
}

/* The kind of a write to a present page it could not write. */
static u8 kind_write(const struct latmon_fault_in *in, const struct latmon_pte *after)
{
	if (after->state == LATMON_PTE_HUGE)
		return in->before.state == LATMON_PTE_HUGE && after->pfn == in->before.pfn ?
		       LATMON_FK_WP : LATMON_FK_COW;
	if (after->state != LATMON_PTE_PRESENT || !after->write)
		return LATMON_FK_OTHER;
	return after->pfn == in->before.pfn ? LATMON_FK_WP : LATMON_FK_COW;
}

/*
 * The kind of the fault described by in, which handle_mm_fault() ended
 * with ret, leaving after; *why is set where the kind is UNKNOWN.
 */
u8 latmon_fault_kind(const struct latmon_fault_in *in, const struct latmon_pte *after,
		     vm_fault_t ret, u16 *why)
{
	*why = 0;
	if (!in->map) {
		*why = LATMON_FKW_NO_VMA;
		return LATMON_FK_UNKNOWN;
	}
	if (ret & VM_FAULT_RETRY && in->file && !(ret & VM_FAULT_ERROR))
		return LATMON_FK_FILE_IO;	/* it let go of the lock to wait for a read */
	if (ret & (VM_FAULT_RETRY | VM_FAULT_ERROR)) {
		*why = LATMON_FKW_FAILED;
		return LATMON_FK_UNKNOWN;
	}
	switch (in->before.state) {
	case LATMON_PTE_NONE:
		return kind_new(in, after, ret);
	case LATMON_PTE_NUMA:
		return LATMON_FK_NUMA;
	case LATMON_PTE_SWAP:
		return after->state == LATMON_PTE_PRESENT && !in->file ? LATMON_FK_SWAP :
									LATMON_FK_OTHER;
	case LATMON_PTE_PRESENT:
	case LATMON_PTE_HUGE:
		return in->write ? kind_write(in, after) : LATMON_FK_OTHER;
	default:
		return LATMON_FK_OTHER;
	}
}
