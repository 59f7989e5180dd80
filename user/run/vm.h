/* SPDX-License-Identifier: MIT */
/*
 * `latctl run ... --vm [--kernel SERIES]`: the same run inside the QEMU test
 * bed (scripts/testbed/vm-run.sh) on one of Debian's kernels, with latmon loaded
 * there; the guest's JSON result is copied back and rendered here.
 */
#ifndef LATCTL_VM_H
#define LATCTL_VM_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "run/opts.h"

/* The directory of the test bed's scripts: $LATCTL_SCRIPTS, else ../scripts
 * or ../lib/latctl/scripts from this executable. 0, or -ENOENT with the last
 * path tried in tried. */
int lat_vm_scripts_dir(char *dir, size_t len, char *tried, size_t tried_len);

/* Run `latctl run` with the options of o (parsed from argc/argv) in the VM.
 * Builds what is missing first. host_doc: the host's new result document,
 * whose command line replaces the guest's in the copied result. Returns the
 * guest's exit status (LAT_EXIT_*) or LAT_EXIT_FAIL when the VM itself
 * failed (one line says why). */
int lat_vm_run(const struct lat_opts *o, int argc, char **argv, const cJSON *host_doc);

#endif /* LATCTL_VM_H */
