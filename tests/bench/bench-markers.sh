#!/bin/sh
# SPDX-License-Identifier: MIT
# The cost of a latctl_begin()/latctl_end() pair, outside latctl and with a
# ring, against latctl's clock floor, in one process (tests/BENCHMARKS.md).
#   tests/bench/bench-markers.sh [PAIRS [ROUNDS]]
# Builds tests/bench/bench_markers against this tree's liblatctl, into build/.
set -eu
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
make -s markers
mkdir -p build
$CC -O2 -g -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -o build/bench_markers \
	tests/bench/bench_markers.c -Luser/markers -llatctl -Wl,-rpath,"$PWD/user/markers"
echo "bench-markers: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
unset LATCTL_RING
exec build/bench_markers "$@"
