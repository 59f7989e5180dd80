# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# The file systems the tests and latctl need in a guest, mounted by the
# initramfs's /init (scripts/testbed/vm-init.sh, scripts/lava/lava-init.sh),
# which sources this file from /lib/guest-mounts.sh. $1: the host name.
mount_all() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mkdir -p /dev/pts /dev/shm
	mount -t devpts devpts /dev/pts
	mount -t tmpfs -o mode=1777 tmpfs /dev/shm
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
	mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null	# latctl --memcg
	ip link set lo up 2>/dev/null
	hostname "$1"
}
