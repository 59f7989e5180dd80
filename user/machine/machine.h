/* SPDX-License-Identifier: MIT */
/* The kind of machine (bare metal, a hypervisor's guest), its clock source
 * and what its kernel does with memory and system calls, measured: the
 * facts machine/facts.c gathers into one description. */
#ifndef LATCTL_MACHINE_H
#define LATCTL_MACHINE_H

#include <stddef.h>

/* "bare metal (no hypervisor bit in CPUID)", "KVM guest", ... into buf:
 * CPUID's signature, or the kernel's own word where its log says another
 * ("PVM guest (the kernel's word; CPUID signs it 'bhyve bhyve ')"). */
void lat_machine_kind(char *buf, size_t len);
/* The guest of the hypervisor a CPUID leaf 0x40000000 signature names
 * ("KVM guest"), NULL when it is not one this file knows. */
const char *lat_machine_vendor_kind(const char *sig);
/* The kernel's current clock source ("tsc", "kvm-clock"); -1 unknown. */
int lat_machine_clocksource(char *buf, size_t len);

/* The hypervisor's name, the kernel's word ("PVM") or CPUID's ("KVM"),
 * "" on bare metal. */
void lat_machine_hypervisor(char *buf, size_t len);
/* 1 when a read of never-touched anonymous memory maps the shared zero
 * page (the resident pages do not grow), 0 when each read takes a page of
 * its own, -1 unknown. */
int lat_machine_zero_page(void);
/* The median cost of a first write to a fresh 4 KiB anonymous page in ns,
 * measured on 256 pages (the TSC pair included); -1 unknown. */
double lat_machine_first_touch_ns(void);
/* The median cost of a system call (getppid) in ns. */
double lat_machine_syscall_ns(void);
/* 1 when a CPU performance monitoring unit is registered with perf. */
int lat_machine_pmu(void);
/* The cgroup layout: "v2", "hybrid", "v1" or "none". */
const char *lat_machine_cgroup(void);
/* The TSC's CPU flags this CPU has ("constant_tsc nonstop_tsc ..."). */
void lat_machine_tsc_flags(char *buf, size_t len);
/* 1 when the kernel still offers the TSC as a clock source, 0 when it
 * marked it unstable (or never had it), -1 unknown. */
int lat_machine_tsc_clock_ok(void);

#endif /* LATCTL_MACHINE_H */
