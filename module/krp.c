// SPDX-License-Identifier: GPL-2.0
/*
 * The kretprobe plumbing of the sources that time a kernel function from
 * entry to return: registered disabled at load, enabled only while a
 * session runs, misses counted from the start of it.
 */
#include <linux/kprobes.h>

#include "latmon.h"

int latmon_krp_register(struct latmon_krp *k, const char *sym,
			kretprobe_handler_t entry, kretprobe_handler_t ret,
			size_t data_size, unsigned int maxactive)
{
	int err;

	memset(&k->rp, 0, sizeof(k->rp));
	k->rp.kp.symbol_name = sym;
	k->rp.kp.flags = KPROBE_FLAG_DISABLED;
	k->rp.entry_handler = entry;
	k->rp.handler = ret;
	k->rp.data_size = data_size;
	/* the probed functions can sleep: many can be in flight per CPU */
	k->rp.maxactive = maxactive ? maxactive : 64 + 4 * num_possible_cpus();
	err = register_kretprobe(&k->rp);
	k->registered = !err;
	return err;
}

int latmon_krp_enable(struct latmon_krp *k)
{
	k->rp.nmissed = 0;
	k->rp.kp.nmissed = 0;
	return enable_kretprobe(&k->rp);
}

void latmon_krp_disable(struct latmon_krp *k)
{
	disable_kretprobe(&k->rp);
}

void latmon_krp_unregister(struct latmon_krp *k)
{
	if (k->registered)
		unregister_kretprobe(&k->rp);
	k->registered = false;
}

u64 latmon_krp_misses(const struct latmon_krp *k)
{
	return (u64)k->rp.nmissed + k->rp.kp.nmissed;
}
