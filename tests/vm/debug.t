#!/bin/bash
# SPDX-License-Identifier: MIT
# The VM suite and a short stress run (10 race cycles, seed 4242) on the
# KASAN/lockdep/kmemleak/UBSAN debug kernel: scripts/debug-kernel.sh --check
# t s. Skipped when that kernel is not built yet (make debug-kernel builds it
# once, about 20 minutes, in $LATCTL_CACHE, default /var/cache/latctl).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if ! "$ROOT/scripts/debug-kernel.sh" --cached; then
	echo "1..0 # SKIP the debug kernel is not built: run make debug-kernel once (~20 min), then make check runs it"
	exit 0
fi
export LATMON_STRESS_CYCLES=${LATMON_STRESS_CYCLES:-10} LATMON_STRESS_SEED=${LATMON_STRESS_SEED:-4242}
"$ROOT/scripts/debug-kernel.sh" --check t s && exit 0
echo "Bail out! kernel reports or failures on the debug kernel; see build/vm/debug/run.log"
exit 1
