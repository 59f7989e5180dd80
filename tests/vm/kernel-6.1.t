#!/bin/bash
# SPDX-License-Identifier: MIT
# The latmon VM test suite on Debian's 6.1 kernel, in QEMU.
exec "$(dirname "$0")/../../scripts/testbed/vm-test.sh" 6.1
