#!/bin/bash
# SPDX-License-Identifier: MIT
# Fault kinds with the BPF backend on this machine (skipped, with the
# reason, where the kernel does not allow it), each against what the run
# itself saw: chase cold's reads map the zero page where the run found one
# (then its writes copy it) and fresh pages where not; chase --fork's
# writes copy; file cold reads from storage unless its directory is tmpfs,
# warm finds the page cache; grow's pushes fault new anonymous pages and,
# where huge pages were allocated, huge ones. Every fault has a kind, the
# text names them with the memory behind them, and check and compare take
# a kind's metrics.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
export -f json_get
caps=$("$L" backends)
case $caps in
*"bpf: yes"*) ;;
*) skip_all "the BPF backend is not permitted here: ${caps#*bpf: no }" ;;
esac

# kinds FILE.json: "kind=count" per kind, the loop's faults, what the run saw.
kinds() {
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); my $c = $d->{causes};
	my $k = $c->{fault_kinds} || {}; my $sum = 0;
	for (sort keys %$k) { print "$_=$k->{$_}{count}\n"; $sum += $k->{$_}{count}; }
	print "sum=$sum\nloop=$c->{faults_in_loop_joined}\n";
	print "zero_page=", ($d->{environment}{facts}{zero_page} ? 1 : 0), "\n";
	my $x = $d->{extras} || {};
	print "tmpfs=", ($x->{file_on_tmpfs} ? 1 : 0), "\n";
	print "thp_alloc=", ($d->{counters}{thp_fault_alloc} // 0), "\n";
	print "unknown_why=", join(";", keys %{$k->{unknown}{why} || {}}), "\n";' "$1"
}
get() { sed -n "s/^$2=//p" "$1"; }
num() { local v; v=$(get "$1" "$2"); echo "${v:-0}"; }

R=$TMPD/chase.json
ok "chase cold with the BPF backend" "$L" run chase --mode cold --backend bpf --iters 300000 --quiet --json "$R"
kinds "$R" > "$TMPD/chase.k"
echo "# chase cold: $(tr '\n' ' ' < "$TMPD/chase.k")"
ok "every fault of the loop has a kind (their counts add up to the loop's)" \
	test "$(num "$TMPD/chase.k" sum)" = "$(num "$TMPD/chase.k" loop)"
ok "no fault is left without a kind ('none': a record that does not say)" \
	test "$(num "$TMPD/chase.k" none)" = 0
if [ "$(get "$TMPD/chase.k" zero_page)" = 1 ]; then
	ok "chase cold, a zero page seen: thousands of zero faults" \
		between "$(num "$TMPD/chase.k" zero)" 1000 16384
	ok "... and as many copies of it on the writes that follow (within 2%)" \
		between "$(num "$TMPD/chase.k" cow)" "$(( $(num "$TMPD/chase.k" zero) * 98 / 100 ))" 16390
else
	ok "chase cold, no zero page seen: the reads fault in new anonymous pages" \
		between "$(num "$TMPD/chase.k" anon)" 1000 16390
	ok "... and nothing is called a zero-page fault" test "$(num "$TMPD/chase.k" zero)" = 0
fi
ok "unknown only for faults switched out before anything told (under 5%)" \
	between "$(num "$TMPD/chase.k" unknown)" 0 "$(( $(num "$TMPD/chase.k" sum) / 20 ))"
check "the report splits fault by kind, each with what it is" "$L report $R" 0 \
	'^    (zero|anon) .*(zero page|anonymous memory)'
# top_faults FILE: how many of the ten slowest iterations the report lists
# had faults (on a busy machine they may all be preemptions).
top_faults() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
		my @it = sort { $b->{duration_ticks} <=> $a->{duration_ticks} } @{$d->{slow}{iterations}};
		print scalar(grep { $_->{fault_kinds} } @it[0 .. ($#it < 9 ? $#it : 9)]), "\n"' "$1"
}
if [ "$(top_faults "$R")" -gt 0 ]; then
	check "a slow iteration names its faults' kinds and memory" "$L report $R" 0 \
		'[0-9]+ (zero|cow|anon|unknown) faults? \([0-9.]+ [nu]s\) on anonymous 0x[0-9a-f]+-0x[0-9a-f]+ at 0x'
else
	echo "# none of the ten slowest iterations had faults here (tests/unit/test_evtype checks that text)"
fi
check "the result keeps each slow iteration's faults with kind and memory" \
	"json_get $R slow iterations 0 fault_memory 0" 0 '"kind":"(zero|cow|anon|unknown)".*"memory":"anonymous'

F=$TMPD/fork.json
ok "chase --fork" "$L" run chase --fork --backend bpf --iters 300000 --quiet --json "$F"
kinds "$F" > "$TMPD/fork.k"
echo "# chase --fork: $(tr '\n' ' ' < "$TMPD/fork.k")"
ok "chase --fork: the writes copy pages shared with the child (cow, one per page)" \
	between "$(num "$TMPD/fork.k" cow)" 16000 16390
check "... and the report says why" "$L report $F" 0 '^--fork: every page written, then shared'
check_err "--fork is chase's" "$L run grow --fork" 2 '--fork'

C=$TMPD/cold.json W=$TMPD/warm.json
ok "file cold" "$L" run file --mode cold --backend bpf --iters 50000 --quiet --json "$C"
ok "file warm" "$L" run file --mode warm --backend bpf --iters 50000 --quiet --json "$W"
kinds "$C" > "$TMPD/cold.k"
kinds "$W" > "$TMPD/warm.k"
echo "# file cold: $(tr '\n' ' ' < "$TMPD/cold.k")"
echo "# file warm: $(tr '\n' ' ' < "$TMPD/warm.k")"
if [ "$(get "$TMPD/cold.k" tmpfs)" = 1 ]; then
	ok "file cold on tmpfs: no read from storage" test "$(num "$TMPD/cold.k" file-io)" = 0
	check "... and the report says why" "$L report $C" 0 'tmpfs: its pages live in memory'
else
	ok "file cold: some faults read the file from storage (file-io)" \
		test "$(num "$TMPD/cold.k" file-io)" -gt 0
fi
ok "file cold: the others find what readahead brought in (file)" test "$(num "$TMPD/cold.k" file)" -gt 0
ok "file warm: faults find the page cache (file) ..." test "$(num "$TMPD/warm.k" file)" -gt 0
ok "... and none reads from storage" test "$(num "$TMPD/warm.k" file-io)" = 0
check "file: a slow iteration's fault names the file and the offset in it" "$L report $C" 0 \
	'file(-io)? faults? \([0-9.]+ [num]s\) on /.*\(deleted\) \+0x[0-9a-f]+ at 0x'
check "file: the report says where the file was and how much was cached" "$L report $W" 0 \
	'^file: 64 MiB, unnamed, in .*, mode warm; its pages in the page cache: 16384 before'
check_err "file: a directory where no unnamed file can be made" \
	"LATCTL_FILE_DIR=/proc $L run file --iters 10" 2 'file: cannot make an unnamed file in /proc'

G=$TMPD/grow.json
ok "grow --thp always" "$L" run grow --thp always --backend bpf --quiet --json "$G"
kinds "$G" > "$TMPD/grow.k"
echo "# grow --thp always: $(tr '\n' ' ' < "$TMPD/grow.k")"
ok "grow: its pushes fault new anonymous pages" test "$(num "$TMPD/grow.k" anon)" -gt 0
if [ "$(num "$TMPD/grow.k" thp_alloc)" -gt 0 ]; then
	ok "grow: huge pages were allocated: thp faults" test "$(num "$TMPD/grow.k" thp)" -gt 0
fi

check "check --max on one kind's median" "$L check $F --max fault.cow:p50=1ns" 1 \
	'bad: .*fault.cow:p50 .* > 1ns'
check "... within the limit" "$L check $F --max fault.cow:p50=1s" 0 'good'
check_err "a kind check does not know is one line naming the kinds" \
	"$L check $F --max fault.moo:p50=1us" 125 'unknown fault kind or statistic in fault.moo:p50; .* anon zero cow file file-io'
# A run whose time after faults was named the hypervisor's (a guest whose
# first touch of a page the hypervisor backs): its part by kind.
perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
	for my $it (@{$d->{slow}{iterations}}) { my @k = keys %{$it->{fault_kinds} || {}};
		$it->{breakdown_ns}{hypervisor} = 1000 if @k == 1 && $k[0] eq "cow"; }
	open my $o, ">", $ARGV[1] or die; print $o encode_json($d);' "$F" "$TMPD/fork-hv.json"
check "the hypervisor's time after faults, by kind" "$L report $TMPD/fork-hv.json" 0 \
	"^    the hypervisor's time after them: cow [0-9.]+ [um]s in [0-9]+ iterations?"
# hv_named FILE: 1 when a slow iteration with faults has hypervisor time
hv_named() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
		print((grep { $_->{fault_kinds} && ($_->{breakdown_ns}{hypervisor} // 0) > 0 }
			@{$d->{slow}{iterations}}) ? 1 : 0, "\n")' "$1"
}
check "... the line there exactly when the run named such time ($(hv_named "$F"))" \
	"$L report $F | grep -c \"hypervisor's time after them\"" "$((1 - $(hv_named "$F")))" "^$(hv_named "$F")\$"
check "compare: a count and a median row per kind either side has" \
	"$L compare $R $F" 0 '^cow faults$'

done_testing
