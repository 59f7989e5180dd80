#!/bin/bash
# SPDX-License-Identifier: MIT
# What each way of watching page faults adds to a 4 KiB fault, in one boot
# of the test bed: nothing / latmon recording / the BPF backend / bpftrace /
# the ftrace event / perf tracepoint sampling, interleaved, all timing the
# same program (tests/bench/guest/bench-backends.sh runs it in the guest).
#
#   tests/bench/bench-backends.sh [--kernel 6.1|6.12|7.3] [--rounds R] [--pages N] [--no-bpftrace]
#   tests/bench/bench-backends.sh --sources [--kernel K | --here] [--rounds R] [--pages N] [--huge M] [--calls C]
#
# --sources runs tests/bench/guest/bench-sources.sh instead: each latmon
# source alone and all together, beside the ftrace event and the BPF
# backend, per 4 KiB fault, 2 MiB fault and system call (no bpftrace).
# --here runs it on this machine instead of a test-bed guest, with
# module/latmon.ko built for the running kernel (real CPU figures where
# the kernel lets latmon load; elsewhere its modes are left out, saying so).
#
# The guest gets the test-bed initramfs plus a second archive with lmbpf
# (tests/bench/lmbpf.c: the BPF backend linked from latctl's objects),
# lmperf (tests/bench/lmperf.c) and Debian bookworm's bpftrace 0.17 with
# every library it needs (LLVM 14 and clang from this machine, the
# bpftrace and libbpfcc packages fetched once through the private apt tree
# into $LATMON_KERNEL_CACHE/bpftrace: about 200 MiB more in the guest's
# RAM). Under TCG (no working KVM) cycles are emulated: compare the ratios
# only.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERIES=7.3 ROUNDS=5 PAGES=20000 BPFTRACE=1 JOB=backends HUGE=16 CALLS=100000 HERE=0
BT_DEBS="bpftrace=0.17.0-1 libbpfcc=0.26.0+ds-1"
MULTIARCH=lib/x86_64-linux-gnu

usage() {
	echo "usage: $0 [--sources [--here]] [--kernel 6.1|6.12|7.3] [--rounds R] [--pages N] [--huge M] [--calls C] [--no-bpftrace]" >&2
	exit 2
}

# Copy executable $1 to $STAGE/usr/bin with the libraries ldd finds for it
# (LD_LIBRARY_PATH: the unpacked packages' ones, put in $STAGE/$MULTIARCH),
# executable like the loader among them must be.
put_program() {
	local lib
	install -D -m 0755 "$1" "$STAGE/usr/bin/$(basename "$1")"
	for lib in $(ldd "$1" | grep -o '/[^ ]*' || true); do
		case $lib in
		"$UNPACK"/*) install -D -m 0755 "$lib" "$STAGE/$MULTIARCH/$(basename "$lib")" ;;
		*) [ -e "$STAGE$lib" ] || install -D -m 0755 "$lib" "$STAGE$lib" ;;
		esac
	done
}

# lmbpf and lmperf, built like latctl.
build_programs() {
	local cflags=(-O2 -g -Wall -Wextra -std=gnu11 -D_GNU_SOURCE) pkgs=(libnl-genl-3.0 libcjson libbpf)
	make -s -C "$ROOT" all tests/unit/test_liblatctl.a >&2
	# shellcheck disable=SC2046 # pkg-config output is a word list
	cc "${cflags[@]}" -I"$ROOT/include" -I"$ROOT/user" $(pkg-config --cflags "${pkgs[@]}") \
		-o "$BUILD/lmbpf" "$ROOT/tests/bench/lmbpf.c" "$ROOT/tests/unit/test_liblatctl.a" \
		$(pkg-config --libs "${pkgs[@]}") -lm -pthread
	cc "${cflags[@]}" -o "$BUILD/lmperf" "$ROOT/tests/bench/lmperf.c"
}

# bpftrace and libbpfcc unpacked into $UNPACK (fetched once); 1 if not.
unpack_bpftrace() {
	local cache=${LATMON_KERNEL_CACHE:-$ROOT/.cache/kernels} d
	if ! ls "$cache"/bpftrace/bpftrace_*.deb >/dev/null 2>&1; then
		APTDIR=$cache/apt
		# shellcheck source=scripts/testbed/apt-private.sh
		. "$ROOT/scripts/testbed/apt-private.sh"
		mkdir -p "$cache/bpftrace"
		[ -f "$APTDIR/sources.list" ] || { apt_setup && apt_update; }
		# shellcheck disable=SC2086 # a word list of package=version
		(cd "$cache/bpftrace" && apt_private apt-get download $BT_DEBS >&2) ||
			{ echo "bench-backends: bpftrace not fetched: no bpftrace row" >&2; return 1; }
	fi
	for d in "$cache"/bpftrace/*.deb; do dpkg-deb -x "$d" "$UNPACK"; done
}

# tests/bench/hooks/lmhooks.ko built for kernel $1 of the test bed (or, with
# LATMON_VM_KDIR, another); its path, or nothing (saying why) if it does not build.
build_hooks() {
	"$ROOT/scripts/testbed/vm-module.sh" --extra "$ROOT/tests/bench/hooks" "$1" ||
		echo "bench-backends: lmhooks.ko does not build for $1: no hook rows" >&2
}

# The second archive: the programs above and the guest script.
extra_archive() {
	put_program "$BUILD/lmbpf"
	put_program "$BUILD/lmperf"
	if [ "$BPFTRACE" = 1 ] && unpack_bpftrace; then
		LD_LIBRARY_PATH=$UNPACK/usr/$MULTIARCH put_program "$UNPACK/usr/bin/bpftrace"
	fi
	install -D -m 0755 "$ROOT/tests/bench/guest/bench-$JOB.sh" "$STAGE/tests/bench-$JOB.sh"
	if [ "$JOB" = sources ]; then
		local ko
		ko=$(build_hooks "$SERIES")
		[ -z "$ko" ] || install -D -m 0644 "$ko" "$STAGE/lib/modules/lmhooks.ko"
	fi
	(cd "$STAGE" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 >"$BUILD/extra.cpio.gz"
}

# --sources --here: the per-source benchmark on this machine.
run_here() {
	[ "$(id -u)" = 0 ] || { echo "bench-backends: --here needs root (it loads latmon and sets THP)" >&2; exit 1; }
	make -s -C "$ROOT" vm-progs >&2
	build_programs
	make -s -C "$ROOT" module >&2 || echo "bench-backends: latmon not built for $(uname -r): its modes are left out" >&2
	local hooks=""
	[ ! -d "/lib/modules/$(uname -r)/build" ] ||
		hooks=$(LATMON_VM_KDIR=/lib/modules/$(uname -r)/build build_hooks here)
	PATH=$ROOT/tests/vm/bin:$BUILD:$PATH LATMON_KO=$ROOT/module/latmon.ko LATMON_VM_LIB=$ROOT/tests/vm/lib.sh \
		LMHOOKS_KO=${hooks:-none} \
		"$ROOT/tests/bench/guest/bench-sources.sh" "$ROUNDS" "$PAGES" "$HUGE" "$CALLS"
}

main() {
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) SERIES=${2:?}; shift 2 ;;
		--rounds) ROUNDS=${2:?}; shift 2 ;;
		--pages) PAGES=${2:?}; shift 2 ;;
		--no-bpftrace) BPFTRACE=0; shift ;;
		--sources) JOB=sources BPFTRACE=0; shift ;;
		--here) HERE=1; shift ;;
		--huge) HUGE=${2:?}; shift 2 ;;
		--calls) CALLS=${2:?}; shift 2 ;;
		*) usage ;;
		esac
	done
	[ "$HERE" = 0 ] || [ "$JOB" = sources ] || usage
	[ "$HERE" = 0 ] || SERIES=here
	BUILD=$ROOT/build/bench-$JOB/$SERIES
	mkdir -p "$BUILD"
	if [ "$HERE" = 1 ]; then
		run_here
		return
	fi
	STAGE=$(mktemp -d /tmp/bench-backends.XXXXXX) UNPACK=$STAGE.deb
	chmod 0755 "$STAGE"	# the archive's root directory
	trap 'rm -rf "$STAGE" "$UNPACK"' EXIT
	make -s -C "$ROOT" vm-initramfs VM_KERNELS="$SERIES" >&2
	build_programs
	extra_archive
	cat "$ROOT/build/vm/$SERIES/initramfs.cpio.gz" "$BUILD/extra.cpio.gz" >"$BUILD/initramfs.cpio.gz"
	"$ROOT/scripts/testbed/vm-run.sh" --kernel "$SERIES" --timeout 3600 --initramfs "$BUILD/initramfs.cpio.gz" \
		-- "/tests/bench-$JOB.sh" "$ROUNDS" "$PAGES" "$HUGE" "$CALLS"
}

main "$@"
