#!/bin/bash
# SPDX-License-Identifier: MIT
# The stress groups (tests/vm/s-*.sh) on Debian's 7.3 kernel, the newest
# (make check runs them there only), short: 10 race cycles with seed 4242
# unless LATMON_STRESS_CYCLES / LATMON_STRESS_SEED say otherwise (make
# check-stress runs 100 with a fresh seed on every kernel).
export LATMON_STRESS_CYCLES=${LATMON_STRESS_CYCLES:-10} LATMON_STRESS_SEED=${LATMON_STRESS_SEED:-4242}
exec "$(dirname "$0")/../../scripts/testbed/vm-test.sh" 7.3 s
