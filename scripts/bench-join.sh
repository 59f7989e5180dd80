#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmark of the join (user/join.c): a synthetic run of 4,000,000 samples
# and 1,000,000 latmon events, the figure quoted in the README.
#   scripts/bench-join.sh [SAMPLES [EVENTS]]
# Builds tests/bench/bench_join with the same flags as latctl, into build/.
set -eu
cd "$(dirname "$0")/.."
CC=${CC:-cc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
if ! cflags=$($PKG_CONFIG --cflags libcjson) || ! libs=$($PKG_CONFIG --libs libcjson); then
	echo "bench-join: libcjson not found by $PKG_CONFIG: run scripts/deps.sh" >&2
	exit 1
fi
mkdir -p build
# shellcheck disable=SC2086 # pkg-config output is a word list
$CC -O2 -g -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -Iuser $cflags \
	-o build/bench_join tests/bench/bench_join.c user/join.c user/json.c $libs
echo "bench-join: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
exec build/bench_join "$@"
