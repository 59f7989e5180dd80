#!/bin/bash
# SPDX-License-Identifier: MIT
# The cost latmon's probes add to a 4 KiB page fault and to a huge-page
# fault.
#
#   tests/bench/bench-probe-cost.sh [--kernel 6.1|6.12|7.3] [--rounds R] [--pages N] [--huge M] [--syscall]
#
# --syscall: the syscall source's cost per system call instead (N getppid()
# calls, recorded with that source only; tests/bench/guest/bench-syscall.sh).
# Boots the test bed once (stock boot arguments unless LATCTL_VM_APPEND says
# otherwise) and runs tests/bench/guest/bench.sh there: the same fault-heavy programs
# with the module not loaded, loaded but stopped, recording with the four
# original sources and recording with all, interleaved; prints the p50 per
# fault of each and the ratios to "not loaded". Under TCG (no working KVM)
# cycles are emulated: compare the ratios only.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERIES=7.3 ROUNDS=5 PAGES=20000 HUGE=32 BENCH=bench.sh

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) SERIES=${2:?}; shift 2 ;;
	--rounds) ROUNDS=${2:?}; shift 2 ;;
	--pages) PAGES=${2:?}; shift 2 ;;
	--huge) HUGE=${2:?}; shift 2 ;;
	--syscall) BENCH=bench-syscall.sh; shift ;;
	*) echo "usage: $0 [--kernel 6.1|6.12|7.3] [--rounds R] [--pages N] [--huge M] [--syscall]" >&2; exit 2 ;;
	esac
done
make -s -C "$ROOT" vm-initramfs VM_KERNELS="$SERIES" >&2
exec "$ROOT/scripts/testbed/vm-run.sh" --kernel "$SERIES" --timeout 1800 --append "${LATCTL_VM_APPEND:-}" \
	-- "/tests/$BENCH" "$ROUNDS" "$PAGES" "$HUGE"
