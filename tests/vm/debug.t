#!/bin/bash
# SPDX-License-Identifier: MIT
# The VM suite and a short stress run (10 race cycles, seed 4242) on the
# KASAN/lockdep/kmemleak/UBSAN debug kernel: scripts/testbed/debug-kernel.sh --check
# t s. Under TCG that kernel runs the suite in about an hour, more than make
# check's budget, so make check runs it only with LATCTL_CHECK_DEBUG=1 (and
# the kernel built: make debug-kernel); make check-debug always runs it.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${LATCTL_CHECK_DEBUG:-0}" != 1 ]; then
	echo "1..0 # SKIP the debug-kernel run takes about an hour: make check-debug runs it (or LATCTL_CHECK_DEBUG=1 make check)"
	exit 0
fi
if ! "$ROOT/scripts/testbed/debug-kernel.sh" --cached; then
	echo "1..0 # SKIP the debug kernel is not built: run make debug-kernel once (~75 min here)"
	exit 0
fi
export LATMON_STRESS_CYCLES=${LATMON_STRESS_CYCLES:-10} LATMON_STRESS_SEED=${LATMON_STRESS_SEED:-4242}
"$ROOT/scripts/testbed/debug-kernel.sh" --check t s && exit 0
echo "Bail out! kernel reports or failures on the debug kernel; see build/vm/debug/run.log"
exit 1
