// SPDX-License-Identifier: GPL-2.0
/*
 * SMIs for the irq source: at each tick that interrupts a target thread
 * (ticks.c), this CPU's MSR_SMI_COUNT (bare-metal Intel; a #GP-safe read,
 * tried once per CPU); one LATMON_EV_SMI record for each window where the
 * count moved.
 *
 * Not read in a guest (the hypervisor's bit in CPUID): there an MSR read
 * leaves the guest, on every tick, and counts the guest's SMIs, not the
 * machine's. Untested on hardware (the test bed is emulated): smi_fake
 * below drives the path with synthetic counts.
 */
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/msr-index.h>
#include <asm/processor.h>
#include "compat.h"
#include "latmon.h"

enum { SMI_UNKNOWN, SMI_READABLE, SMI_NONE };

struct smi_cpu {
	struct latmon_tick_window win;	/* value: the count (with the fake part) */
	u64 fake;			/* synthetic SMIs added so far */
	int state;			/* SMI_*: whether this CPU's counter reads */
};

static DEFINE_PER_CPU(struct smi_cpu, smi_state);

/*
 * Test hook of the VM suite (tests/vm/t-52-steal.sh): every tick reading
 * of a target counts this many more SMIs, with or without a counter.
 * 0 (default): off.
 */
static unsigned int smi_fake;
module_param(smi_fake, uint, 0644);
MODULE_PARM_DESC(smi_fake, "test only: synthetic SMIs added at each tick reading of a target");

/* This CPU's SMI count, or false where it has none to read. */
static bool smi_read(struct smi_cpu *s, u64 *count)
{
	*count = 0;
	if (s->state == SMI_UNKNOWN)
		s->state = boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
			   !boot_cpu_has(X86_FEATURE_HYPERVISOR) ? SMI_READABLE : SMI_NONE;
	if (s->state == SMI_READABLE && latmon_rdmsr_safe(MSR_SMI_COUNT, count))
		s->state = SMI_NONE;
	return s->state == SMI_READABLE;
}

void latmon_smi_tick(u64 tsc)
{
	struct smi_cpu *s = this_cpu_ptr(&smi_state);
	u64 count, fake = READ_ONCE(smi_fake), begin, moved;
	struct latmon_event ev;

	if (!smi_read(s, &count) && !fake) {
		s->win.tid = 0;
		return;
	}
	s->fake += fake;
	count += s->fake;
	moved = latmon_window_next(&s->win, tsc, count, &begin);
	if (!moved)
		return;
	latmon_event_init(&ev, LATMON_EV_SMI, current);
	ev.tsc_begin = begin;
	ev.tsc_end = tsc;
	ev.u.smi.smis = moved;
	ev.u.smi.msr = count;
	latmon_ring_write(&ev);
}

void latmon_smi_end(void)
{
	this_cpu_write(smi_state.win.tid, 0);
}
