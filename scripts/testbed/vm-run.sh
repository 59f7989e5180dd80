#!/bin/bash
# SPDX-License-Identifier: MIT
# Boot a Debian kernel in QEMU and run one command inside it.
#
#   scripts/testbed/vm-run.sh --kernel 6.1|6.12|7.3|7.3-rt [options] -- COMMAND [ARG...]
#
# The command runs as root in the test-bed initramfs (scripts/testbed/vm-initramfs.sh)
# with cwd /root. Its stdout and stderr come back on this script's stdout and
# its exit status becomes this script's exit status. Files the command writes
# into $LATMON_VM_OUT (/out) are copied back into --out-dir. Exit 124 on
# timeout, 125 when the guest died without reporting a status.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=$ROOT/.cache/vm

usage() {
	cat >&2 <<-EOF
	usage: $0 --kernel 6.1|6.12|7.3|7.3-rt [options] -- COMMAND [ARG...]
	  --accel kvm|tcg|auto   accelerator (default auto: KVM only if it boots)
	  --append ARGS          more kernel arguments (default none: Debian's stock boot)
	  --console FILE         keep the guest kernel log (ttyS0) in FILE
	  --control FIFO         a line "INT" written to FIFO Ctrl-C's the guest's
	                         latctl (its ttyS2, watched by vm-init.sh)
	  --cpus N               guest CPUs (default 2)
	  --disk IMAGE           a raw disk image as a virtio drive (repeatable:
	                         /dev/vda, /dev/vdb, ...; its driver must be loaded)
	  --in FILE              copy FILE into the guest's /in (repeatable)
	  --initramfs FILE       initramfs (default build/vm/SERIES/initramfs.cpio.gz)
	  --memory SIZE          guest memory (default 2G)
	  --out-dir DIR          where files from the guest's /out go (default .)
	  --share DIR:TAG[:ro]   DIR as the guest's 9p share TAG (read-only with :ro;
	                         repeatable): mount -t 9p -o trans=virtio TAG
	  --timeout SECONDS      kill the guest after this long (default 600)
	  --vmlinuz FILE         boot this kernel image instead of Debian's SERIES
	example: $0 --kernel 7.3 -- sh -c 'insmod /lib/modules/latmon.ko && lsmod'
	EOF
	exit 2
}

die() { echo "vm-run: $*" >&2; exit 125; }

# Write a cpio with /run/cmd (the quoted command) and the --in files.
make_run_cpio() {
	local dir=$1 out=$2 f
	shift 2
	mkdir -p "$dir/run" "$dir/in"
	printf '%q ' "${CMD[@]}" >"$dir/run/cmd"
	echo >>"$dir/run/cmd"
	for f in "${IN_FILES[@]}"; do
		cp "$f" "$dir/in/" || die "cannot copy --in file $f"
	done
	(cd "$dir" && find run in -print0 | cpio --null -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$out"
}

# Print "kvm" if a KVM guest boots and reports back here, else "tcg".
# The verdict is cached per host kernel and QEMU version.
probe_accel() {
	local key verdict
	key="$(uname -r) $(qemu-system-x86_64 --version | head -n1)"
	mkdir -p "$CACHE"
	if [ -f "$CACHE/kvm-verdict" ] && [ "$(head -n1 "$CACHE/kvm-verdict")" = "$key" ]; then
		sed -n 2p "$CACHE/kvm-verdict"
		return
	fi
	verdict=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
		"$0" --kernel "$SERIES" --vmlinuz "$VMLINUZ" --initramfs "$INITRAMFS" \
			--accel kvm --timeout 20 -- true >/dev/null 2>&1; then
		verdict=kvm
	fi
	printf '%s\n%s\n' "$key" "$verdict" >"$CACHE/kvm-verdict.$$"
	mv "$CACHE/kvm-verdict.$$" "$CACHE/kvm-verdict"
	echo "$verdict"
}

# Relay the guest's ttyS1: print output, decode files, remember the status.
relay() {
	local live=()
	# mawk reads its input in blocks: -W interactive makes it line by line,
	# so that the guest's lines arrive as they are written
	awk -W version 2>&1 | grep -q mawk && live=(-W interactive)
	awk "${live[@]}" -v outdir="$OUT_DIR" -v statfile="$1" '
	function flush_blanks() { while (blanks > 0) { print ""; blanks-- } }
	{ sub(/\r$/, "") }
	infile && $0 == "@@LATMON-VM-FILE-END" { close(cmd); infile = 0; next }
	infile { print | cmd; next }
	(i = index($0, "@@LATMON-VM-FILE ")) > 0 {
		if (i > 1) { flush_blanks(); print substr($0, 1, i - 1) }
		name = substr($0, i + 17); gsub(/[^A-Za-z0-9._-]/, "_", name)
		cmd = "base64 -d > \"" outdir "/" name "\""; infile = 1; next
	}
	(i = index($0, "@@LATMON-VM-EXIT ")) > 0 {
		if (i > 1) { flush_blanks(); print substr($0, 1, i - 1) }
		else if (blanks > 0) blanks--
		flush_blanks(); print substr($0, i + 17) > statfile; fflush(); next
	}
	$0 == "" { blanks++; next }
	{ flush_blanks(); print; fflush() }
	END { flush_blanks() }'
}

# The host's TSC in kHz: the kernel's own figure (sysfs, else its boot
# log), or nothing. Under TCG the guest's TSC is the host's, but a guest
# kernel calibrates it against the emulated PIT and HPET, which a busy host
# slows: beside two busy loops and three VMs one calibrated 0.14 GHz of a
# 2.6 GHz TSC, and every iteration it timed was 18 times too long.
host_tsc_khz() {
	local f=/sys/devices/system/cpu/cpu0/tsc_freq_khz mhz
	if [ -r "$f" ]; then
		cat "$f"
		return
	fi
	mhz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p
		s/.*tsc: Detected \([0-9.]*\) MHz.*/\1/p' | tail -n 1)
	[ -n "$mhz" ] && awk -v m="$mhz" 'BEGIN { printf "%d\n", m * 1000 + 0.5 }'
}

# Boot the guest; stdout of this function is the guest's ttyS1.
boot() {
	local accel=$1 initrd=$2 console=$3 cpu=max
	[ "$accel" = kvm ] && cpu=host
	# Multi-threaded TCG does not keep the guest's live text patching (kprobe
	# and jump-label arming) coherent across vCPUs: oopses at the patched
	# sites. One host thread for all vCPUs is slower but exact.
	[ "$accel" = tcg ] && accel=tcg,thread=single
	local khz tsc=
	khz=$([ "$accel" != kvm ] && host_tsc_khz)
	# the host's figure, unless the caller gave one
	[ -n "$khz" ] && [[ " $APPEND" != *" tsc_early_khz="* ]] && tsc="tsc_early_khz=$khz"
	local control=() uarts=2 shares=() disks=() s dir tag ro
	for s in "${SHARES[@]}"; do
		IFS=: read -r dir tag ro <<<"$s"
		shares+=(-virtfs "local,path=$dir,mount_tag=$tag,security_model=none,multidevs=remap,id=$tag${ro:+,readonly=on}")
	done
	for s in "${DISKS[@]}"; do
		disks+=(-drive "file=$s,if=virtio,format=raw")
	done
	# --control: the FIFO is the guest's ttyS2, which vm-init.sh watches
	if [ -n "$CONTROL" ]; then
		control=(-chardev "pipe,id=ctl,path=$CONTROL" -serial chardev:ctl)
		uarts=3
	fi
	timeout --foreground -k 5 "$TIMEOUT" qemu-system-x86_64 \
		-accel "$accel" -cpu "$cpu" -m "$MEMORY" -smp "$CPUS" \
		-nodefaults -no-user-config -display none -monitor none -no-reboot \
		-kernel "$VMLINUZ" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic quiet loglevel=4 8250.nr_uarts=$uarts $tsc $APPEND" \
		-serial "file:$console" \
		-chardev stdio,id=out,signal=off -serial chardev:out \
		"${control[@]}" "${shares[@]}" "${disks[@]}" \
		</dev/null
}

main() {
	SERIES="" ACCEL=auto TIMEOUT=600 MEMORY=2G CPUS=2 OUT_DIR=. CONSOLE="" INITRAMFS=""
	VMLINUZ="" APPEND="" CONTROL=""
	IN_FILES=() SHARES=() DISKS=()
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) SERIES=${2:?}; shift 2 ;;
		--accel) ACCEL=${2:?}; shift 2 ;;
		--append) APPEND=${2?}; shift 2 ;;
		--console) CONSOLE=${2:?}; shift 2 ;;
		--control) CONTROL=${2:?}; shift 2 ;;
		--cpus) CPUS=${2:?}; shift 2 ;;
		--disk) DISKS+=("${2:?}"); shift 2 ;;
		--in) IN_FILES+=("${2:?}"); shift 2 ;;
		--initramfs) INITRAMFS=${2:?}; shift 2 ;;
		--memory) MEMORY=${2:?}; shift 2 ;;
		--out-dir) OUT_DIR=${2:?}; shift 2 ;;
		--share) SHARES+=("${2:?}"); shift 2 ;;
		--timeout) TIMEOUT=${2:?}; shift 2 ;;
		--vmlinuz) VMLINUZ=${2:?}; shift 2 ;;
		--) shift; break ;;
		*) usage ;;
		esac
	done
	[ -n "$SERIES" ] && [ $# -gt 0 ] || usage
	CMD=("$@")
	if [ -z "$VMLINUZ" ]; then
		VMLINUZ=$("$ROOT/scripts/testbed/kernel-fetch.sh" --image "$SERIES") || exit 125
	fi
	: "${INITRAMFS:=$ROOT/build/vm/$SERIES/initramfs.cpio.gz}"
	[ -f "$INITRAMFS" ] || die "$INITRAMFS missing: run 'make vm-initramfs'"
	mkdir -p "$OUT_DIR"
	[ "$ACCEL" = auto ] && ACCEL=$(probe_accel)
	run "$@"
}

# Build the per-run initrd, boot, relay, and exit with the guest's status.
run() {
	local status rc
	TMP=$(mktemp -d /tmp/latmon-vm.XXXXXX)
	local tmp=$TMP
	trap 'rm -rf "$TMP"' EXIT
	make_run_cpio "$tmp/cpio" "$tmp/run.cpio.gz"
	cat "$INITRAMFS" "$tmp/run.cpio.gz" >"$tmp/initrd"
	: >"$tmp/status"
	set +e
	boot "$ACCEL" "$tmp/initrd" "${CONSOLE:-$tmp/console}" | relay "$tmp/status"
	rc=${PIPESTATUS[0]}
	set -e
	status=$(cat "$tmp/status")
	if [ -n "$status" ]; then
		exit "$status"
	fi
	[ "$rc" = 124 ] && echo "vm-run: guest timed out after ${TIMEOUT}s ($ACCEL)" >&2
	[ "$rc" != 124 ] && echo "vm-run: guest died without an exit status (qemu rc $rc)" >&2
	echo "vm-run: last lines of the guest console:" >&2
	tail -n 20 "${CONSOLE:-$tmp/console}" >&2
	[ "$rc" = 124 ] && exit 124
	exit 125
}

main "$@"
