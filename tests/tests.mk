# SPDX-License-Identifier: MIT
# Unit tests (cmocka, TAP) and command-line tests (TAP shell scripts).
UNIT_TESTS :=
CLI_TESTS :=
CHECK_BUILD :=

.PHONY: tests-clean
tests-clean:
