// SPDX-License-Identifier: MIT
/*
 * What kind of machine this is: bare metal or a guest, and of which
 * hypervisor, from CPUID (the hypervisor bit of leaf 1, the vendor of leaf
 * 0x40000000) or, where they differ, the kernel's own word in its log
 * (a PVM guest signs itself bhyve), and the kernel's clock source. A guest's slow time may be
 * its hypervisor's (steal, a second-level fault), which the guest kernel
 * does not see: the report says where it ran. And what the kernel does
 * here, measured rather than assumed: whether a read maps the zero page,
 * what a first touch and a system call cost, PMU, cgroups, TSC flags.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "lib/tsc.h"
#include "machine/machine.h"
#include "system/sysinfo.h"

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

#define PROBE_PAGES	256
#define PROBE_PAGE	4096UL

/* Resident pages of this process (/proc/self/statm), -1 unknown; the
 * shared zero page is not counted. */
static long resident_pages(void)
{
	long size = 0, rss = -1;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f && fscanf(f, "%ld %ld", &size, &rss) != 2)
		rss = -1;
	if (f)
		fclose(f);
	return rss;
}

/* PROBE_PAGES fresh anonymous pages, no huge page of any size. */
static volatile char *probe_map(void)
{
	void *p = mmap(NULL, PROBE_PAGES * PROBE_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, PROBE_PAGES * PROBE_PAGE, MADV_NOHUGEPAGE);
	return p;
}

int lat_machine_zero_page(void)
{
	volatile char *p = probe_map();
	long before = resident_pages(), after;
	size_t i;

	if (!p)
		return -1;
	for (i = 0; i < PROBE_PAGES; i++)
		(void)p[i * PROBE_PAGE];
	after = resident_pages();
	munmap((void *)p, PROBE_PAGES * PROBE_PAGE);
	if (before < 0 || after < 0)
		return -1;
	return after - before < PROBE_PAGES / 2;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of n TSC intervals in ns. */
static double median_ns(uint64_t *t, size_t n, size_t per)
{
	double hz = lat_tsc_hz();

	qsort(t, n, sizeof(*t), cmp_u64);
	return hz > 0 ? (double)t[n / 2] * 1e9 / hz / (double)per : -1;
}

double lat_machine_first_touch_ns(void)
{
	volatile char *p = probe_map();
	uint64_t t[PROBE_PAGES], a;
	uint16_t cpu;
	size_t i;
	double ns;

	if (!p)
		return -1;
	for (i = 0; i < PROBE_PAGES; i++) {
		a = lat_tsc(&cpu);
		p[i * PROBE_PAGE] = 1;
		t[i] = lat_tsc(&cpu) - a;
	}
	ns = median_ns(t, PROBE_PAGES, 1);
	munmap((void *)p, PROBE_PAGES * PROBE_PAGE);
	return ns;
}

#define SYSCALL_BATCHES	21
#define SYSCALL_BATCH	100

double lat_machine_syscall_ns(void)
{
	uint64_t t[SYSCALL_BATCHES], a;
	uint16_t cpu;
	size_t i, k;

	for (i = 0; i < SYSCALL_BATCHES; i++) {
		a = lat_tsc(&cpu);
		for (k = 0; k < SYSCALL_BATCH; k++)
			syscall(SYS_getppid);
		t[i] = lat_tsc(&cpu) - a;
	}
	return median_ns(t, SYSCALL_BATCHES, SYSCALL_BATCH);
}

int lat_machine_pmu(void)
{
	return !access("/sys/bus/event_source/devices/cpu", F_OK) ||
	       !access("/sys/bus/event_source/devices/cpu_core", F_OK);
}

const char *lat_machine_cgroup(void)
{
	struct statfs s;

	if (statfs("/sys/fs/cgroup", &s))
		return "none";
	if (s.f_type == CGROUP2_SUPER_MAGIC)
		return "v2";
	if (!statfs("/sys/fs/cgroup/unified", &s) && s.f_type == CGROUP2_SUPER_MAGIC)
		return "hybrid";
	return s.f_type == TMPFS_MAGIC ? "v1" : "none";
}

void lat_machine_tsc_flags(char *buf, size_t len)
{
	static const char *const flags[] = { "constant_tsc", "nonstop_tsc", "tsc_known_freq",
					     "tsc_reliable", "rdtscp" };
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]) && used < len; i++)
		if (lat_sys_cpuflag(flags[i]))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
						 flags[i]);
}

int lat_machine_tsc_clock_ok(void)
{
	char avail[256] = "";

	if (lat_sys_line("/sys/devices/system/clocksource/clocksource0/available_clocksource",
			 avail, sizeof(avail)))
		return -1;
	return !!strstr(avail, "tsc");
}

void lat_machine_hypervisor(char *buf, size_t len)
{
	char sig[13], word[64];
	const char *name;

	buf[0] = '\0';
	if (hypervisor_sig(sig))
		return;
	name = lat_machine_vendor_kind(sig);
	if (!kernel_word(word, sizeof(word)))
		snprintf(buf, len, "%s", word);
	else if (name)
		snprintf(buf, len, "%.*s", (int)strcspn(name, " "), name);
	else
		snprintf(buf, len, "%s", sig);
}
