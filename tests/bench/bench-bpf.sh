#!/bin/sh
# SPDX-License-Identifier: MIT
# Cost of the BPF backend per 4 KiB and per 2 MiB page fault on this machine
# at real speed (tests/bench/bench_bpf.c): nothing attached vs the backend
# recording, interleaved, pinned to CPU 1 (0 on a machine of one). Needs what the backend needs
# (root, kernel BTF); THP enabled must be always or madvise for the 2 MiB
# figure (the benchmark uses MADV_HUGEPAGE and changes no setting).
#   tests/bench/bench-bpf.sh [PAGES [HUGE [RUNS [fork]]]]   (defaults 50000 32 7;
#   fork: the pages touched by a forked child, a process the backend follows)
set -eu
cd "$(dirname "$0")/../.."
make -s all tests/unit/test_liblatctl.a
mkdir -p build
CC=${CC:-cc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
pkgs="libnl-genl-3.0 libcjson libbpf"
# shellcheck disable=SC2046 # pkg-config output is a word list
$CC -O2 -g -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -Iuser $($PKG_CONFIG --cflags $pkgs) \
	-o build/bench_bpf tests/bench/bench_bpf.c tests/unit/test_liblatctl.a \
	$($PKG_CONFIG --libs $pkgs) -lm
cpu=1
[ "$(nproc)" -gt 1 ] || cpu=0
echo "bench-bpf: $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), CPU $cpu, THP $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
exec taskset -c "$cpu" build/bench_bpf "$@"
