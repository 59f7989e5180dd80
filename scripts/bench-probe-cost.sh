#!/bin/bash
# SPDX-License-Identifier: MIT
# The cost latmon's probes add to a 4 KiB page fault (issue 3's benchmark).
#
#   scripts/bench-probe-cost.sh [--kernel 6.1|6.12] [--rounds R] [--pages N] [--syscall]
#
# --syscall: the syscall source's cost per system call instead (N getppid()
# calls, recorded with that source only).
# Boots the test bed once and runs tests/vm/bench.sh there: the same
# fault-heavy program with the module not loaded, loaded but stopped, and
# recording, interleaved; prints the p50 per fault of each and the ratios to
# "not loaded". Under TCG (no working KVM) cycles are emulated: compare the
# ratios only.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SERIES=6.12 ROUNDS=5 PAGES=20000 KIND=fault

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) SERIES=${2:?}; shift 2 ;;
	--rounds) ROUNDS=${2:?}; shift 2 ;;
	--pages) PAGES=${2:?}; shift 2 ;;
	--syscall) KIND=syscall; shift ;;
	*) echo "usage: $0 [--kernel 6.1|6.12] [--rounds R] [--pages N] [--syscall]" >&2; exit 2 ;;
	esac
done
make -s -C "$ROOT" vm-initramfs VM_KERNELS="$SERIES" >&2
exec "$ROOT/scripts/vm-run.sh" --kernel "$SERIES" --timeout 1200 -- /tests/bench.sh "$ROUNDS" "$PAGES" "$KIND"
