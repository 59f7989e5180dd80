#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/bisect/bisect-step.sh under `git bisect run` on a synthetic history: a
# test-bed tree whose commits differ in the kernel command line of the
# prebuilt Debian 6.12 kernel (transparent_hugepage=always, then =never from
# the first bad commit on: grow's 16 MiB vector then takes a 4 KiB fault
# every 512 pushes, 0.2% of them, and p99.9 is a fault; with huge pages only
# its first 2 MiB fault in 4 KiB pages, 0.03% of the pushes). The commit git tests first is made unbuildable (it names a
# kernel the test bed does not have): the driver says so and exits 125, git
# skips it and still finds the first bad commit. Boots the VM once per step
# (about 30 s each under TCG). The steps are judged on faults per push
# (--regression 50%: a bad commit has twice a good one's, good ones agree
# within 0.3%), which the command line decides and a busy host does not
# move (on p99.9 one run descheduled by the host hid a bad commit).
. "$(dirname "$0")/engine.sh"

STEP=$TESTS_DIR/scripts/bisect/bisect-step.sh
T=$TMPD/tree
R=$TMPD/results
N=8
WL=(grow --iters 2000000 --cpu 0)
export GIT_AUTHOR_NAME=latctl GIT_AUTHOR_EMAIL=latctl@example.org
export GIT_COMMITTER_NAME=latctl GIT_COMMITTER_EMAIL=latctl@example.org

check_err "the driver outside a kernel tree: 125" \
	"cd $TMPD && $STEP --results $TMPD/r0 --max p99.9=1s -- grow" 125 'neither a Linux source tree nor a test-bed tree'
check_err "the driver without a baseline, limit or --record: 125" \
	"$STEP -- grow" 125 'give --baseline GOOD.json, --max METRIC=LIMIT or --record FILE'

# The position (1..N) of the commit git bisect tests first in a linear
# history of N commits with the first good and the last bad.
first_probe() {
	local d=$TMPD/probe i
	git init -q "$d" && for i in $(seq "$N"); do
		git -C "$d" commit -q --allow-empty -m "c$i"
	done
	git -C "$d" bisect start "$(git -C "$d" rev-parse HEAD)" \
		"$(git -C "$d" rev-list --reverse HEAD | head -n1)" >/dev/null
	git -C "$d" log --format=%s -1 | tr -d c
}
P=$(first_probe)
BAD=$((P - 1))		# first bad commit, found without P's verdict
mapfile -t COMMITS < <("$TESTS_DIR/scripts/bisect/testbed-history.sh" "$T" "$N" "$BAD" "$P")
commit() { echo "${COMMITS[$1 - 1]}"; }
ok "history of $N commits: first bad c$BAD, c$P unbuildable" [ "${#COMMITS[@]}" = "$N" -a "$P" -gt 2 -a "$P" -lt "$N" ]

git -C "$T" checkout -q "$(commit 1)"
check "the good commit: record the baseline (--repeat 4), the later steps' --metric given" \
	"cd $T && $STEP --results $R --repeat 4 --metric p99 --regression 10% --record $R/good.json -- ${WL[*]}" 0 \
	'bisect-step: [0-9a-f]+: recorded .*good.json'
printf '%s\n' "$ERR" >"$TMPD/record.err"
check "a progress line for the build, with its time" "cat $TMPD/record.err" 0 \
	"^bisect-step: [0-9a-f]+: build: Debian 6\.12, command line 'init_on_alloc=0 transparent_hugepage=always', latmon and initramfs in [0-9]+ s$"
check "a progress line for the boot and runs, with its time" "cat $TMPD/record.err" 0 \
	'^bisect-step: [0-9a-f]+: boot and 4 runs of grow --iters 2000000 --cpu 0: [0-9]+ s, result .*step-01-[0-9a-f]+\.json$'

check_err "a typo in the check's metric stops the bisect (128) before any build" \
	"cd $T && $STEP --results $TMPD/typo --baseline $R/good.json --metric count:fualt -- ${WL[*]}" 128 \
	"^bisect-step: --metric: unknown cause 'fualt' in count:fualt; .*every step would be skipped; stopping git bisect run$"
ok "... nothing was built for it" test ! -e "$TMPD/typo/build"

git -C "$T" checkout -q "$(commit "$N")"
_run "cd $T && git bisect start $(commit "$N") $(commit 1) >/dev/null &&
	git bisect run $STEP --results $R --repeat 4 --baseline $R/good.json --metric faults/iter --regression 50% -- ${WL[*]}"
printf '%s\n' "$OUT" "$ERR" >"$TMPD/bisect.txt"
grep '^bisect-step: ' "$TMPD/bisect.txt" | sed 's/^/# /'	# each phase and its time
ok "git bisect run ends" [ "$RC" = 0 ]
check "git bisect run finds the first bad commit c$BAD" "cat $TMPD/bisect.txt" 0 \
	"^$(commit "$BAD") is the first bad commit"
check "the unbuildable c$P is skipped (125) with the reason" "cat $R/steps.log" 0 \
	"^$(git -C "$T" rev-parse --short=12 "$(commit "$P")") 125 build failed: testbed.conf names kernel '5.4'"
check "the first bad commit was judged bad (1) against the baseline" "cat $R/steps.log" 0 \
	"^$(git -C "$T" rev-parse --short=12 "$(commit "$BAD")") 1 bad: .*faults/iter .* over --regression 50%"
check "a good commit was judged good (0)" "cat $R/steps.log" 0 '^[0-9a-f]+ 0 good: '
# on failure the extra skip's line (its reason) is shown
check "no other skip than the unbuildable commit" \
	"grep ' 125 ' $R/steps.log | grep -v \"names kernel '5.4'\" | sed 's/^/extra skip: /'; grep -c ' 125 ' $R/steps.log" 0 '^1$'
check "every step's result is kept" "ls $R/step-*.json | wc -l" 0 '^[3-9]$'
check "compare shows the whole bisect" "$LATCTL compare $R/good.json $R/step-*.json" 0 \
	'good\.json -> .*/step-0[2-9]-[0-9a-f]+\.json$'
git -C "$T" bisect reset -q 2>/dev/null

# A step check cannot decide boots again. At --regression 0% the good
# commit against its own baseline is never shown within (its upper bound is
# at or above 0) and seldom over (at 2.5% one-sided a look, when the boots
# are alike; once in 70 at worst with 4+4 runs apart): 125 at each look, so
# the step takes its 2 boots and says so. A look decided by chance retries.
git -C "$T" checkout -q "$(commit 1)"
retry "a look was decided (A/A at --regression 0%, by chance)" "rm -rf $TMPD/seq" \
	check "an undecided step boots again: look 2 of 2, then 125 with its boots said" \
	"cd $T && $STEP --results $TMPD/seq --repeat 4 --baseline $R/good.json --metric faults/iter --regression 0% --max-boots 2 -- ${WL[*]}" 125 \
	'booting again, look 2 of 2'
check "... its line in steps.log: both boots' runs judged together, the cap named" "cat $TMPD/seq/steps.log" 0 \
	'^[0-9a-f]+ 125 .*\(\+1 more, their runs together\).*n=4\+8\).*undecided after 2 boots \(--max-boots 2\).*8 runs in 2 boot\(s\)$'
# Without --metric a step judges fault:p50 (the good commit against its
# own baseline: good or undecided, never bad; one boot)
check "without --metric a step is judged on fault:p50" \
	"cd $T && $STEP --results $TMPD/dflt --repeat 4 --baseline $R/good.json --regression 50% --max-boots 1 -- ${WL[*]} 2>&1; echo rc=\$?" 0 \
	'check: latctl check: (good|cannot tell \(125\)): .*: fault:p50 '
check_err "--max-boots fewer than --boots: refused" "cd $T && $STEP --boots 3 --max-boots 2 --baseline $R/good.json -- grow" 125 \
	'--max-boots 2 is fewer than --boots 3'

done_testing
