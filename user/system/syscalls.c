// SPDX-License-Identifier: MIT
/*
 * System-call names for latmon's syscall records: the calls a latency
 * report meets, by their x86-64 numbers from <sys/syscall.h>; the rest are
 * named by number.
 */
#include <stdio.h>
#include <sys/syscall.h>

#include "latmon.h"
#include "system/syscalls.h"

#define NAME(n)	[SYS_##n] = #n

static const char *const names[] = {
	NAME(read), NAME(write), NAME(open), NAME(close), NAME(stat),
	NAME(fstat), NAME(lstat), NAME(poll), NAME(lseek), NAME(mmap),
	NAME(mprotect), NAME(munmap), NAME(brk), NAME(rt_sigaction),
	NAME(rt_sigprocmask), NAME(ioctl), NAME(pread64), NAME(pwrite64),
	NAME(readv), NAME(writev), NAME(access), NAME(pipe), NAME(select),
	NAME(sched_yield), NAME(mremap), NAME(msync), NAME(mincore),
	NAME(madvise), NAME(shmget), NAME(shmat), NAME(dup), NAME(dup2),
	NAME(pause), NAME(nanosleep), NAME(getpid), NAME(sendfile),
	NAME(socket), NAME(connect), NAME(accept), NAME(sendto),
	NAME(recvfrom), NAME(sendmsg), NAME(recvmsg), NAME(shutdown),
	NAME(bind), NAME(listen), NAME(clone), NAME(fork), NAME(vfork),
	NAME(execve), NAME(exit), NAME(wait4), NAME(kill), NAME(uname),
	NAME(fcntl), NAME(flock), NAME(fsync), NAME(fdatasync), NAME(truncate),
	NAME(ftruncate), NAME(getdents), NAME(getcwd), NAME(chdir),
	NAME(rename), NAME(mkdir), NAME(rmdir), NAME(unlink), NAME(readlink),
	NAME(chmod), NAME(umask), NAME(gettimeofday), NAME(getrusage),
	NAME(sysinfo), NAME(getuid), NAME(getgid), NAME(geteuid),
	NAME(getegid), NAME(getppid), NAME(getpgrp), NAME(setsid),
	NAME(sigaltstack), NAME(prctl), NAME(arch_prctl), NAME(mlock),
	NAME(munlock), NAME(mlockall), NAME(munlockall), NAME(gettid),
	NAME(futex), NAME(sched_setaffinity), NAME(sched_getaffinity),
	NAME(getdents64), NAME(set_tid_address), NAME(clock_gettime),
	NAME(clock_nanosleep), NAME(exit_group), NAME(epoll_wait),
	NAME(epoll_ctl), NAME(tgkill), NAME(openat), NAME(mkdirat),
	NAME(newfstatat), NAME(unlinkat), NAME(readlinkat), NAME(ppoll),
	NAME(set_robust_list), NAME(get_robust_list), NAME(splice),
	NAME(move_pages), NAME(utimensat), NAME(epoll_pwait),
	NAME(timerfd_create), NAME(eventfd), NAME(fallocate),
	NAME(timerfd_settime), NAME(accept4), NAME(eventfd2),
	NAME(epoll_create1), NAME(dup3), NAME(pipe2), NAME(prlimit64),
	NAME(sched_getattr), NAME(sched_setattr), NAME(getrandom),
	NAME(memfd_create), NAME(membarrier), NAME(mlock2),
	NAME(copy_file_range), NAME(preadv2), NAME(pwritev2),
	NAME(pkey_mprotect), NAME(statx), NAME(io_uring_setup),
	NAME(io_uring_enter), NAME(clone3), NAME(close_range), NAME(openat2),
	NAME(process_madvise), NAME(process_mrelease), NAME(futex_waitv),
	NAME(set_mempolicy_home_node), NAME(mbind), NAME(set_mempolicy),
	NAME(get_mempolicy), NAME(migrate_pages), NAME(userfaultfd),
	NAME(rseq),
};

const char *lat_syscall_name(uint32_t nr, uint32_t flags, char *buf, size_t len)
{
	if (flags & LATMON_SYSCALL_F_COMPAT) {
		snprintf(buf, len, "ia32 syscall %u", nr);
		return buf;
	}
	if (nr < sizeof(names) / sizeof(names[0]) && names[nr])
		return names[nr];
	snprintf(buf, len, "syscall %u", nr);
	return buf;
}
