// SPDX-License-Identifier: GPL-2.0
/*
 * lmhooks.ko: one bare hook on the 4 KiB fault path, chosen by hook=, whose
 * handler only counts and compares the task with target=, so that
 * tests/bench/guest/bench-sources.sh can price each mechanism latmon could
 * use (tests/BENCHMARKS.md, "What each latmon source costs"):
 *   ftrace      an ftrace_ops on handle_mm_fault's entry (no saved registers)
 *   kprobe      a kprobe on handle_mm_fault's entry
 *   kretprobe   a kretprobe on handle_mm_fault, its return handler run
 *   tracepoint  a probe on the x86 page_fault_user tracepoint
 *   perf        a per-CPU software event on each minor fault (the end of
 *               handle_mm_fault's accounting), period 1
 *   ftrace-alloc  an ftrace_ops on get_page_from_freelist that tests the
 *               order and returns, as latmon's alloc-zero does for order 0
 *   fprobe      an fprobe on handle_mm_fault, its exit handler run (kernels
 *               with CONFIG_FPROBE: on function-graph returns since 6.14,
 *               on a rethook like a kretprobe before; not in Debian's 6.1)
 * Unloading prints the count to the kernel log.
 */
#include <linux/module.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/perf_event.h>
#include <linux/tracepoint.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/version.h>
#ifdef CONFIG_FPROBE
#include <linux/fprobe.h>
#endif

static char *hook = "ftrace";
module_param(hook, charp, 0444);
static int target;
module_param(target, int, 0644);

static DEFINE_PER_CPU(unsigned long, hits);
static atomic_long_t target_hits;

static void notrace count(void)
{
	this_cpu_inc(hits);
	if (current->tgid == READ_ONCE(target))
		atomic_long_inc(&target_hits);
}

#ifdef ftrace_regs_get_argument
#define hook_arg(fregs, n)	ftrace_regs_get_argument(fregs, n)
#else
#define hook_arg(fregs, n)	regs_get_kernel_argument(&(fregs)->regs, n)
#endif

static void notrace ftrace_cb(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	if (op->private && !hook_arg(fregs, 1))
		return;		/* ftrace-alloc: order 0 */
	count();
}

static struct ftrace_ops ops = { .func = ftrace_cb, .flags = FTRACE_OPS_FL_RECURSION };

static int kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	count();
	return 0;
}

static struct kprobe kp = { .symbol_name = "handle_mm_fault", .pre_handler = kp_pre };

static int krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return current->tgid != READ_ONCE(target);	/* a return only for the target */
}

static int krp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	count();
	return 0;
}

static struct kretprobe krp = {
	.kp.symbol_name = "handle_mm_fault", .entry_handler = krp_entry,
	.handler = krp_ret, .maxactive = 64,
};

#ifdef CONFIG_FPROBE
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
typedef struct ftrace_regs fprobe_regs_t;
#else
typedef struct pt_regs fprobe_regs_t;
#endif

static int fp_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
		    fprobe_regs_t *regs, void *data)
{
	return current->tgid != READ_ONCE(target);	/* an exit only for the target */
}

static void fp_exit(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
		    fprobe_regs_t *regs, void *data)
{
	count();
}

static struct fprobe fp = { .entry_handler = fp_entry, .exit_handler = fp_exit };

static int fprobe_on(void)
{
	return register_fprobe(&fp, "handle_mm_fault", NULL);
}

static void fprobe_off(void)
{
	unregister_fprobe(&fp);
}
#else
static int fprobe_on(void)
{
	return -EOPNOTSUPP;
}

static void fprobe_off(void)
{
}
#endif

static struct tracepoint *tp;

static void tp_match(struct tracepoint *t, void *priv)
{
	if (!strcmp(t->name, "page_fault_user"))
		tp = t;
}

static void tp_probe(void *data, unsigned long address, struct pt_regs *regs,
		     unsigned long error_code)
{
	count();
}

static struct perf_event *events[NR_CPUS];

static void perf_cb(struct perf_event *e, struct perf_sample_data *d, struct pt_regs *regs)
{
	count();
}

static int ftrace_on(const char *sym, bool alloc)
{
	char buf[KSYM_NAME_LEN];
	int err;

	ops.private = alloc ? &ops : NULL;
	strscpy(buf, sym, sizeof(buf));
	err = ftrace_set_filter(&ops, (unsigned char *)buf, strlen(buf), 1);
	return err ? err : register_ftrace_function(&ops);
}

static int perf_on(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
		.config = PERF_COUNT_SW_PAGE_FAULTS_MIN, .sample_period = 1,
	};
	int cpu;

	for_each_online_cpu(cpu) {
		events[cpu] = perf_event_create_kernel_counter(&attr, cpu, NULL, perf_cb, NULL);
		if (IS_ERR(events[cpu])) {
			int err = PTR_ERR(events[cpu]);

			events[cpu] = NULL;
			return err;
		}
	}
	return 0;
}

static void perf_off(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (events[cpu])
			perf_event_release_kernel(events[cpu]);
}

static int tp_on(void)
{
	for_each_kernel_tracepoint(tp_match, NULL);
	return tp ? tracepoint_probe_register(tp, tp_probe, NULL) : -ENOENT;
}

static int __init lmhooks_init(void)
{
	int err = -EINVAL;

	if (!strcmp(hook, "ftrace"))
		err = ftrace_on("handle_mm_fault", false);
	else if (!strcmp(hook, "ftrace-alloc"))
		err = ftrace_on("get_page_from_freelist", true);
	else if (!strcmp(hook, "kprobe"))
		err = register_kprobe(&kp);
	else if (!strcmp(hook, "kretprobe"))
		err = register_kretprobe(&krp);
	else if (!strcmp(hook, "tracepoint"))
		err = tp_on();
	else if (!strcmp(hook, "perf"))
		err = perf_on();
	else if (!strcmp(hook, "fprobe"))
		err = fprobe_on();
	if (err && !strcmp(hook, "perf"))
		perf_off();
	if (err)
		pr_err("lmhooks: hook=%s: %d\n", hook, err);
	return err;
}

static void __exit lmhooks_exit(void)
{
	unsigned long n = 0;
	int cpu;

	if (!strncmp(hook, "ftrace", 6))
		unregister_ftrace_function(&ops);
	else if (!strcmp(hook, "kprobe"))
		unregister_kprobe(&kp);
	else if (!strcmp(hook, "kretprobe"))
		unregister_kretprobe(&krp);
	else if (!strcmp(hook, "tracepoint")) {
		tracepoint_probe_unregister(tp, tp_probe, NULL);
		tracepoint_synchronize_unregister();
	} else if (!strcmp(hook, "perf"))
		perf_off();
	else if (!strcmp(hook, "fprobe"))
		fprobe_off();
	for_each_possible_cpu(cpu)
		n += per_cpu(hits, cpu);
	pr_info("lmhooks: hook=%s hits=%lu target_hits=%ld\n", hook, n,
		atomic_long_read(&target_hits));
}

module_init(lmhooks_init);
module_exit(lmhooks_exit);
MODULE_DESCRIPTION("bare hooks on the page fault path, for latctl's cost benchmark");
MODULE_LICENSE("GPL");
