#!/bin/bash
# SPDX-License-Identifier: MIT
# The latmon VM test suite on Debian's 7.3 kernel (trixie-backports), in QEMU.
exec "$(dirname "$0")/../../scripts/testbed/vm-test.sh" 7.3
