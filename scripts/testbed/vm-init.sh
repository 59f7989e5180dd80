#!/bin/sh
# SPDX-License-Identifier: MIT
# /init of the latmon QEMU test bed (installed by scripts/testbed/vm-initramfs.sh).
# Mounts the pseudo file systems, runs /run/cmd (added per run by
# scripts/testbed/vm-run.sh) with its output on /dev/ttyS1, sends back the files the
# command left in /out as base64 between marker lines, then the exit status,
# and powers off. The kernel log stays on the console, ttyS0.

OUT=/dev/ttyS1
export PATH=/usr/bin:/usr/sbin:/bin:/sbin HOME=/root TERM=dumb
export LATMON_VM=1 LATMON_VM_OUT=/out LATMON_VM_IN=/in
# ttyS1 is a terminal, but what latctl writes there is relayed to files on
# the host: no progress lines in the guest (the host shows its own)
export LATCTL_PROGRESS=0

# mount_all HOSTNAME: the file systems the tests and latctl need.
. /lib/guest-mounts.sh

# Ctrl-C on the host (vm-run.sh --control): the first line "INT" on ttyS2
# sends SIGINT to the first latctl, as a terminal would (a --repeat parent
# passes it on to its run). The host repeats "INT" until the VM ends, as
# what arrives before this port is open is lost: the repeats are ignored.
watch_control() {
	[ -c /dev/ttyS2 ] || return 0
	stty -F /dev/ttyS2 raw -echo 2>/dev/null
	delivered=""
	while read -r word; do
		[ "$word" = INT ] && [ -z "$delivered" ] || continue
		delivered=1
		n=0	# latctl may not have started yet
		while pid=$(pidof latctl | tr ' ' '\n' | sort -n | head -n 1) &&
			[ -z "$pid" ] && [ $n -lt 600 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		[ -n "$pid" ] && kill -INT "$pid"
	done </dev/ttyS2 &
}

# Send each file of /out as "@@LATMON-VM-FILE name", base64, "@@LATMON-VM-FILE-END".
send_files() {
	for f in /out/*; do
		[ -f "$f" ] || continue
		echo "@@LATMON-VM-FILE ${f#/out/}"
		base64 "$f"
		echo "@@LATMON-VM-FILE-END"
	done
}

mount_all latmon-vm
stty -F "$OUT" raw -echo 2>/dev/null
watch_control
if [ -f /run/cmd ]; then
	(cd /root && exec sh /run/cmd) >"$OUT" 2>&1 </dev/null
	status=$?
else
	echo "vm-init: /run/cmd missing (boot through scripts/testbed/vm-run.sh)" >"$OUT"
	status=127
fi
send_files >"$OUT"
printf '\n@@LATMON-VM-EXIT %d\n' "$status" >"$OUT"
# tcsetattr(TCSADRAIN): wait until the UART has sent everything.
stty -F "$OUT" raw
sync
poweroff -f
