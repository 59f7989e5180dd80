// SPDX-License-Identifier: MIT
/*
 * The BPF backend of a latctl built without the BPF tool chain (bpf.mk:
 * no clang that targets BPF, no bpftool, no libbpf or no BTF to generate
 * vmlinux.h from). It records nothing; each entry point says why, so
 * `latctl backends`, `--backend bpf` and `latctl doctor` name the build.
 */
#include <errno.h>
#include <stdio.h>

#include "backend/bpf/latbpf_user.h"

#ifndef LATCTL_BPF_WHY
#define LATCTL_BPF_WHY "the BPF tool chain was missing"
#endif

#define NOT_BUILT "not built in (this latctl was built without it: " LATCTL_BPF_WHY ")"

const char *lat_bpf_missing(void)
{
	return NOT_BUILT;
}

const char *lat_bpf_blocker(char *buf, size_t len)
{
	(void)buf, (void)len;
	return NOT_BUILT;
}

void lat_bpf_prog_types(int *tracepoint, int *raw_tracepoint)
{
	*tracepoint = *raw_tracepoint = 0;
}

void lat_bpf_quiet(void)
{
}

int lat_bpf_new(struct lat_bpf **b, uint64_t ring_events, int syscalls)
{
	(void)ring_events, (void)syscalls;
	*b = NULL;
	fprintf(stderr, "latctl: the BPF backend is %s\n", NOT_BUILT);
	return -ENODEV;
}

int lat_bpf_start(struct lat_bpf *b, struct lat_evbuf *buf, int measured_cpu)
{
	(void)b, (void)buf, (void)measured_cpu;
	return -1;
}

const char *lat_bpf_error(const struct lat_bpf *b)
{
	(void)b;
	return NOT_BUILT;
}

void lat_bpf_stop(struct lat_bpf *b, struct lat_evbuf *buf, struct lat_run *run)
{
	(void)b, (void)buf, (void)run;
}

void lat_bpf_close(struct lat_bpf *b, struct lat_evbuf *buf)
{
	(void)b, (void)buf;
}

cJSON *lat_bpf_json(const struct lat_bpf *b, const struct lat_evbuf *buf)
{
	(void)b, (void)buf;
	return cJSON_CreateNull();
}
