// SPDX-License-Identifier: MIT
/* What this kernel allows: latmon, BPF, both or neither (backend_caps.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "backend/backend_caps.h"

#define LOCKDOWN "/sys/kernel/security/lockdown"
#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

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

/* Load a two-instruction tp_btf program on sched_switch: -errno or 0. */
static int try_tp_btf(void)
{
	const struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int id, fd;

	if (!vmlinux)
		return -ENOENT;
	id = btf__find_by_name_kind(vmlinux, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	btf__free(vmlinux);
	if (id < 0)
		return -ENOENT;
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_RAW_TP,
		    .attach_btf_id = (unsigned int)id);
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "latctl_probe", "GPL", prog, 2, &o);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* Why the BPF backend cannot run here, or NULL. */
static const char *bpf_blocker(char *buf, size_t len)
{
	int err;

	if (geteuid())
		return "it needs root (CAP_BPF and CAP_PERFMON)";
	if (access(VMLINUX_BTF, R_OK))
		return "no kernel BTF (" VMLINUX_BTF "; CONFIG_DEBUG_INFO_BTF)";
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) != 1)
		return "no BPF ring buffer (Linux 5.8 or later)";
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) != 1)
		return "no BPF task storage (Linux 5.11 or later)";
	err = try_tp_btf();
	if (err) {
		snprintf(buf, len, "a tp_btf program does not load: %s", strerror(-err));
		return buf;
	}
	return NULL;
}

void lat_backend_caps(struct lat_backend_caps *c)
{
	char buf[96];
	const char *why;

	memset(c, 0, sizeof(*c));
	latmon_caps(c);
	why = bpf_blocker(buf, sizeof(buf));
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
