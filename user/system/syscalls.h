/* SPDX-License-Identifier: MIT */
/*
 * Names of system calls in latmon's syscall records (x86-64 numbers; a
 * 32-bit call, LATMON_SYSCALL_F_COMPAT, is named by number only).
 */
#ifndef LATCTL_SYSCALLS_H
#define LATCTL_SYSCALLS_H

#include <stddef.h>
#include <stdint.h>

/* "munmap", or "syscall 123" / "ia32 syscall 5" written into buf. */
const char *lat_syscall_name(uint32_t nr, uint32_t flags, char *buf, size_t len);

#endif /* LATCTL_SYSCALLS_H */
