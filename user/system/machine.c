// SPDX-License-Identifier: MIT
/*
 * What kind of machine this is: bare metal or a guest, and of which
 * hypervisor, from CPUID (the hypervisor bit of leaf 1, the vendor of leaf
 * 0x40000000), and the kernel's clock source. A guest's slow time may be
 * its hypervisor's (steal, a second-level fault), which the guest kernel
 * does not see: the report says where it ran.
 */
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "system/machine.h"

#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"

/* The known vendor signatures of CPUID leaf 0x40000000. */
static const struct {
	const char *sig, *kind;
} vendors[] = {
	{ "KVMKVMKVM", "KVM guest" },
	{ "TCGTCGTCGTCG", "QEMU TCG guest (an emulated CPU: its times are emulated)" },
	{ "Microsoft Hv", "Hyper-V guest" },
	{ "VMwareVMware", "VMware guest" },
	{ "XenVMMXenVMM", "Xen guest" },
	{ "bhyve bhyve ", "bhyve guest" },
	{ " lrpepyh  vr", "Parallels guest" },
	{ "ACRNACRNACRN", "ACRN guest" },
	{ "QNXQVMBSQG", "QNX hypervisor guest" },
	{ "VBoxVBoxVBox", "VirtualBox guest" },
};

const char *lat_machine_vendor_kind(const char *sig)
{
	size_t i;

	for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
		if (!strcmp(sig, vendors[i].sig))
			return vendors[i].kind;
	return NULL;
}

/* The hypervisor's signature into sig (13 bytes); 0 when CPUID says this
 * is a guest, -1 when it is not (or this is no x86). */
static int hypervisor_sig(char sig[13])
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1U << 31)))
		return -1;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	return 0;
#else
	(void)sig;
	return -1;
#endif
}

void lat_machine_kind(char *buf, size_t len)
{
	char sig[13];
	const char *name;

	if (hypervisor_sig(sig)) {
#if defined(__x86_64__) || defined(__i386__)
		snprintf(buf, len, "bare metal (no hypervisor bit in CPUID)");
#else
		snprintf(buf, len, "unknown (no CPUID on this architecture)");
#endif
		return;
	}
	name = lat_machine_vendor_kind(sig);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "guest of a hypervisor signed '%s'", sig);
}

int lat_machine_clocksource(char *buf, size_t len)
{
	FILE *f = fopen(CLOCKSOURCE, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
