#!/bin/bash
# SPDX-License-Identifier: MIT
# Ctrl-C, in a pseudo-terminal (script): the first SIGINT ends the timed
# loop at its next iteration, and latctl prints and writes the report of
# what it measured, marked INTERRUPTED with the iterations done, exit 130;
# THP is restored. A second SIGINT exits at once, leaving no half-written
# file. --repeat reports the runs measured so far. (--vm: interrupt_vm.t.)
. "$(dirname "$0")/engine.sh"

command -v script >/dev/null || skip_all "script (util-linux) is not installed"
L=$LATCTL
THP=/sys/kernel/mm/transparent_hugepage/enabled
thp_arg=()
[ "$(id -u)" = 0 ] && [ -w "$THP" ] && thp_arg=(--thp always) && thp_before=$(cat "$THP")

J=$TMPD/int.json
run_int "$TMPD/int.log" 771001 1 grow --iters 40000000 --backend none "${thp_arg[@]}" --json "$J"
tr '\r' '\n' < "$TMPD/int.log" | sed 's/\x1b\[K//g' > "$TMPD/int.txt"
ok "Ctrl-C in the timed loop: exit 130" grep -q '^rc=130$' "$TMPD/rc"
ok "... the report says INTERRUPTED and how far it got" \
	grep -Eq '^INTERRUPTED by SIGINT after [0-9]+ of 40000000 pushes: everything below covers those' "$TMPD/int.txt"
ok "... and prints the table of what was measured" grep -Eq '^push \(ns\) +[0-9]+' "$TMPD/int.txt"
ok "... the still line was erased before it" \
	perl -e 'local $/; $_ = <>; my ($s, $r) = (rindex($_, "timing grow"), index($_, "INTERRUPTED")); exit !($s >= 0 && $s < $r && substr($_, $s, $r - $s) =~ /\r\e\[K/)' "$TMPD/int.log"
ok "... the JSON was written, marked, with the iterations done" \
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); my $i = $d->{interrupted};
		exit !($i && $i->{iterations_done} > 0 && $i->{iterations_done} < 40000000 &&
		       $i->{iterations_done} == $d->{summary}{count} && $d->{exit_code} == 130)' "$J"
grep -aE '^(INTERRUPTED|latctl:)' "$TMPD/int.txt" | sed 's/^/# /'
[ ${#thp_arg[@]} -gt 0 ] && ok "... THP restored ($thp_before)" test "$(cat "$THP")" = "$thp_before"
check "check on an interrupted result cannot tell (125)" "$L check --max p50=1s $J" 125 ''

J2=$TMPD/twice.json
run_int "$TMPD/twice.log" 771002 2 grow --iters 40000000 --backend none "${thp_arg[@]}" --json "$J2"
ok "a second Ctrl-C: exit 130 at once" grep -q '^rc=130$' "$TMPD/rc"
ok "... no half-written result" \
	bash -c "[ ! -e '$J2' ] || perl -MJSON::PP -e 'local \$/; decode_json(<>)' '$J2'; ! ls '$TMPD'/.twice.json.latctl-* 2>/dev/null"
[ ${#thp_arg[@]} -gt 0 ] && ok "... THP restored ($thp_before)" test "$(cat "$THP")" = "$thp_before"

J3=$TMPD/rep.json
WAITFOR="run 2 of 3" run_int "$TMPD/rep.log" 771003 1 grow --iters 30000000 --backend none --repeat 3 --json "$J3"
tr '\r' '\n' < "$TMPD/rep.log" | sed 's/\x1b\[K//g' > "$TMPD/rep.txt"
ok "--repeat: Ctrl-C in run 2: exit 130" grep -q '^rc=130$' "$TMPD/rc"
ok "... the runs measured so far reported, said so" \
	grep -Eq '^INTERRUPTED by SIGINT: the [12] of 3 runs measured so far' "$TMPD/rep.txt"
ok "... in the JSON: runs done and asked" \
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); my $r = $d->{repeat};
		exit !($r->{runs_asked} == 3 && $r->{runs} >= 1 && $r->{runs} <= 2 && @{$r->{per_run}} == $r->{runs})' "$J3"
done_testing
