#!/bin/sh
# SPDX-License-Identifier: MIT
# What a page fault costs user space on this machine, by kind, without any
# tracing (tests/bench/bench_faults.c), pinned to CPU 1 (CPU 0 on a machine
# of one CPU). Runs as any user; changes no setting.
#   tests/bench/bench-faults.sh [PAGES]      (default 100000)
set -eu
cd "$(dirname "$0")/../.."
make -s tests/unit/test_liblatctl.a
mkdir -p build
CC=${CC:-cc}
$CC -O2 -g -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -Iuser \
	-o build/bench_faults tests/bench/bench_faults.c tests/unit/test_liblatctl.a -lm
cpu=1
[ "$(nproc)" -gt 1 ] || cpu=0
echo "bench-faults: $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), CPU $cpu"
exec taskset -c "$cpu" build/bench_faults "$@"
