#!/bin/bash
# SPDX-License-Identifier: MIT
# No test asserts a literal p-value, percentile or share of a real run: an
# expected output with one must say that its input is made for the test
# (scripts/dev/stat-literals.pl), and the lint itself catches one that
# does not.
. "$(dirname "$0")/engine.sh"

LINT=$TESTS_DIR/scripts/dev/stat-literals.pl
check "the command-line tests hold no literal statistic of a real run" \
	"$LINT $TESTS_DIR/tests/cli/*.t" 0 '^$'
cat > "$TMPD/real.t" <<'T'
$L run grow --repeat 5 --json a.json
check "p of real runs" "$L check --baseline a.json b.json" 1 'p=0\.008, n=5\+5'
check "a share of a real run" "$L report a.json" 0 'fault +[0-9]+ +[0-9]+ +43\.2%'
# synthetic: p50 of 1000..1004 ns against 1100..1104 ns
check "made for the test" "$L compare a.json b.json" 0 '\+10\.0% +0\.008 +5\+5$'
T
check "a literal p-value of real runs is caught" "$LINT $TMPD/real.t" 1 "real\.t:2: literal statistic 'p=0"
check "... and a share" "$LINT $TMPD/real.t" 1 "real\.t:3: literal statistic '3\\\\\\.2"
check "... not one whose input is made for the test" "$LINT $TMPD/real.t | grep -c 'real\.t:5'" 1 '^0$'
done_testing
