#!/bin/bash
# SPDX-License-Identifier: MIT
# The ramdisk of the LAVA job for one test-bed kernel: the test bed's
# initramfs (latctl, latmon built for that kernel, busybox, bash) with
# scripts/lava/lava-init.sh as /init, the kernel's modules for LAVA's test
# disk (virtio_blk; ext4 and what it needs) and a mount that knows -L.
#
#   scripts/lava/lava-ramdisk.sh --kernel 6.12|7.3 [--out FILE]
#
# Prints the path (default build/lava/KERNEL/ramdisk.cpio.gz).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# LAVA's disk: a virtio drive holding an ext2 file system labelled LAVA.
KMODS="virtio_blk crc32c_generic crc16 mbcache jbd2 ext4"

die() { echo "lava-ramdisk: $*" >&2; exit 1; }

# The path of module $2 in the module tree $1 (compressed or not).
find_kmod() {
	local f
	f=$(find "$1" \( -name "$2.ko" -o -name "$2.ko.xz" -o -name "$2.ko.zst" \) -print -quit)
	[ -n "$f" ] || die "module $2 not found under $1"
	echo "$f"
}

main() {
	local series="" out="" kenv krel tree m args=()
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) series=${2:?}; shift 2 ;;
		--out) out=${2:?}; shift 2 ;;
		*) echo "usage: $0 --kernel 6.12|7.3 [--out FILE]" >&2; exit 2 ;;
		esac
	done
	[ -n "$series" ] || die "give --kernel"
	: "${out:=$ROOT/build/lava/$series/ramdisk.cpio.gz}"
	kenv=$("$ROOT/scripts/testbed/kernel-fetch.sh" --env "$series")
	krel=$(echo "$kenv" | sed -n 's/^KREL=//p')
	tree=$(echo "$kenv" | sed -n 's/^VMLINUZ=//p')
	tree=${tree%/boot/*}
	tree=${tree%/usr/lib/modules/*}/lib/modules/$krel
	[ -d "$tree" ] || tree=${tree%/lib/modules/*}/usr/lib/modules/$krel
	[ -d "$tree" ] || die "no module tree for $krel"
	for m in $KMODS; do
		args+=(--kmod "$(find_kmod "$tree" "$m")")
	done
	"$ROOT/scripts/testbed/vm-module.sh" "$series" >/dev/null
	mkdir -p "$(dirname "$out")"
	"$ROOT/scripts/testbed/vm-initramfs.sh" --kernel "$series" --init "$ROOT/scripts/lava/lava-init.sh" \
		"${args[@]}" --out "$out"
}

main "$@"
