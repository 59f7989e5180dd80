/* SPDX-License-Identifier: MIT */
/* Readers of sysfs, /proc and the kernel config (`latctl doctor`, run). */
#ifndef LATCTL_SYSINFO_H
#define LATCTL_SYSINFO_H

#include <stddef.h>

/* First line of a file, without the newline. 0 or -errno. */
int lat_sys_line(const char *path, char *buf, size_t len);
/* The [selected] word of a sysfs choice file ("always [madvise] never"),
 * or the whole line when it has no brackets. 0 or -errno. */
int lat_sys_selected(const char *path, char *buf, size_t len);
/* Kernel parameter NAME on /proc/cmdline: 1 and its value ("" if bare), or 0. */
int lat_sys_cmdline(const char *name, char *buf, size_t len);
/* CONFIG_X of the running kernel from /proc/config.gz or /boot/config-R
 * ($LATCTL_KCONFIG replaces both): 1 and the value ("y", "m", "\"..\""),
 * 0 when the file does not set it, -ENOENT when no config is readable. */
int lat_sys_kconfig(const char *name, char *buf, size_t len);
/* A "Key: N kB" value of /proc/meminfo ("MemAvailable"), or 0. */
unsigned long long lat_meminfo_kb(const char *key);
/* 1 if the first CPU in /proc/cpuinfo has this flag. */
int lat_sys_cpuflag(const char *flag);

#endif /* LATCTL_SYSINFO_H */
