#!/bin/bash
# SPDX-License-Identifier: MIT
# Causes without a backend (--backend none): one line says so,
# realloc and unattributed are the only labels, every slow iteration's
# breakdown adds up to its duration, and `report` prints the same.
. "$(dirname "$0")/engine.sh"

[ -e /dev/latmon ] && skip_all "latmon is loaded on this machine; the VM suite covers that case"

L=$LATCTL
J=$TMPD/c.json
check "run works without a backend" "$L run grow --backend none --iters 20000 --slow 1ns --json $J > $TMPD/run.txt" 0 ''
ok "the no-backend line is printed exactly once" \
	test "$(grep -c '^--backend none: no kernel events are recorded$' "$TMPD/run.txt")" = 1
ok "nothing about latmon on stderr" \
	bash -c "'$L' run grow --backend none --iters 2000 2>&1 >/dev/null | grep -c latmon | grep -qx 0"
if ! "$L" backends | grep -q 'latmon: yes'; then
	check_err "--backend latmon where latmon cannot record: refused, exit 1" \
		"$L run grow --backend latmon --iters 2000" 1 '^latctl: --backend latmon cannot record here \(latmon is not loaded'
	case $("$L" backends) in
	*"no module support"*)
		ok "... and no 'make load' where the kernel has no module support" \
			bash -c "! '$L' run grow --backend latmon --iters 2000 2>&1 | grep -q 'make load'" ;;
	esac
fi
if ! "$L" backends | grep -q 'bpf: yes'; then
	check_err "--backend bpf where BPF cannot record: refused, exit 1" \
		"$L run grow --backend bpf --iters 2000" 1 '^latctl: --backend bpf cannot record here'
fi
ok "cause table has an unattributed row" grep -Eq '^  unattributed +[0-9]+ +[0-9]+ +[0-9.]+%' "$TMPD/run.txt"
ok "cause table has a realloc row" grep -Eq '^  realloc +14 +14 +[0-9.]+%' "$TMPD/run.txt"
ok "no label the host cannot know" \
	bash -c "! grep -Eq '^  (fault|thp-zero|preemption|blocked|interrupt|unexplained) ' '$TMPD/run.txt'"
ok "the ten slowest are listed with their breakdown" \
	grep -Eq '^ +[0-9]+ +[0-9.]+ [mun]?s +cpu [0-9]+(->[0-9]+)? +(realloc|unattributed|migration): ' "$TMPD/run.txt"
# One decode of the (large) JSON with every figure the checks need.
perl -MJSON::PP -e 'local $/; my $d = decode_json(<>);
	my ($re, $bad_t, $bad_ns, $big) = (0, 0, 0, "");
	for my $it (@{$d->{slow}{iterations}}) {
		my ($t, $n) = (0, 0);
		$re++ if $it->{primary} eq "realloc";
		$big .= " $it->{index}=$it->{primary}:" . join(",", sort keys %{$it->{breakdown_ticks}})
			if $it->{index} == 16384;
		$t += $_ for values %{$it->{breakdown_ticks}};
		$n += $_ for values %{$it->{breakdown_ns}};
		$bad_t++ if $t != $it->{duration_ticks};
		$bad_ns++ if abs($n - $it->{duration_ns}) > 1;
	}
	printf "state=%s\nmodule=%s\ncount=%d\nlisted=%d\nrealloc=%d\nreallocations=%d\nbad_ticks=%d\nbad_ns=%d\nbig=%s\n",
		$d->{latmon}{state}, $d->{causes}{module} ? "true" : "false", $d->{slow}{count},
		scalar @{$d->{slow}{iterations}}, $re, $d->{extras}{reallocations}, $bad_t, $bad_ns, $big;
	' "$J" > "$TMPD/facts"
fact() { sed -n "s/^$1=//p" "$TMPD/facts"; }
ok "JSON: latmon state absent" test "$(fact state)" = absent
ok "JSON: causes say no module" test "$(fact module)" = false
ok "JSON: every iteration is slow with --slow 1ns, all listed" \
	test "$(fact count)" = 20000 -a "$(fact listed)" = 20000
ok "JSON: realloc is primary for exactly the 14 reallocations" \
	test "$(fact realloc)" = 14 -a "$(fact reallocations)" = 14
ok "JSON: the push that copies 128 KiB is realloc, all of its time ($(fact big))" \
	test "$(fact big)" = " 16384=realloc:realloc"
ok "JSON: each slow iteration's breakdown ticks sum to its duration" test "$(fact bad_ticks)" = 0
ok "JSON: breakdown_ns sums to duration_ns (within 1 ns)" test "$(fact bad_ns)" = 0
ok "report FILE prints exactly what the run printed" \
	bash -c "'$L' report '$J' | diff - '$TMPD/run.txt'"
check "default p99.9: slow count shown" "$L run grow --backend none --iters 20000" 0 \
	'slow pushes \(slower than p99\.9 = [0-9.]+ [nmu]?s\): [0-9]+'
check "without --json the slow list says where it would be" "$L run grow --backend none --iters 2000 --slow p50" 0 \
	'^slow pushes \(slower than p50 = [0-9.]+ [nmu]?s\): [0-9]+, all listed in a JSON result \(--json FILE\)$'
check "... with it, that it is there" "cat $TMPD/run.txt" 0 '^slow pushes .*, all listed in the JSON result$'
check "p99 of 50 pushes is the slowest: that one is explained, not none" \
	"$L run grow --backend none --iters 50 --slow p99" 0 \
	'^slow pushes \(p99 = [0-9.]+ [nmu]?s is the slowest; too few for a tail, those at it\): [1-9]'
check "... and p50 of the same is a threshold below it, as before" "$L run grow --backend none --iters 50 --slow p50" 0 \
	'^slow pushes \(slower than p50 = [0-9.]+ [nmu]?s\): [1-9][0-9]?,'
check_err "--events below the minimum" "$L run grow --backend none --events 10" 2 \
	"^latctl: --events '10' is out of range; give a whole number from 16 to"
check_err "--events not a number" "$L run grow --backend none --events many" 2 "^latctl: --events 'many' is not valid"
check "--events is in --help" "$L run --help" 0 '--events N +latmon records latctl keeps'

# A saved VM result whose fault probe missed 7 events: the misses line says
# they are lost; with none missed it does not.
V=$(dirname "$0")/../fuzz/corpus/fuzz_result/valid-vm-latmon.json
sed 's/"name":"fault",\([^}]*\)"misses":0/"name":"fault",\1"misses":7/' "$V" >"$TMPD/miss.json"
check "report: probe misses are shown as lost" "$L report $TMPD/miss.json" 0 \
	'^probe misses \(system-wide\): fault 7, thp-clear 0, sched 0, irq 0 \(LOST before reaching latmon'
check "report: no loss note when nothing was missed" "$L report $V | grep '^probe misses'" 0 \
	'^probe misses \(system-wide\): fault 0, thp-clear 0, sched 0, irq 0$'
# synthetic: the recorded result with its machine set; its unexplained
# share is 2.1% of the slow time
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); $d->{environment}{machine} = $ARGV[0]; $d->{environment}{clocksource} = "tsc";
	print encode_json($d)' "KVM guest" <"$V" >"$TMPD/guest.json"
check "report: in a guest, what unexplained may hold is said" "$L report $TMPD/guest.json" 0 \
	"^  This is a KVM guest: a guest does not see its hypervisor's time"
# synthetic: guest.json above, its unexplained share made 2.1% by the corpus
check "... with its share" "$L report $TMPD/guest.json" 0 '^unexplained: 2\.1% of the slow time, when this kernel recorded nothing\.$'
# synthetic: guest.json with 30 ms, then 0 ms, of steal on CPU 1 in its loop
for ms in 30 0; do
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); @{$d->{counters}}{qw(steal_ms steal_cpu steal_tick_ms)} = ($ARGV[0] + 0, 1, 10);
		print encode_json($d)' "$ms" <"$TMPD/guest.json" >"$TMPD/guest-steal-$ms.json"
done
check "report: a guest's steal during the loop is said beside unexplained" "$L report $TMPD/guest-steal-30.json" 0 \
	'^  The kernel counted 30 ms of steal on CPU 1 during the loop: the$'
check "... and its line among the counters" "$L report $TMPD/guest-steal-30.json" 0 \
	'^steal during the loop: 30 ms on CPU 1 \(/proc/stat, in ticks of 10 ms:$'
check "... and none counted, said so" "$L report $TMPD/guest-steal-0.json" 0 \
	'^  No steal was counted on CPU 1 during the loop: the hypervisor did$'
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); $d->{environment}{machine} = $ARGV[0]; $d->{environment}{clocksource} = "tsc";
	print encode_json($d)' "bare metal (no hypervisor bit in CPUID)" <"$V" >"$TMPD/metal.json"
check "report: on bare metal no guest note" "$L report $TMPD/metal.json" 0 '^machine: bare metal'
ok "... (no line of it)" bash -c "! $L report $TMPD/metal.json | grep -q '^  This is a'"
# What the backend watched and did not see is ruled out for unexplained:
# latmon's sources that started (the corpus result's fault, thp-clear,
# sched and irq), and what nothing watched
check "report: unexplained says what latmon watched then and did not see" "$L report $TMPD/metal.json" 0 \
	'^  Watched then, and not seen: faults, huge-page zeroing, scheduling,$'
check "... and what it did not watch (SMIs on bare metal, but for latmon's count)" \
	"$L report $TMPD/metal.json" 0 \
	'^  interrupts and NMIs\. Not watched: SMIs \(firmware time\) inside an iteration,$'
check "... in a guest, the hypervisor's time instead" "$L report $TMPD/guest.json" 0 \
	"Not watched: the hypervisor's time inside an"
p50=$(perl -MJSON::PP -e 'local $/; printf "%.0f", decode_json(<>)->{summary}{p50_ns}' "$TMPD/metal.json")
check "... and that the program's own work is part of it, with the median ($p50 ns)" \
	"$L report $TMPD/metal.json | tr -s '\n ' '  '" 0 \
	"The program's own work is part of it too: .*an ordinary iteration takes $p50 ns \\(the median\\)"
# ... and by the CPU's vendor: MSR_SMI_COUNT is Intel's (cpu_vendor)
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); $d->{environment}{cpu_vendor} = "AuthenticAMD";
	print encode_json($d)' <"$TMPD/metal.json" >"$TMPD/metal-amd.json"
check "... on an AMD CPU: no SMI counter on it" "$L report $TMPD/metal-amd.json | tr -s '\n ' '  '" 0 \
	'Not watched: SMIs \(firmware time\): no SMI counter on this CPU \(AuthenticAMD\)\.'
ok "a run records the CPU's vendor ($(json_get "$J" environment cpu_vendor))" \
	test "$(json_get "$J" environment cpu_vendor)" = "$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
# synthetic: the BPF corpus result with an unexplained row (25% of the
# slow time) added
B=$(dirname "$0")/../fuzz/corpus/fuzz_result/valid-host-bpf.json
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my %r = %{$d->{causes}{causes}[0]};
	@r{qw(label share)} = ("unexplained", 0.25); push @{$d->{causes}{causes}}, \%r; print encode_json($d)' \
	<"$B" >"$TMPD/bpf-unexplained.json"
check "... with the BPF backend: its records watched, latmon's own sources not" \
	"$L report $TMPD/bpf-unexplained.json" 0 '^  interrupts and NMIs, migrations\. Not watched: compaction, reclaim, lock$'
# note_fits FILE...: each report has an unexplained note, none of its
# lines wider than 80 columns
note_fits() {
	local f
	for f in "$@"; do
		"$L" report "$f" | awk '/^unexplained:/ { n++; u = 1 } u && /^[^ ]/ && !/^unexplained:/ { u = 0 }
			u && length > 80 { bad = 1 } END { exit bad || n != 1 }' || return 1
	done
}
ok "... every line of the note within 80 columns" note_fits "$TMPD/bpf-unexplained.json" "$TMPD/guest.json"
done_testing
