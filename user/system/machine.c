// SPDX-License-Identifier: MIT
/*
 * What kind of machine this is: bare metal or a guest, and of which
 * hypervisor, from CPUID (the hypervisor bit of leaf 1, the vendor of leaf
 * 0x40000000) or, where they differ, the kernel's own word in its log
 * (a PVM guest signs itself bhyve), and the kernel's clock source. A guest's slow time may be
 * its hypervisor's (steal, a second-level fault), which the guest kernel
 * does not see: the report says where it ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/klog.h>
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

/* The kernel's own word for the hypervisor, "Hypervisor detected: PVM"
 * in its log (klogctl: root, or dmesg_restrict=0), into name; -1 when the
 * log cannot be read or does not say (a log that has wrapped). */
static int kernel_word(char *name, size_t len)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n;
	char *log, *at;

	if (size <= 0 || size > (64 << 20) || !(log = malloc((size_t)size + 1)))
		return -1;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size);
	log[n > 0 ? n : 0] = '\0';
	at = n > 0 ? strstr(log, "Hypervisor detected: ") : NULL;
	if (at) {
		at += strlen("Hypervisor detected: ");
		snprintf(name, len, "%.*s", (int)strcspn(at, "\n"), at);
	}
	free(log);
	return at && name[0] ? 0 : -1;
}

/* name, the kernel's word, names the guest kind too ("KVM" of "KVM guest"). */
static int same_kind(const char *name, const char *kind)
{
	return kind && !strncasecmp(kind, name, strlen(name));
}

void lat_machine_kind(char *buf, size_t len)
{
	char sig[13], word[64];
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
	if (!kernel_word(word, sizeof(word)) && !same_kind(word, name))
		snprintf(buf, len, "%s guest (the kernel's word; CPUID signs it '%s')", word, sig);
	else if (name)
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
