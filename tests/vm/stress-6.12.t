#!/bin/bash
# SPDX-License-Identifier: MIT
# The stress groups (tests/vm/s-*.sh) on Debian's 6.12 kernel, short: 10 race
# cycles with seed 4242 unless LATMON_STRESS_CYCLES / LATMON_STRESS_SEED say
# otherwise (make check-stress runs 100 with a fresh seed).
export LATMON_STRESS_CYCLES=${LATMON_STRESS_CYCLES:-10} LATMON_STRESS_SEED=${LATMON_STRESS_SEED:-4242}
exec "$(dirname "$0")/../../scripts/vm-test.sh" 6.12 s
