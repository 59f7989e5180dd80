// SPDX-License-Identifier: GPL-2.0
/*
 * The ftrace plumbing of the sources that only need a function's entry
 * (src_zero.c): an ftrace_ops whose filter names one function, set at load
 * (so a function that cannot be traced makes the source unavailable with
 * the reason), registered while a session runs and unregistered at STOP.
 * The callback runs from the function's fentry call without saved
 * registers beyond the arguments: a call and a return where a kprobe saves
 * every register and takes a kretprobe instance.
 */
#include <linux/ftrace.h>
#include <linux/string.h>

#include "latmon.h"

/* Aim @f at @sym with callback @func; 0 or -errno (@sym cannot be traced). */
int latmon_ftr_init(struct latmon_ftr *f, const char *sym, ftrace_func_t func)
{
	char buf[KSYM_NAME_LEN];
	int err;

	memset(f, 0, sizeof(*f));
	f->ops.func = func;
	f->ops.flags = FTRACE_OPS_FL_RECURSION;	/* the callbacks do not recurse */
	strscpy(buf, sym, sizeof(buf));
	err = ftrace_set_filter(&f->ops, (unsigned char *)buf, strlen(buf), 1);
	f->filtered = !err;
	return err;
}

int latmon_ftr_enable(struct latmon_ftr *f)
{
	int err;

	if (!f->filtered || f->enabled)
		return 0;
	err = register_ftrace_function(&f->ops);
	f->enabled = !err;
	return err;
}

/* Unregister; returns once no callback runs any more. */
void latmon_ftr_disable(struct latmon_ftr *f)
{
	if (f->enabled)
		unregister_ftrace_function(&f->ops);
	f->enabled = false;
}

void latmon_ftr_release(struct latmon_ftr *f)
{
	latmon_ftr_disable(f);
	if (f->filtered)
		ftrace_free_filter(&f->ops);
	f->filtered = false;
}
