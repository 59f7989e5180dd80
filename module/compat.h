/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference latmon depends on, in one place.
 * Supported: Linux 6.1 (Debian bookworm), 6.12 (bookworm-backports) and 7.3
 * (trixie-backports, also its PREEMPT_RT flavour). Where the kernel's
 * headers can tell, module/Kbuild asks them (LATMON_HAVE_*) rather than
 * guessing from the version.
 */
#ifndef LATMON_COMPAT_H
#define LATMON_COMPAT_H

#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/ftrace.h>
#include <linux/ptrace.h>

#ifndef LATMON_HAVE_SWITCH_PREV_STATE
#error "latmon needs Linux 5.18 or later (sched_switch with prev_state)"
#endif

/*
 * sched_switch has been (bool preempt, prev, next, unsigned int prev_state)
 * since 5.18; checked identical in the 6.1 and 6.12 headers.
 */
#define LATMON_SCHED_SWITCH_ARGS \
	bool preempt, struct task_struct *prev, struct task_struct *next, \
	unsigned int prev_state

/*
 * The function that zeroes a new huge page: clear_huge_page(page, addr_hint,
 * pages_per_huge_page) until upstream "mm: memory: convert clear_huge_page()
 * to folio_zero_user()" (v6.10) made it folio_zero_user(folio, addr_hint).
 * The one this kernel's linux/mm.h declares is tried first, then the other one,
 * unless thp_clear_symbol= names one.
 */
#ifdef LATMON_HAVE_FOLIO_ZERO_USER
#define LATMON_THP_CLEAR_FIRST	"folio_zero_user"
#define LATMON_THP_CLEAR_SECOND	"clear_huge_page"
#else
#define LATMON_THP_CLEAR_FIRST	"clear_huge_page"
#define LATMON_THP_CLEAR_SECOND	"folio_zero_user"
#endif

/*
 * Zeroing in the page allocator: post_alloc_hook(page, order, gfp) zeroes the
 * new pages (kernel_init_pages) when !want_init_on_free() &&
 * want_init_on_alloc(gfp), i.e. init_on_alloc (Debian's default,
 * CONFIG_INIT_ON_ALLOC_DEFAULT_ON) or __GFP_ZERO. In Debian's 6.1 and 6.12
 * builds post_alloc_hook is inlined into prep_new_page and that into
 * get_page_from_freelist; the out-of-line copy only serves compaction, so a
 * hook on it never sees a fault's allocation. The zeroing therefore begins in
 * get_page_from_freelist(gfp_t gfp_mask, unsigned int order, int alloc_flags,
 * const struct alloc_context *ac), the same in 6.1, 6.12 and 7.3 (its entry:
 * the free-list search, then the zeroing), and ends at the mm_page_alloc
 * tracepoint, where the allocation returns the page. prep_compound_page,
 * which only compound pages reach right after the zeroing, would be a
 * narrower end, but Debian's 6.1 inlines it there too. A page captured by
 * direct compaction is prepared in __alloc_pages_direct_compact(gfp_mask,
 * order, alloc_flags, ac, prio, compact_result) instead: same first two
 * arguments, so its span begins at that entry and holds the compaction.
 * What the test bed showed for each of these: tests/BENCHMARKS.md, "Kernel
 * facts latmon's compat.h rests on".
 */
#define LATMON_ALLOC_ZERO_SYMBOL	"get_page_from_freelist"
#define LATMON_ALLOC_ZERO_COMPACT_SYMBOL "__alloc_pages_direct_compact"
#define LATMON_ALLOC_ZERO_GFP_ARG	0
#define LATMON_ALLOC_ZERO_ORDER_ARG	1

/*
 * Argument @n of a function entered, in an ftrace callback:
 * ftrace_regs_get_argument() where the kernel has it (6.12, 7.3); in 6.1
 * x86's struct ftrace_regs is the pt_regs whose argument registers
 * ftrace_caller saved.
 */
#ifdef ftrace_regs_get_argument
#define latmon_ftrace_arg(fregs, n)	ftrace_regs_get_argument(fregs, n)
#else
#define latmon_ftrace_arg(fregs, n)	regs_get_kernel_argument(&(fregs)->regs, n)
#endif

/*
 * A 64-bit MSR read that survives a #GP: rdmsrl_safe(msr, u64 *) until
 * "x86/msr: Rename 'rdmsrl_safe()' to 'rdmsrq_safe()'" (v6.16).
 */
#ifdef LATMON_HAVE_RDMSRQ
#define latmon_rdmsr_safe(msr, p)	rdmsrq_safe(msr, p)
#else
#define latmon_rdmsr_safe(msr, p)	rdmsrl_safe(msr, p)
#endif

static inline bool latmon_alloc_zeroes(gfp_t gfp)
{
	return !want_init_on_free() && want_init_on_alloc(gfp);
}

static inline bool latmon_init_on_alloc(void)
{
	return want_init_on_alloc(0);
}

/*
 * Direct compaction: compact_zone() between mm_compaction_begin and
 * mm_compaction_end, after mm_compaction_try_to_compact_pages (prototypes
 * the same in the 6.1, 6.12 and 7.3 headers); direct and memcg reclaim:
 * mm_vmscan_{direct,memcg}_reclaim_begin/end, (int order, gfp_t gfp_flags)
 * and (unsigned long nr_reclaimed) in 6.1 and 6.12, with gfp first and a
 * struct mem_cgroup * added in 7.3: Kbuild reads which from the kernel's
 * trace/events/vmscan.h, and the source files check their probes against
 * the headers (check_trace_callback_type_*), so a wrong guess cannot build.
 */
struct compact_control;
struct mem_cgroup;
#define LATMON_COMPACTION_BEGIN_ARGS \
	struct compact_control *cc, unsigned long zone_start, \
	unsigned long zone_end, bool sync
#define LATMON_COMPACTION_END_ARGS \
	struct compact_control *cc, unsigned long zone_start, \
	unsigned long zone_end, bool sync, int status
#define LATMON_COMPACTION_TRY_ARGS	int order, gfp_t gfp_mask, int prio
#ifdef LATMON_HAVE_RECLAIM_MEMCG
#define LATMON_RECLAIM_BEGIN_ARGS	gfp_t gfp_flags, int order, struct mem_cgroup *memcg
#define LATMON_RECLAIM_END_ARGS		unsigned long nr_reclaimed, struct mem_cgroup *memcg
#else
#define LATMON_RECLAIM_BEGIN_ARGS	int order, gfp_t gfp_flags
#define LATMON_RECLAIM_END_ARGS		unsigned long nr_reclaimed
#endif

/*
 * Netlink range policies point to a struct netlink_range_validation that is
 * non-const in 6.1 and const in 6.12 and 7.3 (net/netlink.h's policy, since
 * v6.2). Ranges are declared with the header's qualifier so that no kernel
 * warns.
 */
#ifdef LATMON_HAVE_NL_RANGE_CONST
#define LATMON_NL_RANGE_CONST	const
#else
#define LATMON_NL_RANGE_CONST
#endif

/*
 * The unbound system workqueue: upstream "workqueue: Add system_percpu_wq
 * and system_dfl_wq" (v6.17) renamed system_unbound_wq system_dfl_wq, and
 * 7.x logs a deprecation line for work queued on the old name. The new name
 * wherever linux/workqueue.h declares it (stable 6.12.y does, as an alias).
 */
#ifdef LATMON_HAVE_SYSTEM_DFL_WQ
#define LATMON_UNBOUND_WQ	system_dfl_wq
#else
#define LATMON_UNBOUND_WQ	system_unbound_wq
#endif

#endif /* LATMON_COMPAT_H */
