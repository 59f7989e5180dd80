// SPDX-License-Identifier: GPL-2.0
/*
 * Source "irq": interrupts that hit a CPU while a target thread is current
 * there: hardirq handlers, softirqs, the x86 local APIC timer, IPIs (each from
 * its entry/exit tracepoints) and NMI handlers (nmi_handler gives the
 * duration). The entry TSC is kept per CPU and kind; the record is written at
 * exit. Not traced: the rare spurious, error, thermal, threshold and
 * deferred-error APIC vectors.
 */
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/math64.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include "latmon.h"

/* Interrupt kinds with an entry/exit pair; one per-CPU entry TSC each. */
struct vec_desc {
	const char *name;
	u32 kind;			/* enum latmon_irq_kind */
	unsigned int slot;
};

enum { SLOT_HARD, SLOT_SOFT, SLOT_TIMER, SLOT_RESCHED, SLOT_CALL,
	SLOT_CALL_SINGLE, SLOT_IRQ_WORK, SLOT_PLATFORM, NR_SLOTS };

struct irq_cpu_state {
	u64 entry_tsc[NR_SLOTS];	/* 0: no target entry pending */
};

static DEFINE_PER_CPU(struct irq_cpu_state, irq_state);
static struct latmon_source_status irq_status;

static const char *const softirq_names[NR_SOFTIRQS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

static const struct vec_desc vec_timer = { "local_timer", LATMON_IRQ_TIMER, SLOT_TIMER };
static const struct vec_desc vec_resched = { "reschedule", LATMON_IRQ_IPI, SLOT_RESCHED };
static const struct vec_desc vec_call = { "call_function", LATMON_IRQ_IPI, SLOT_CALL };
static const struct vec_desc vec_call_single = {
	"call_function_single", LATMON_IRQ_IPI, SLOT_CALL_SINGLE
};

static const struct vec_desc vec_irq_work = { "irq_work", LATMON_IRQ_IPI, SLOT_IRQ_WORK };
static const struct vec_desc vec_platform = { "x86_platform_ipi", LATMON_IRQ_IPI, SLOT_PLATFORM };

/* Entry: remember the TSC if a target thread is the interrupted task. */
static void irq_mark(unsigned int slot)
{
	if (latmon_is_target(current))
		this_cpu_write(irq_state.entry_tsc[slot], rdtsc_ordered());
}

/* Exit: write the record if the entry was marked. */
static void irq_record(unsigned int slot, u32 kind, u32 number,
		       const char *name)
{
	u64 begin = this_cpu_read(irq_state.entry_tsc[slot]);
	struct latmon_event ev;

	if (!begin)
		return;
	this_cpu_write(irq_state.entry_tsc[slot], 0);
	latmon_event_init(&ev, LATMON_EV_IRQ, current);
	ev.tsc_begin = begin;
	ev.tsc_end = rdtsc_ordered();
	ev.u.irq.kind = kind;
	ev.u.irq.number = number;
	strscpy(ev.u.irq.name, name ? name : "?", sizeof(ev.u.irq.name));
	latmon_ring_write(&ev);
}

static void hard_entry(void *data, int irq, struct irqaction *action)
{
	irq_mark(SLOT_HARD);
}

static void hard_exit(void *data, int irq, struct irqaction *action, int ret)
{
	irq_record(SLOT_HARD, LATMON_IRQ_HARD, irq, action->name);
}

static void soft_entry(void *data, unsigned int vec)
{
	irq_mark(SLOT_SOFT);
}

static void soft_exit(void *data, unsigned int vec)
{
	irq_record(SLOT_SOFT, LATMON_IRQ_SOFT, vec,
		   vec < NR_SOFTIRQS ? softirq_names[vec] : "?");
}

static void vec_entry(void *data, int vector)
{
	const struct vec_desc *v = data;

	irq_mark(v->slot);
}

static void vec_exit(void *data, int vector)
{
	const struct vec_desc *v = data;

	irq_record(v->slot, v->kind, vector, v->name);
	if (v->slot == SLOT_TIMER)
		latmon_ticks();
}

/* nmi_handler fires after each handler with its duration in ns. */
static void nmi_probe(void *data, void *handler, s64 delta_ns, int handled)
{
	struct latmon_event ev;
	u64 end, delta;

	if (!latmon_is_target(current))
		return;
	end = rdtsc_ordered();
	delta = delta_ns > 0 ? mul_u64_u32_div(delta_ns, tsc_khz, 1000000) : 0;
	latmon_event_init(&ev, LATMON_EV_IRQ, current);
	ev.tsc_begin = end - min(delta, end);
	ev.tsc_end = end;
	ev.u.irq.kind = LATMON_IRQ_NMI;
	ev.u.irq.number = handled;
	strscpy(ev.u.irq.name, "nmi", sizeof(ev.u.irq.name));
	latmon_ring_write(&ev);
}

static struct latmon_tp irq_tps[] = {
	{ .name = "irq_handler_entry", .probe = hard_entry },
	{ .name = "irq_handler_exit", .probe = hard_exit },
	{ .name = "softirq_entry", .probe = soft_entry },
	{ .name = "softirq_exit", .probe = soft_exit },
	{ .name = "local_timer_entry", .probe = vec_entry,
	  .data = (void *)&vec_timer },
	{ .name = "local_timer_exit", .probe = vec_exit,
	  .data = (void *)&vec_timer },
	{ .name = "reschedule_entry", .probe = vec_entry,
	  .data = (void *)&vec_resched },
	{ .name = "reschedule_exit", .probe = vec_exit,
	  .data = (void *)&vec_resched },
	{ .name = "call_function_entry", .probe = vec_entry,
	  .data = (void *)&vec_call },
	{ .name = "call_function_exit", .probe = vec_exit,
	  .data = (void *)&vec_call },
	{ .name = "call_function_single_entry", .probe = vec_entry,
	  .data = (void *)&vec_call_single },
	{ .name = "call_function_single_exit", .probe = vec_exit,
	  .data = (void *)&vec_call_single },
	{ .name = "irq_work_entry", .probe = vec_entry,
	  .data = (void *)&vec_irq_work },
	{ .name = "irq_work_exit", .probe = vec_exit,
	  .data = (void *)&vec_irq_work },
	{ .name = "x86_platform_ipi_entry", .probe = vec_entry,
	  .data = (void *)&vec_platform },
	{ .name = "x86_platform_ipi_exit", .probe = vec_exit,
	  .data = (void *)&vec_platform },
	{ .name = "nmi_handler", .probe = nmi_probe },
};

/* Available if at least one tracepoint exists; missing ones are named. */
static int irq_resolve(struct latmon_source_status *st)
{
	st->missing = latmon_tp_lookup(irq_tps, ARRAY_SIZE(irq_tps),
				       st->reason, sizeof(st->reason));
	st->available = st->missing < ARRAY_SIZE(irq_tps);
	return 0;
}

static int irq_attach(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&irq_state, cpu), 0, sizeof(struct irq_cpu_state));
	return latmon_tp_register(irq_tps, ARRAY_SIZE(irq_tps));
}

static void irq_detach(void)
{
	latmon_tp_unregister(irq_tps, ARRAY_SIZE(irq_tps));
}

const struct latmon_source_ops latmon_src_irq = {
	.id = LATMON_SRC_IRQ,
	.status = &irq_status,
	.resolve = irq_resolve,
	.attach = irq_attach,
	.detach = irq_detach,
};
