#!/bin/bash
# SPDX-License-Identifier: MIT
# One boot of Debian's 7.3 PREEMPT_RT kernel in QEMU: the short groups
# tests/vm/r-*.sh (module, sources, no THP, threaded interrupts).
exec "$(dirname "$0")/../../scripts/testbed/vm-test.sh" 7.3-rt r
