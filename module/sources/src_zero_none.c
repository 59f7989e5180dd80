// SPDX-License-Identifier: GPL-2.0
/*
 * The alloc-zero source of a kernel built without CONFIG_DYNAMIC_FTRACE:
 * its begin hooks are ftrace filters on function entries, so there it is
 * unavailable, with the reason GET_INFO and `latctl latmon info` show, and
 * every other source loads.
 */
#include <linux/kernel.h>

#include "latmon.h"

static struct latmon_source_status zero_status;

static int zero_resolve(struct latmon_source_status *st)
{
	st->symbol = LATMON_ALLOC_ZERO_SYMBOL;
	st->missing = 1;
	snprintf(st->reason, sizeof(st->reason),
		 "this kernel has no CONFIG_DYNAMIC_FTRACE: %s's entry cannot be hooked",
		 LATMON_ALLOC_ZERO_SYMBOL);
	return 0;
}

const struct latmon_source_ops latmon_src_zero = {
	.id = LATMON_SRC_ALLOC_ZERO,
	.status = &zero_status,
	.resolve = zero_resolve,
};
