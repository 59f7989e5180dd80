#!/bin/bash
# SPDX-License-Identifier: MIT
# The LAVA test definition's script (tests/lava/latctl/latctl.sh) on this
# host, with a fake lava-test-case on PATH that logs its arguments: every
# headline metric becomes a test case with its measurement and unit, the
# verdict of 'latctl check' becomes WL_check (pass within the limits, fail
# beyond), the result file travels in the log and comes back out whole
# (scripts/lava/lava-results.pl), a failed run or a missing latctl is a
# failed test case. make check-lava runs the same definition under LAVA.
. "$(dirname "$0")/engine.sh"

[ "$(id -u)" = 0 ] || skip_all "latctl run --thp always needs root"
S=$TESTS_DIR/tests/lava/latctl/latctl.sh
R=$TESTS_DIR/scripts/lava/lava-results.pl
F=$TMPD/fake
mkdir -p "$F"
# logs its arguments, and prints LAVA's signal line as the real one does
cat > "$F/lava-test-case" <<EOT
#!/bin/sh
echo "\$*" >> "$TMPD/cases.log"
echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=\$1 RESULT=\$3\${5:+ MEASUREMENT=\$5 UNITS=\$7}>"
EOT
chmod +x "$F/lava-test-case"
RUN="cd $TMPD && PATH=$F:\$PATH LATCTL=$LATCTL"

check "latctl.sh -w 'grow chase' -r 2 -s: runs, exit 0" \
	"$RUN GROW_MAX='p99.9=1s faults/iter=1' $S -w 'grow chase' -r 2 -s -o out > run.log 2>&1; echo rc=\$?" 0 '^rc=0$'
res=$TMPD/out/result.txt
check "the run itself is a passing test case" "cat $res" 0 '^grow pass$'
check "... chase's too, with its measurements" "cat $res" 0 '^chase_p99_9 pass [0-9.e+-]+ ns$'
for m in p50 p90 p99 p99_9 p99_99 max mean fault_p50; do
	check "grow_$m: a measurement in ns" "cat $res" 0 "^grow_${m} pass [0-9.e+-]+ ns$"
done
check "faults per iteration, in faults" "cat $res" 0 '^grow_faults_per_iter pass [0-9.e+-]+ faults$'
check "the primary cause's share, in %" "cat $res" 0 '^grow_primary_share pass [0-9.e+-]+ %$'
check "a share per cause" "cat $res" 0 '^grow_share_[a-z0-9-]+ pass [0-9.e+-]+ %$'
check "lost events and runs are counted" "cat $res" 0 '^grow_runs pass 2 runs$'
check "... lost events too" "cat $res" 0 '^grow_lost_events pass [0-9]+ events$'
check "within the limits: grow_check pass" "cat $res" 0 '^grow_check pass$'
bad=$(grep -cvE '^[a-z0-9_-]+ (pass|fail|skip)( [0-9.e+-]+ [^ ]+)?$' "$res")
ok "every line is NAME RESULT [MEASUREMENT UNITS], names [a-z0-9_-] ($bad other)" [ "$bad" = 0 ]
ok "lava-test-case got every test case of result.txt" \
	[ "$(wc -l < "$TMPD/cases.log")" = "$(wc -l < "$res")" ]
check "... with its measurement and unit" "cat $TMPD/cases.log" 0 \
	'^grow_p99_9 --result pass --measurement [0-9.e+-]+ --units ns$'
check "the result file is in the log between marker lines" "cat $TMPD/run.log" 0 \
	'^LATCTL-RESULT-BEGIN grow\.json$'
check "lava-results.pl takes it back out" "$R --json $TMPD/back $TMPD/run.log" 0 'back/grow\.json'
ok "... byte for byte" cmp "$TMPD/back/grow.json" "$TMPD/out/grow.json"
check "... and lists the test cases of a plain log" "$R $TMPD/run.log" 0 \
	'^latctl grow_p99_9 pass [0-9.e+-]+ ns$'

rm -f "$TMPD/cases.log"
check "beyond a limit: grow_check fail" \
	"$RUN GROW_MAX='p50=1ns' $S -w grow -r 1 -s -o out2 > /dev/null 2>&1; cat out2/result.txt" 0 '^grow_check fail$'
check "an unknown workload is a failed test case" \
	"$RUN $S -w bogus -o out3 2>&1; cat out3/result.txt" 0 '^bogus fail$'
check "no latctl on the device: one failed test case, exit 1" \
	"cd $TMPD && PATH=$F:/usr/bin:/bin LATCTL=latctl-missing $S -o out4 >/dev/null 2>&1; echo rc=\$? \$(cat out4/result.txt)" 0 \
	'^rc=1 latctl-installed fail$'
check "the definition runs the script from the repository root" \
	"cat $TESTS_DIR/tests/lava/latctl/latctl.yaml" 0 'cd \./tests/lava/latctl'
done_testing
