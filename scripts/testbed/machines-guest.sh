#!/bin/sh
# SPDX-License-Identifier: MIT
# In the test bed's guest (make check-machines): the host's own root file
# system (9p share "hostroot", read-only) becomes the root of a chroot with
# fresh /tmp, /run, /root and /var/tmp, the checkout (share "checkout")
# writable at its host path; then COMMAND runs there with bash, as root,
# in the checkout. The guest's kernel, CPUs and arguments are the test
# bed's; the programs, libraries and tests are the host's.
#   machines-guest.sh CHECKOUT COMMAND
set -e
CHECKOUT=$1
shift
R=/mnt/host
while read -r m; do
	insmod "/lib/modules/extra/$m"
done </lib/modules/extra.order
mkdir -p $R
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot $R
for d in tmp run root var/tmp; do
	mount -t tmpfs -o mode=1777 tmpfs "$R/$d"
done
chmod 0755 "$R/run"
chmod 0700 "$R/root"
mount -t 9p -o trans=virtio,version=9p2000.L,cache=none,msize=512000 checkout "$R$CHECKOUT"
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
ln -sf /proc/self/fd $R/dev/fd
ln -sf /proc/self/fd/0 $R/dev/stdin
ln -sf /proc/self/fd/1 $R/dev/stdout
ln -sf /proc/self/fd/2 $R/dev/stderr
mount -t devpts devpts $R/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $R/dev/shm
mount -t tracefs tracefs $R/sys/kernel/tracing 2>/dev/null || true
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null || true
mount -t cgroup2 cgroup2 $R/sys/fs/cgroup 2>/dev/null || true
mount -t bpf bpf $R/sys/fs/bpf 2>/dev/null || true
exec chroot $R /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root TERM=dumb LANG=C.UTF-8 LATCTL_PROGRESS=0 LATCTL_MACHINE_ARGS="$LATCTL_MACHINE_ARGS" \
	/bin/bash -c "cd '$CHECKOUT' && $*"
