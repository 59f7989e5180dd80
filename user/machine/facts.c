// SPDX-License-Identifier: MIT
/* The machine, described once (facts.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend_caps.h"
#include "machine/facts.h"
#include "lib/fmt.h"
#include "machine/machine.h"
#include "settings/setting.h"
#include "system/sysinfo.h"
#include "system/thp_size.h"

/* "2048kB" (the PMD size), or every per-size THP size, or "none". */
static void thp_sizes(char *buf, size_t len)
{
	unsigned int kb[32];
	int n = lat_thp_sizes(kb, 32), i;
	size_t used = 0;
	char pmd[32], path[PATH_MAX];

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%ukB", i ? " " : "", kb[i]);
	if (n > 0)
		return;
	snprintf(path, sizeof(path), "%s/hpage_pmd_size", lat_thp_dir());
	if (!lat_sys_line(path, pmd, sizeof(pmd)))
		snprintf(buf, len, "%llukB", strtoull(pmd, NULL, 10) / 1024);
	else
		snprintf(buf, len, "none");
}

void lat_facts_read(struct lat_facts *f)
{
	struct lat_backend_caps caps;
	const char *why;

	memset(f, 0, sizeof(*f));
	lat_machine_kind(f->kind, sizeof(f->kind));
	lat_machine_hypervisor(f->hypervisor, sizeof(f->hypervisor));
	f->zero_page = lat_machine_zero_page();
	if (lat_machine_clocksource(f->clocksource, sizeof(f->clocksource)))
		snprintf(f->clocksource, sizeof(f->clocksource), "unknown");
	lat_machine_tsc_flags(f->tsc_flags, sizeof(f->tsc_flags));
	f->tsc_offered = lat_machine_tsc_clock_ok();
	f->first_touch_ns = lat_machine_first_touch_ns();
	f->syscall_ns = lat_machine_syscall_ns();
	f->pmu = lat_machine_pmu();
	thp_sizes(f->thp_sizes, sizeof(f->thp_sizes));
	f->cgroup = lat_machine_cgroup();
	lat_backend_caps(&caps);
	snprintf(f->bpf, sizeof(f->bpf), "%s", caps.bpf ? "usable" : caps.bpf_why);
	why = lat_modules_refused();
	snprintf(f->modules, sizeof(f->modules), "%s", why ? why : "allowed");
}

static void add_tristate(cJSON *o, const char *key, int v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddBoolToObject(o, key, v);
}

static void add_ns(cJSON *o, const char *key, double ns)
{
	if (ns < 0)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, (double)(long long)(ns + 0.5));
}

cJSON *lat_facts_json(const struct lat_facts *f)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "kind", f->kind);
	if (*f->hypervisor)
		cJSON_AddStringToObject(o, "hypervisor", f->hypervisor);
	else
		cJSON_AddNullToObject(o, "hypervisor");
	add_tristate(o, "zero_page", f->zero_page);
	cJSON_AddStringToObject(o, "clocksource", f->clocksource);
	cJSON_AddStringToObject(o, "tsc_flags", f->tsc_flags);
	add_tristate(o, "tsc_clock_offered", f->tsc_offered);
	add_ns(o, "first_touch_ns", f->first_touch_ns);
	add_ns(o, "syscall_ns", f->syscall_ns);
	cJSON_AddBoolToObject(o, "pmu", f->pmu);
	cJSON_AddStringToObject(o, "thp_sizes", f->thp_sizes);
	cJSON_AddStringToObject(o, "cgroup", f->cgroup);
	cJSON_AddStringToObject(o, "bpf", f->bpf);
	cJSON_AddStringToObject(o, "modules", f->modules);
	return o;
}

static const char *yes_no(int v, const char *yes, const char *no)
{
	return v < 0 ? "unknown" : v ? yes : no;
}

void lat_facts_print(FILE *out, const struct lat_facts *f, const char *indent)
{
	char a[32], b[32];

	fprintf(out, "%smachine        %s\n", indent, f->kind);
	fprintf(out, "%sclock          %s (%s); TSC flags: %s\n", indent, f->clocksource,
		yes_no(f->tsc_offered, "the TSC is a clock source too",
		       "the kernel does not offer the TSC as a clock source"),
		*f->tsc_flags ? f->tsc_flags : "none");
	fprintf(out, "%szero page      %s\n", indent,
		yes_no(f->zero_page, "yes: a read of fresh memory maps the shared zero page",
		       "no: a read of fresh memory maps a page of its own"));
	fprintf(out, "%sfirst touch    %s per fresh 4 KiB page (median of 256); a system call %s\n",
		indent,
		f->first_touch_ns < 0 ? "unknown" : lat_fmt_time(a, sizeof(a), f->first_touch_ns),
		f->syscall_ns < 0 ? "unknown" : lat_fmt_time(b, sizeof(b), f->syscall_ns));
	fprintf(out, "%sPMU            %s\n", indent,
		f->pmu ? "yes" :
			 "none (no CPU counters: a program's own work is not told from the rest)");
	fprintf(out, "%smemory         THP sizes %s; cgroup %s\n", indent, f->thp_sizes, f->cgroup);
	fprintf(out, "%sBPF            %s\n", indent, f->bpf);
	fprintf(out, "%smodules        %s\n", indent, f->modules);
}
