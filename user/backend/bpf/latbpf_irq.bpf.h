/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interrupt programs of the BPF backend, included by latbpf.bpf.c after
 * its helpers: hard and soft interrupts, the x86 vectors and NMIs that
 * interrupt a target thread, one record each from entry to exit.
 */
#ifndef LATBPF_IRQ_BPF_H
#define LATBPF_IRQ_BPF_H

/* Interrupt entry: this CPU is in an interrupt of this kind (a wake-up
 * from here is the interrupt's, not the interrupted task's); remember the
 * time if a target thread was interrupted. */
static __always_inline void irq_mark(int slot)
{
	struct latbpf_cpu *c = this_cpu();

	if (!c || slot < 0 || slot >= LATBPF_NR_SLOTS)
		return;
	__sync_fetch_and_or(&c->irq_in, 1ULL << slot);
	if (current_is_target())
		c->irq_ns[slot] = bpf_ktime_get_ns();
}

/* Interrupt exit of any task: out of that kind (an interrupt does not nest
 * in its own kind, so an entry missed when the programs attached is
 * undone by the next exit). */
static __always_inline void irq_leave(int slot)
{
	struct latbpf_cpu *c = this_cpu();

	if (c && slot >= 0 && slot < LATBPF_NR_SLOTS)
		__sync_fetch_and_and(&c->irq_in, ~(1ULL << slot));
}

/* Interrupt exit: fills e if the entry was marked for the task still
 * current; false if not. */
static __always_inline bool irq_record(int slot, __u32 kind, __u32 number,
				       struct latmon_event *e)
{
	struct latbpf_cpu *c = this_cpu();

	if (!c || slot < 0 || slot >= LATBPF_NR_SLOTS || !c->irq_ns[slot])
		return false;
	if (!current_is_target()) {	/* an entry seen without its exit */
		c->irq_ns[slot] = 0;
		return false;
	}
	e->type = LATMON_EV_IRQ;
	e->tsc_begin = c->irq_ns[slot];
	c->irq_ns[slot] = 0;
	e->tsc_end = bpf_ktime_get_ns();
	e->u.irq.kind = kind;
	e->u.irq.number = number;
	return true;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(on_hard_entry, int irq, struct irqaction *action)
{
	irq_mark(LATBPF_SLOT_HARD);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(on_hard_exit, int irq, struct irqaction *action, int ret)
{
	struct latmon_event e = {};

	irq_leave(LATBPF_SLOT_HARD);
	if (!irq_record(LATBPF_SLOT_HARD, LATMON_IRQ_HARD, irq, &e))
		return 0;
	bpf_probe_read_kernel_str(e.u.irq.name, sizeof(e.u.irq.name), BPF_CORE_READ(action, name));
	submit_now(&e, bpf_get_current_pid_tgid(), e.tsc_end);
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(on_soft_entry, unsigned int vec)
{
	irq_mark(LATBPF_SLOT_SOFT);
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(on_soft_exit, unsigned int vec)
{
	struct latmon_event e = {};

	irq_leave(LATBPF_SLOT_SOFT);
	if (!irq_record(LATBPF_SLOT_SOFT, LATMON_IRQ_SOFT, vec, &e))
		return 0;
	if (vec < 10)
		__builtin_memcpy(e.u.irq.name, softirq_names[vec], 16);
	else
		e.u.irq.name[0] = '?';
	submit_now(&e, bpf_get_current_pid_tgid(), e.tsc_end);
	return 0;
}

/* The x86 vectors: an entry and an exit program each, named like latmon. */
/* clang-format off */
#define VECTOR(tp, slot, kind, label)						\
SEC("tp_btf/" #tp "_entry")							\
int BPF_PROG(on_##tp##_entry, int vector)					\
{										\
	irq_mark(slot);								\
	return 0;								\
}										\
SEC("tp_btf/" #tp "_exit")							\
int BPF_PROG(on_##tp##_exit, int vector)					\
{										\
	struct latmon_event e = {};						\
										\
	irq_leave(slot);							\
	if (!irq_record(slot, kind, vector, &e))				\
		return 0;							\
	__builtin_memcpy(e.u.irq.name, label, sizeof(label));			\
	submit_now(&e, bpf_get_current_pid_tgid(), e.tsc_end);			\
	return 0;								\
}
/* clang-format on */

VECTOR(local_timer, LATBPF_SLOT_TIMER, LATMON_IRQ_TIMER, "local_timer")
VECTOR(reschedule, LATBPF_SLOT_RESCHED, LATMON_IRQ_IPI, "reschedule")
VECTOR(call_function, LATBPF_SLOT_CALL, LATMON_IRQ_IPI, "call_function")
VECTOR(call_function_single, LATBPF_SLOT_CALL_SINGLE, LATMON_IRQ_IPI, "call_function_s")
VECTOR(irq_work, LATBPF_SLOT_IRQ_WORK, LATMON_IRQ_IPI, "irq_work")
VECTOR(x86_platform_ipi, LATBPF_SLOT_PLATFORM, LATMON_IRQ_IPI, "x86_platform_ip")

/* nmi_handler fires after each handler with its duration. */
SEC("tp_btf/nmi_handler")
int BPF_PROG(on_nmi, void *handler, s64 delta_ns, int handled)
{
	struct latmon_event e = { .type = LATMON_EV_IRQ };
	__u64 now;

	if (!current_is_target())
		return 0;
	now = bpf_ktime_get_ns();
	e.tsc_begin = delta_ns > 0 && (__u64)delta_ns < now ? now - delta_ns : now;
	e.tsc_end = now;
	e.u.irq.kind = LATMON_IRQ_NMI;
	e.u.irq.number = handled;
	__builtin_memcpy(e.u.irq.name, "nmi", 4);
	submit_now(&e, bpf_get_current_pid_tgid(), now);
	return 0;
}

#endif /* LATBPF_IRQ_BPF_H */
