// SPDX-License-Identifier: MIT
/* Whether this kernel lets the BPF backend's programs load (latbpf_user.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "backend/bpf/latbpf_user.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

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

const char *lat_bpf_blocker(char *buf, size_t len)
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

void lat_bpf_prog_types(int *tracepoint, int *raw_tracepoint)
{
	*tracepoint = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_TRACEPOINT, NULL) == 1;
	*raw_tracepoint = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL) == 1;
}

static int print_nothing(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

void lat_bpf_quiet(void)
{
	libbpf_set_print(print_nothing);
}

const char *lat_bpf_missing(void)
{
	return NULL;
}
