/* SPDX-License-Identifier: MIT */
/*
 * Which event backends this kernel allows, and why not the others: latmon
 * (the module: loaded, or loadable by root) and the BPF backend (root, kernel
 * BTF, a tp_btf program that loads, the BPF ring buffer, task storage). One
 * call, one line; for `latctl run --backend auto`, `latctl backends` and
 * scripts/make-run.sh.
 */
#ifndef LATCTL_BACKEND_CAPS_H
#define LATCTL_BACKEND_CAPS_H

#include <stdbool.h>
#include <stddef.h>

struct lat_backend_caps {
	bool latmon_loaded;
	bool latmon_loadable;		/* not loaded, but nothing refuses it */
	char latmon_why[160];		/* why not, or how */
	bool bpf;
	char bpf_why[160];
};

void lat_backend_caps(struct lat_backend_caps *c);
/* Why this kernel refuses to load a module such as latmon (no module
 * support, loading disabled, a lockdown that refuses unsigned modules), or
 * NULL; who may load it (root) is the caller's question. */
const char *lat_modules_refused(void);
/* "backends: latmon: no (...); bpf: yes (...)" */
void lat_backend_caps_line(const struct lat_backend_caps *c, char *buf, size_t len);

#endif /* LATCTL_BACKEND_CAPS_H */
