#!/bin/bash
# SPDX-License-Identifier: MIT
# latctl doctor --probe-hypervisor: the experiment's table and verdict,
# stored atomically where later runs read it (LATCTL_VAR_DIR here), and the
# result key hypervisor_probe that says which evidence a run used; a probe
# of another machine is not used; evidence that shows the gap after a
# fault is the hypervisor's makes label hypervisor (estimated). The
# verdict itself is the machine's: the figures are in tests/BENCHMARKS.md.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
export LATCTL_VAR_DIR=$TMPD/var
F=$LATCTL_VAR_DIR/hypervisor.json

"$L" doctor --probe-hypervisor >"$TMPD/p.txt" 2>&1
rc=$?
ok "the probe ran (exit $rc)" test "$rc" = 0
for row in 'memory never had' 'memory taken back (1)' 'memory taken back (2)'; do
	ok "its table has the pass: $row" grep -q "^  $row  *[0-9][0-9]* " "$TMPD/p.txt"
done
ok "and a verdict" grep -Eq '^verdict: (shown|not shown|not a guest)' "$TMPD/p.txt"
ok "its idle pass has a row" grep -Eq '^  doing nothing  *[0-9]+  *[0-9]+  *[0-9]+ ' "$TMPD/p.txt"
ok "and a verdict of its own" grep -Eq '^noise: (shown|not shown|not a guest)' "$TMPD/p.txt"
ok "it stored its figures and verdict (schema latctl.hypervisor)" \
	test "$(json_get "$F" schema)" = latctl.hypervisor
ok "the stored fresh pass touched every page of its memory" \
	test "$(json_get "$F" fresh pages)" = $(($(json_get "$F" mb_per_pass) * 256))
ok "the stored idle pass ran half a second" \
	perl -e 'exit !($ARGV[0] >= 0.5 && $ARGV[0] < 5)' "$(json_get "$F" idle seconds)"
unseen=$(json_get "$F" idle gaps_unseen_min)
ok "its gaps no event explains are gaps - interrupts - switches, 0 at least ($unseen)" \
	test "$unseen" = "$(perl -e '$u = $ARGV[0] - $ARGV[1] - $ARGV[2]; print $u > 0 ? $u : 0' \
		"$(json_get "$F" idle gaps)" "$(json_get "$F" idle interrupts)" "$(json_get "$F" idle switches)")"
check "--json prints the same document" "$L doctor --probe-hypervisor --json" 0 \
	'"schema":	"latctl.hypervisor"'
check "stored where it said" "$L doctor --probe-hypervisor" 0 "stored in $F: later runs"

# run R ARGS...: a short chase with the evidence as it is now.
run() { "$L" run chase --mode cold --iters 20000 --quiet --json "$TMPD/$1.json" "${@:2}"; }
verdict=$(json_get "$F" verdict)
ok "a run says it used the stored probe" run a --backend none
ok "... used: true, its verdict" \
	test "$(json_get "$TMPD/a.json" hypervisor_probe used)/$(json_get "$TMPD/a.json" hypervisor_probe verdict)" = "true/$verdict"

# forge P=PERL: change the stored document with PERL on $d
forge() { perl -MJSON::PP -i -0pe '$d = decode_json($_); '"$1"'; $_ = encode_json($d)' "$F"; }
stored_shown=$(json_get "$F" shown)
case $(json_get "$F" machine) in
"bare metal"*)
	ok "on bare metal a run makes no check of the memory verdict" \
		test -z "$(json_get "$TMPD/a.json" hypervisor_probe check)"
	;;
*)
	ok "in a guest a run checked the memory verdict on 64 MiB ($(json_get "$TMPD/a.json" hypervisor_probe check pages) pages)" \
		test "$(json_get "$TMPD/a.json" hypervisor_probe check pages)" = 16384
	ok "... and used the check's verdict, not the stored one" \
		test "$(json_get "$TMPD/a.json" hypervisor_probe shown)" = "$(json_get "$TMPD/a.json" hypervisor_probe check shown)"
	ok "... which it keeps beside it" \
		test "$(json_get "$TMPD/a.json" hypervisor_probe stored_shown)" = "$stored_shown"
	cp "$F" "$TMPD/kept.json"
	forge '$d->{shown} = JSON::PP::true; $_->{gaps_per_1000_pages} = 1e9 for @{$d->{reused}}'
	# with events where the backend records them: the report's note
	case $("$L" backends) in *"bpf: yes"*) bk=bpf ;; *) bk=none ;; esac
	ok "a stored verdict 'shown' (forged) the check cannot show now: a run ($bk)" run f --backend $bk --cpu 0
	ok "... did not use it: shown false, stored_shown true, check shown false" \
		test "$(json_get "$TMPD/f.json" hypervisor_probe shown)/$(json_get "$TMPD/f.json" hypervisor_probe stored_shown)/$(json_get "$TMPD/f.json" hypervisor_probe check shown)" = "false/true/false"
	"$L" report "$TMPD/f.json" >"$TMPD/f.txt"
	ok "... and its report says the memory is backed now (when some time is unexplained)" \
		bash -c '! grep -q "^unexplained:" "$1" || tr "\n" " " <"$1" | tr -s " " | grep -q "fresh memory is backed now"' _ "$TMPD/f.txt"
	ok "with LATCTL_HV_CHECK_MB=0 a run uses the stored verdict" env LATCTL_HV_CHECK_MB=0 "$L" run chase --mode cold --iters 20000 --quiet --json "$TMPD/g.json" --backend none
	ok "... shown true, no check" \
		test "$(json_get "$TMPD/g.json" hypervisor_probe shown)/$(json_get "$TMPD/g.json" hypervisor_probe check)" = "true/"
	ok "a check that cannot get its memory (4096 MiB under ulimit -v 1 GiB): the run goes on" \
		bash -c 'ulimit -v 1000000; LATCTL_HV_CHECK_MB=4096 "$1" run chase --mode cold --iters 2000 --quiet --json "$2" --backend none 2>"$3"' _ "$L" "$TMPD/h.json" "$TMPD/h.err"
	ok "... says so in one line" grep -q "^latctl: the hypervisor probe's check could not run (" "$TMPD/h.err"
	ok "... and does not use the verdict: check.failed, shown false" \
		test -n "$(json_get "$TMPD/h.json" hypervisor_probe check failed)" -a "$(json_get "$TMPD/h.json" hypervisor_probe shown)" = false
	cp "$TMPD/kept.json" "$F"
	;;
esac
cp "$F" "$TMPD/kept.json"
forge 'delete $d->{date}'
ok "a stored probe without its date (edited by hand): a run" run i --backend none
ok "... writes date null" perl -MJSON::PP -e 'local $/; my $p = decode_json(<>)->{hypervisor_probe};
	exit !(exists $p->{date} && !defined $p->{date})' "$TMPD/i.json"
ok "... and its report reads" "$L" report "$TMPD/i.json"
cp "$TMPD/kept.json" "$F"
check "LATCTL_HV_CHECK_MB must be MiB" "env LATCTL_HV_CHECK_MB=lots $L run chase --iters 1000 --backend none" 2 \
	"LATCTL_HV_CHECK_MB 'lots' is not valid"

forge '$d->{machine_id} = "another"'
ok "a probe of another machine is not used" run b --backend none
ok "... used: false, and why" \
	test "$(json_get "$TMPD/b.json" hypervisor_probe used)/$(json_get "$TMPD/b.json" hypervisor_probe verdict)" = \
	"false/the stored probe is of another machine"
rm -f "$F"
ok "without a probe: used false, and what to run" run c --backend none
ok "... the verdict names the command" \
	grep -q 'latctl doctor --probe-hypervisor' <<<"$(json_get "$TMPD/c.json" hypervisor_probe verdict)"

# the runs below judge forged verdicts: no check of them on this machine
export LATCTL_HV_CHECK_MB=0
case $("$L" backends) in
*"bpf: yes"*)
	"$L" doctor --probe-hypervisor >/dev/null
	perl -MJSON::PP -i -0pe '$d = decode_json($_); $d->{shown} = JSON::PP::true;
		$d->{noise} = JSON::PP::false; $_ = encode_json($d)' "$F"
	# --slow p90: a tenth of chase cold's iterations fault, so most slow
	# ones hold a fault even when busy loops make the slowest preemptions
	ok "with evidence that shows it (forged here): a BPF run" run d --backend bpf --cpu 0 --slow p90
	faulted=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); my $n = 0;
		$n += ($_->{faults} // 0) > 0 for @{$d->{slow}{iterations}}; print $n' "$TMPD/d.json")
	hv=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); my $n = 0;
		$n += ($_->{breakdown_ticks}{hypervisor} // 0) > 0 for @{$d->{slow}{iterations}}; print $n' "$TMPD/d.json")
	# a slow iteration with a fault has uncovered time after it unless an
	# event covers all of it to the iteration's end (or the fault's end is
	# cut there): most have some
	ok "label hypervisor in $hv of the $faulted slow iterations with a fault (want at least 1)" \
		test "$hv" -ge 1
	ok "... and in none without a fault" test "$(perl -MJSON::PP -e 'local $/; my $n = 0;
		for (@{decode_json(<>)->{slow}{iterations}}) { $n++ if !($_->{faults} // 0) &&
			($_->{breakdown_ticks}{hypervisor} // 0) > 0 } print $n' "$TMPD/d.json")" = 0
	ok "... flagged estimated" grep -q '"hypervisor"' <<<"$(json_get "$TMPD/d.json" backend estimated_labels)"
	ok "... and no stretches without the idle pass's evidence" \
		test -z "$(json_get "$TMPD/d.json" causes hypervisor_stretches named)"

	# forge the idle pass's evidence: at a rate no run exceeds, and at
	# one every run with more than 3 stretches exceeds
	for rate in 1e9 1e-9; do
		perl -MJSON::PP -i -0pe '$d = decode_json($_); $d->{shown} = JSON::PP::false;
			$d->{noise} = JSON::PP::true; $d->{idle}{gaps_per_s} = '"$rate"'; $_ = encode_json($d)' "$F"
		ok "idle gaps $rate a second (forged): a BPF run" run "e$rate" --backend bpf --cpu 0 --slow p99
		read -r named refused limit with min <<<"$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<>);
			my $h = $d->{causes}{hypervisor_stretches}; my ($n, $m) = (0, 1e99);
			for (@{$d->{slow}{iterations}}) { my $t = $_->{breakdown_ns}{hypervisor} // 0;
				next unless $t > 0; $n++; $m = $t if $t < $m }
			print join " ", $h->{named}, $h->{refused}, $h->{limit}, $n, $n ? $m : 0' "$TMPD/e$rate.json")"
		ok "... says what it named: $named named, $refused refused, limit $limit" test -n "$limit"
		ok "... the named ones are the slow iterations with hypervisor ($with)" test "$named" = "$with"
		ok "... each holds 10 us of it at least ($min ns)" \
			perl -e 'exit !($ARGV[0] == 0 || $ARGV[0] >= 10000)' "$min"
		if [ "$rate" = 1e9 ]; then
			ok "... none refused at a rate no run exceeds" test "$refused" = 0
		else
			ok "... none named at that rate unless 3 at most ($named named, $refused refused)" \
				test "$named" -le 3 -a "$refused" -eq 0 -o "$named" = 0 -a "$refused" -gt 3
		fi
		"$L" report "$TMPD/e$rate.json" >"$TMPD/e$rate.txt"
		ok "... the report says so" grep -Eq "^Hypervisor: [0-9]+ slow iterations held" "$TMPD/e$rate.txt"
		if [ "$refused" = 0 ]; then said='stretches like them are'; else said='but this run had more'; fi
		# the unexplained note is printed when some slow time is unexplained
		ok "... and its unexplained note what the idle pass did ($said)" \
			bash -c '! grep -q "^unexplained:" "$1" || tr "\n" " " <"$1" | tr -s " " | grep -q "$2"' _ "$TMPD/e$rate.txt" "$said"
	done
	;;
esac
done_testing
