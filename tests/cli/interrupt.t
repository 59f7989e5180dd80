#!/bin/bash
# SPDX-License-Identifier: MIT
# Ctrl-C, in a pseudo-terminal (script): the first SIGINT ends the timed
# loop at its next iteration, and latctl prints and writes the report of
# what it measured, marked INTERRUPTED with the iterations done, exit 130;
# THP is restored. A second SIGINT exits at once, leaving no half-written
# file. --repeat reports the runs measured so far. --vm passes the first
# Ctrl-C into the guest, whose run stops and reports.
. "$(dirname "$0")/engine.sh"

command -v script >/dev/null || skip_all "script (util-linux) is not installed"
L=$LATCTL
THP=/sys/kernel/mm/transparent_hugepage/enabled
thp_arg=()
[ "$(id -u)" = 0 ] && [ -w "$THP" ] && thp_arg=(--thp always) && thp_before=$(cat "$THP")

# run_int LOG SEED SIGNALS ARGS...: latctl run ARGS on a pty; once its loop
# is timed (the still line is drawn; $WAITFOR names another line), and
# $DELAY seconds more, SIGNALS SIGINTs 0.2 s apart; the exit status into
# $TMPD/rc.
run_int() {
	local log=$1 seed=$2 sigs=$3 pid _ i
	shift 3
	script -qfec "$L run $* --seed $seed; echo rc=\$? > $TMPD/rc" "$log" >/dev/null 2>&1 &
	for _ in $(seq 300); do
		pid=$(pgrep -f -- "^$L run .*--seed $seed" | head -n1)
		[ -n "$pid" ] && grep -aq "${WAITFOR:-timing grow}" "$log" 2>/dev/null && break
		sleep 0.1
	done
	sleep "${DELAY:-0}"
	for i in $(seq "$sigs"); do kill -INT "$pid" 2>/dev/null; sleep 0.2; done
	wait
}

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
[ ${#thp_arg[@]} -gt 0 ] && ok "... THP restored ($thp_before)" test "$(cat "$THP")" = "$thp_before"
check "check on an interrupted result cannot tell (125)" "$L check --max p50=1s $J" 125 ''

J2=$TMPD/twice.json
run_int "$TMPD/twice.log" 771002 2 grow --iters 40000000 --backend none "${thp_arg[@]}" --json "$J2"
ok "a second Ctrl-C: exit 130 at once" grep -q '^rc=130$' "$TMPD/rc"
ok "... no half-written result" \
	bash -c "[ ! -e '$J2' ] || perl -MJSON::PP -e 'local \$/; decode_json(<>)' '$J2'; ! ls '$TMPD'/twice.json.tmp.* 2>/dev/null"
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
# --vm: the guest boots (10-30 s under TCG), then chase's loop runs for a
# minute or more; Ctrl-C 45 s after the boot began lands in that loop.
JV=$TMPD/vm.json
WAITFOR="booting the VM" DELAY=45 run_int "$TMPD/vm.log" 771004 1 chase --vm --kernel 6.1 \
	--iters 30000000 --json "$JV"
tr '\r' '\n' < "$TMPD/vm.log" | sed 's/\x1b\[K//g' > "$TMPD/vm.txt"
ok "--vm, Ctrl-C: exit 130" grep -q '^rc=130$' "$TMPD/rc"
ok "... passed to the guest, said once" \
	test "$(grep -c 'Ctrl-C passed to the guest: its run stops and reports' "$TMPD/vm.txt")" = 1
ok "... the guest's report says INTERRUPTED and how far it got" \
	grep -Eq '^INTERRUPTED by SIGINT after [0-9]+ of 30000000 iterations' "$TMPD/vm.txt"
ok "... it is the guest's: kernel 6.1 with latmon's causes" \
	bash -c "grep -q '^kernel 6\.1\.' '$TMPD/vm.txt' && grep -q '^Causes of the' '$TMPD/vm.txt'"
ok "... and --json has it, marked interrupted" \
	test "$(json_get "$JV" interrupted iterations_asked 2>/dev/null)" = 30000000
tail -n 5 "$TMPD/vm.txt" | sed 's/^/# /'
done_testing
