/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference latmon depends on, in one place.
 * Supported: Linux 6.1 (Debian bookworm), 6.12 (bookworm-backports) and 7.3
 * (trixie-backports, also its PREEMPT_RT flavour).
 */
#ifndef LATMON_COMPAT_H
#define LATMON_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 18, 0)
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
 * pages_per_huge_page) until it became folio_zero_user(folio, addr_hint)
 * (present in 6.12, absent in 6.1). The default for this kernel is tried
 * first, then the other one, unless thp_clear_symbol= names one.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define LATMON_THP_CLEAR_FIRST	"folio_zero_user"
#define LATMON_THP_CLEAR_SECOND	"clear_huge_page"
#else
#define LATMON_THP_CLEAR_FIRST	"clear_huge_page"
#define LATMON_THP_CLEAR_SECOND	"folio_zero_user"
#endif

/*
 * Netlink range policies point to a struct netlink_range_validation that is
 * non-const in 6.1 and const in 6.12 (the change came in 6.2). Ranges are
 * declared with this qualifier so that neither kernel warns.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define LATMON_NL_RANGE_CONST	const
#else
#define LATMON_NL_RANGE_CONST
#endif

/*
 * The unbound system workqueue: system_unbound_wq was renamed system_dfl_wq
 * in 6.17, and 7.x logs a deprecation line for work queued on the old name.
 * Stable kernels that got the new name as an alias (6.12.y) keep the old one.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define LATMON_UNBOUND_WQ	system_dfl_wq
#else
#define LATMON_UNBOUND_WQ	system_unbound_wq
#endif

#endif /* LATMON_COMPAT_H */
