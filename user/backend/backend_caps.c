// SPDX-License-Identifier: MIT
/* What this kernel allows: latmon, BPF, both or neither (backend_caps.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend_caps.h"
#include "backend/bpf/latbpf_user.h"

#define LOCKDOWN "/sys/kernel/security/lockdown"

/* The first line of path into buf ("" if unreadable). */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f && fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

const char *lat_modules_refused(void)
{
	char v[16], lockdown[96];

	if (access("/proc/modules", F_OK))
		return "this kernel has no module support (no /proc/modules)";
	read_line("/proc/sys/kernel/modules_disabled", v, sizeof(v));
	if (!strcmp(v, "1"))
		return "module loading is disabled (kernel.modules_disabled = 1)";
	read_line(LOCKDOWN, lockdown, sizeof(lockdown));
	if (strstr(lockdown, "[integrity]") || strstr(lockdown, "[confidentiality]"))
		return "kernel lockdown refuses unsigned modules";
	return NULL;
}

static void latmon_caps(struct lat_backend_caps *c)
{
	const char *why;

	if (!access("/sys/module/latmon", F_OK)) {
		c->latmon_loaded = true;
		snprintf(c->latmon_why, sizeof(c->latmon_why), "loaded");
		return;
	}
	why = lat_modules_refused();
	if (!why && geteuid())
		why = "loading it needs root";
	c->latmon_loadable = !why;
	snprintf(c->latmon_why, sizeof(c->latmon_why), "not loaded; %s",
		 why ? why : "loadable: make load");
}

/* Whether the BPF backend can record here: its test loads a program (tens
 * of ms), and the answer holds for the process, so it is asked once. */
static const char *bpf_blocker(void)
{
	static char buf[96];
	static const char *why;
	static int asked;

	if (!asked++)
		why = lat_bpf_blocker(buf, sizeof(buf));
	return why;
}

void lat_backend_caps(struct lat_backend_caps *c)
{
	const char *why;

	memset(c, 0, sizeof(*c));
	latmon_caps(c);
	why = bpf_blocker();
	c->bpf = !why;
	snprintf(c->bpf_why, sizeof(c->bpf_why), "%s",
		 why ? why : "tp_btf tracepoints, ring buffer, kernel BTF");
}

void lat_backend_caps_line(const struct lat_backend_caps *c, char *buf, size_t len)
{
	snprintf(buf, len, "backends: latmon: %s (%s); bpf: %s (%s)",
		 c->latmon_loaded || c->latmon_loadable ? "yes" : "no", c->latmon_why,
		 c->bpf ? "yes" : "no", c->bpf_why);
}
