#!/bin/bash
# SPDX-License-Identifier: MIT
# The ramdisk of the LAVA job for one test-bed kernel: the test bed's
# initramfs (latctl, latmon built for that kernel, busybox, bash) with
# scripts/lava/lava-init.sh as /init, the kernel's modules for LAVA's test
# disk (virtio_blk; ext4 and what it needs) and a mount that knows -L.
#
#   scripts/lava/lava-ramdisk.sh --kernel 6.12|7.3 [--out FILE] [--init FILE]
#
# --init FILE: another /init (tests/vm/fileio.t: the test bed's own,
# scripts/testbed/vm-init.sh, with the disk's modules beside it).
# Prints the path (default build/lava/KERNEL/ramdisk.cpio.gz).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${LATMON_KERNEL_CACHE:-$ROOT/.cache/kernels}
APTDIR=$CACHE/apt
# shellcheck source=scripts/testbed/apt-private.sh
. "$ROOT/scripts/testbed/apt-private.sh"
# LAVA's disk: a virtio drive holding an ext2 file system (the ext4 driver
# mounts it), with what they depend on; crc32c_generic where it is a module
# (jbd2's soft dependency before Linux 6.14), and virtio_pci, the drive's
# transport, where it is a module (Debian's 6.1).
KMODS="virtio_blk ext4"
OPTIONAL_KMODS="crc32c_generic virtio_pci"

die() { echo "lava-ramdisk: $*" >&2; exit 1; }

# The path of module $2 in the module tree $1 (compressed or not), or "".
find_kmod() {
	find "$1" \( -name "$2.ko" -o -name "$2.ko.xz" -o -name "$2.ko.zst" \) -print -quit
}

# Module $2 of tree $1 after what it depends on (modinfo), each once; the
# names done so far in SEEN.
add_kmod() {
	local f dep
	case " $SEEN " in *" $2 "*) return ;; esac
	SEEN="$SEEN $2"
	f=$(find_kmod "$1" "$2")
	[ -n "$f" ] || die "module $2 not found under $1"
	for dep in $(modinfo -F depends "$f" | tr ',' ' '); do
		add_kmod "$1" "$dep"
	done
	ORDER+=("$f")
}

# The module tree of release $2 for series $1: the kernel package's, or
# (Debian 7.x, whose image package holds no modules) linux-modules-KREL's,
# downloaded once into CACHE/SERIES/modules.
module_tree() {
	local series=$1 krel=$2 root=$CACHE/$1/root d
	for d in "$root/lib/modules/$krel" "$root/usr/lib/modules/$krel" \
		 "$CACHE/$series/modules/usr/lib/modules/$krel" "$CACHE/$series/modules/lib/modules/$krel"; do
		[ -d "$d/kernel" ] && { echo "$d"; return; }
	done
	mkdir -p "$CACHE/$series/modules.tmp"
	apt_setup
	apt_update
	(cd "$CACHE/$series/modules.tmp" && apt_private apt-get download "linux-modules-$krel" >/dev/null) ||
		die "cannot download linux-modules-$krel"
	dpkg-deb -x "$CACHE/$series/modules.tmp"/linux-modules-*.deb "$CACHE/$series/modules.tmp" &&
		rm -f "$CACHE/$series/modules.tmp"/*.deb &&
		rm -rf "$CACHE/$series/modules" && mv "$CACHE/$series/modules.tmp" "$CACHE/$series/modules"
	for d in "$CACHE/$series/modules/usr/lib/modules/$krel" "$CACHE/$series/modules/lib/modules/$krel"; do
		[ -d "$d/kernel" ] && { echo "$d"; return; }
	done
	die "no module tree for $krel in linux-modules-$krel"
}

main() {
	local series="" out="" init=$ROOT/scripts/lava/lava-init.sh kenv krel tree m args=()
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) series=${2:?}; shift 2 ;;
		--out) out=${2:?}; shift 2 ;;
		--init) init=${2:?}; shift 2 ;;
		*) echo "usage: $0 --kernel 6.12|7.3 [--out FILE] [--init FILE]" >&2; exit 2 ;;
		esac
	done
	[ -n "$series" ] || die "give --kernel"
	: "${out:=$ROOT/build/lava/$series/ramdisk.cpio.gz}"
	kenv=$("$ROOT/scripts/testbed/kernel-fetch.sh" --env "$series")
	krel=$(echo "$kenv" | sed -n 's/^KREL=//p')
	tree=$(module_tree "$series" "$krel")
	SEEN="" ORDER=()
	for m in $OPTIONAL_KMODS; do
		[ -n "$(find_kmod "$tree" "$m")" ] && add_kmod "$tree" "$m"
	done
	for m in $KMODS; do
		add_kmod "$tree" "$m"
	done
	for m in "${ORDER[@]}"; do
		args+=(--kmod "$m")
	done
	"$ROOT/scripts/testbed/vm-module.sh" "$series" >/dev/null
	mkdir -p "$(dirname "$out")"
	"$ROOT/scripts/testbed/vm-initramfs.sh" --kernel "$series" --init "$init" \
		"${args[@]}" --out "$out"
}

main "$@"
