#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmark of the join (user/join/): a synthetic run of 4,000,000 samples
# and 1,000,000 latmon events, the figure quoted in the README.
#   tests/bench/bench-join.sh [SAMPLES [EVENTS]]
# Builds tests/bench/bench_join with the same flags as latctl, into build/.
set -eu
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
pkgs="libnl-genl-3.0 libcjson libbpf zlib"
if ! cflags=$($PKG_CONFIG --cflags $pkgs) || ! libs=$($PKG_CONFIG --libs $pkgs); then
	echo "bench-join: $pkgs not found by $PKG_CONFIG: run scripts/deps.sh" >&2
	exit 1
fi
# the join and what it calls, from latctl's objects (the unit tests' archive)
make -s tests/unit/test_liblatctl.a
mkdir -p build
# shellcheck disable=SC2086 # pkg-config output is a word list
$CC -O2 -g -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -Iuser -Itests/unit $cflags \
	-o build/bench_join tests/bench/bench_join.c tests/unit/test_liblatctl.a $libs -lm
echo "bench-join: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
exec build/bench_join "$@"
