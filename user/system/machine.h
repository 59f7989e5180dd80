/* SPDX-License-Identifier: MIT */
/* The kind of machine (bare metal, a hypervisor's guest) and its clock
 * source, for the result's environment and the report's head. */
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

#endif /* LATCTL_MACHINE_H */
