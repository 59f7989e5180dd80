# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# compare and check with latmon's causes: grow --mode touched (memory
# written before timing: no fault in the loop) against grow --mode reserved
# --no-thp (a 4 KiB fault every 512 pushes, no reallocation: faults are the
# only difference; grow's own reallocations are mremap calls as slow as the
# faults under TCG, and the host's load decided which came first) over
# --repeat 5 each: p99.9 is significantly worse,
# the change in slow time is explained by fault first of the causes latmon
# names; check refuses to
# judge another configuration against the baseline (125), an absolute
# limit says bad (1), the baseline against itself is never bad. Sourced by
# suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

CMP_ITERS=200000
load
ok "grow --mode touched --repeat 5 with latmon" \
	jrun cmp-touched grow --mode touched --iters $CMP_ITERS --repeat 5 --cpu 0
ok "grow --mode reserved --no-thp --repeat 5 with latmon" \
	jrun cmp-nothp grow --mode reserved --no-thp --iters $CMP_ITERS --repeat 5 --cpu 0
ok "the runs recorded kernel events" recorded cmp-nothp
"$LATCTL" compare cmp-touched.json cmp-nothp.json >cmp.txt 2>&1
"$LATCTL" compare --metric count:fault cmp-touched.json cmp-nothp.json >cmp-fault.txt 2>&1
sed 's/^/# /' cmp.txt | grep -E '^# (p99|cause|  fault|the change|  cause)' || true
check "compare: p99.9 significantly worse (no ~, +N%)" \
	"grep -E '^p99\\.9' cmp.txt" 0 '^p99\.9\* .* \+[0-9.]+% +0\.0[0-4][0-9] +5\+5$'
# (unexplained, the host descheduling the emulator, can outgrow it in one
# run: a few stalls of milliseconds in the new side; it is no cause latmon names;
# an interval too wide for the row is on the next line)
check "compare: the slow time's change is explained by fault first of the causes named" \
	"sed -n '/^the change explained by causes/,\$p' cmp.txt | sed -n '4,\$p' | grep -Ev '^  unexplained |^ +[-+][0-9.]+\\.\\.' | head -n 1" \
	0 '^  fault +[0-9]+ -> [0-9]+ .* \+[0-9.]+[ ~]( |$)'
check "compare --metric count:fault: fault's slow iterations rose significantly (from none: new)" \
	"sed -n '/^cause fault/,/^cause/p' cmp-fault.txt | grep -E '^  slow iters'" 0 ' (\+[0-9.]+%|new) +0\.0[0-4][0-9] '
check "check against the touched baseline: another run configuration, cannot tell (125)" \
	"$LATCTL check --baseline cmp-touched.json cmp-nothp.json" 125 "mode is 'touched' there, 'reserved' here"
check "check with an absolute p99.9 limit between the two: bad (1)" \
	"$LATCTL check --max p99.9=5us cmp-nothp.json" 1 'bad: .*p99\.9 .* > 5us \(median of 5 runs\)'
check "check of the baseline against itself: never bad (good, or 125 when 5 runs cannot show it within 10%)" \
	"$LATCTL check --baseline cmp-touched.json cmp-touched.json 2>&1; echo rc=\$?" 0 '^rc=(0|125)$'
