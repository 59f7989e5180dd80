#!/bin/bash
# SPDX-License-Identifier: MIT
# Build module/latmon.ko against one Debian kernel of the test bed.
#
#   scripts/testbed/vm-module.sh 6.1|6.12|7.3|7.3-rt
#   LATMON_VM_KDIR=/path/to/build scripts/testbed/vm-module.sh NAME   (another kernel)
#   scripts/testbed/vm-module.sh --extra DIR SERIES|NAME   (another module: DIR's Kbuild
#                                  and sources, e.g. tests/bench/hooks; build/vm/SERIES/BASENAME/)
#
# Kernels whose kbuild tools need trixie's user space (TOOLCHAIN=trixie in
# scripts/testbed/kernel-fetch.sh --env: Debian 7.x) are built inside the chroot of
# scripts/testbed/chroot.sh trixie, with the kernel tree and the build directory
# bind-mounted at their own paths.
# The sources (Kbuild, module/, include/) are mirrored into
# build/vm/SERIES/src so that the two kernels' objects never clobber each
# other nor a `make module` in the checkout. Prints the path of the .ko,
# build/vm/SERIES/latmon.ko.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)

die() { echo "vm-module: $*" >&2; exit 1; }

# Copy the module's sources into $1, only files that changed (keeps make's
# timestamps useful), and drop sources that no longer exist. The names are
# taken in $ROOT, wherever this runs from (a bisect runs it in a Linux tree).
mirror() {
	local dst=$1 f
	mkdir -p "$dst/module/sources" "$dst/include"
	for f in "$ROOT"/Kbuild "$ROOT"/module/Kbuild "$ROOT"/module/*.[ch] "$ROOT"/module/sources/*.[ch] "$ROOT"/include/*.h; do
		f=${f#"$ROOT"/}
		[ -f "$ROOT/$f" ] || continue
		case $f in *.mod.c | include/latctl.h) continue ;; esac	# a build's; not the module's
		cmp -s "$ROOT/$f" "$dst/$f" || cp "$ROOT/$f" "$dst/$f"
	done
	for f in "$dst"/module/*.[ch] "$dst"/module/sources/*.[ch] "$dst"/include/*.h; do
		[ -f "$f" ] || continue
		case $f in *.mod.c) continue ;; esac
		[ -f "$ROOT/${f#"$dst"/}" ] || rm -f "$f" "${f%.c}.o"
	done
}

# make modules against $1 in $2 on the host, or for TOOLCHAIN=trixie ($3)
# in the trixie chroot; its output into $4.
build() {
	local kdir=$1 src=$2 toolchain=$3 log=$4
	case $toolchain in
	host) make -s -C "$kdir" M="$src" modules >"$log" 2>&1 ;;
	trixie) "$ROOT/scripts/testbed/chroot.sh" trixie --run "${kdir%/usr/src/*}" "$src" -- \
		make -s -C "$kdir" M="$src" modules >"$log" 2>&1 ;;
	*) die "unknown TOOLCHAIN=$toolchain of $kdir" ;;
	esac
}

# --extra DIR: the module of DIR (its Kbuild and .c files) into $1/NAME.ko,
# where NAME is the module Kbuild names; prints that path.
build_extra() {
	local out=$1 dir=$2 kdir=$3 name
	name=$(sed -n 's/^obj-m := \(.*\)\.o$/\1/p' "$dir/Kbuild")
	[ -n "$name" ] || die "$dir/Kbuild names no obj-m"
	mkdir -p "$out/src"
	cp "$dir"/Kbuild "$dir"/*.c "$out/src/"
	if ! build "$kdir" "$out/src" "${TOOLCHAIN:-host}" "$out/build.log"; then
		cat "$out/build.log" >&2
		die "$name.ko does not build against $kdir"
	fi
	cp "$out/src/$name.ko" "$out/$name.ko"
	echo "$out/$name.ko"
}

main() {
	local series kdir out env KDIR="" TOOLCHAIN=host extra=""
	if [ "${1:-}" = --extra ]; then
		extra=${2:?--extra DIR}
		shift 2
	fi
	series=${1:-}
	[ -n "$series" ] || { echo "usage: $0 [--extra DIR] 6.1|6.12|7.3|7.3-rt" >&2; exit 2; }
	kdir=${LATMON_VM_KDIR:-}
	if [ -z "$kdir" ]; then
		env=$("$ROOT/scripts/testbed/kernel-fetch.sh" --env "$series") || exit 1
		eval "$env"	# KDIR VMLINUZ KREL TOOLCHAIN
		kdir=$KDIR
	fi
	out=$ROOT/build/vm/$series
	mkdir -p "$out"
	# One build per kernel at a time (several make checks may share a checkout).
	exec 9>"$out/.lock"
	flock 9
	if [ -n "$extra" ]; then
		build_extra "$out/$(basename "$extra")" "$extra" "$kdir"
		return
	fi
	mirror "$out/src"
	if ! build "$kdir" "$out/src" "${TOOLCHAIN:-host}" "$out/build.log"; then
		cat "$out/build.log" >&2
		die "latmon.ko does not build against $series ($kdir)"
	fi
	grep -i 'warning' "$out/build.log" >&2 || true
	cp "$out/src/module/latmon.ko" "$out/latmon.ko.tmp"
	mv "$out/latmon.ko.tmp" "$out/latmon.ko"
	echo "$out/latmon.ko"
}

main "$@"
