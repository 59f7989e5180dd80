#!/bin/bash
# SPDX-License-Identifier: MIT
# grow with a small --iters: modes, report lines, JSON, report == run output.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
check "grow runs and names its unit" "$L run grow --iters 20000" 0 '^grow, mode grow: 20000 pushes'
check "percentile table has every column" "$L run grow --iters 20000" 0 \
	'min +p50 +p90 +p99 +p99\.9 +p99\.99 +max +mean'
check "tail ratios are shown" "$L run grow --iters 20000" 0 'tail: p99/p50 = [0-9.]+x +p99\.9/p50'
check "clock pair cost is shown" "$L run grow --iters 20000" 0 'one pair of TSC reads costs [0-9]+ ns'
check "counters are shown" "$L run grow --iters 20000" 0 'minor page faults [0-9]+, major [0-9]+'
check "the loop's compaction counters are shown (system-wide deltas)" "$L run grow --iters 20000" 0 \
	'^compaction during the loop: compact_stall \+[0-9]+, compact_success \+[0-9]+, compact_fail \+[0-9]+ \(whole system'
check "the hypervisor's steal on the loop's CPU is shown (/proc/stat)" "$L run grow --iters 20000 --cpu 0" 0 \
	'^steal during the loop: [0-9]+ ms on CPU 0 \(/proc/stat, in ticks of [0-9]+ ms:$'
check "... on every CPU together when the loop is not pinned" "$L run grow --iters 20000" 0 \
	'^steal during the loop: [0-9]+ ms on all CPUs together'
# The loop's steal against /proc/stat read around the whole command: never
# more than the command's own (its ticks hold the loop's), at most a tick
# apart at either end. A margin of one tick: both read the same counter.
steal_cpu0() { awk '$1 == "cpu0" { print $9 }' /proc/stat; }
s0=$(steal_cpu0)
$L run grow --iters 4000000 --cpu 0 --quiet --json "$TMPD/steal.json" >/dev/null
s1=$(steal_cpu0)
tick=$(perl -MPOSIX -e 'print 1000 / POSIX::sysconf(POSIX::_SC_CLK_TCK())')
loop=$(perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{counters}{steal_ms}' <"$TMPD/steal.json")
echo "# steal on CPU 0: the loop $loop ms, the command $(((s1 - s0) * tick)) ms (ticks of $tick ms)"
[ "$loop" = 0 ] && echo "# no steal seen during the loop: the comparison holds trivially"
ok "the loop's steal is within the command's, read from /proc/stat around it" \
	perl -e 'exit !($ARGV[0] <= $ARGV[1] * $ARGV[2] + $ARGV[2])' "$loop" "$((s1 - s0))" "$tick"
check "the head says what machine ran it and its clock source" "$L run grow --iters 20000" 0 \
	'^machine: (bare metal \(no hypervisor bit in CPUID\)|.* guest.*), clock source [a-z0-9_-]+$'
# the kernel's own word for its hypervisor, where this test can read it too
word=$(dmesg 2>/dev/null | sed -n 's/.*Hypervisor detected: //p' | head -n 1)
if [ -n "$word" ]; then
	check "... and names the hypervisor the kernel detected ($word, dmesg)" "$L run grow --iters 2000" 0 \
		"^machine: ($word guest|.*$word)"
else
	echo "ok $((_n + 1)) # skip the kernel's word: dmesg says no 'Hypervisor detected' here (or cannot be read)"
	_n=$((_n + 1))
fi
check "histogram has log2 buckets" "$L run grow --iters 20000" 0 '\[ +16, +31\] +[0-9]+ +#+'
check "grow reallocates 14 times for 20000 pushes (4 to 32768)" "$L run grow --iters 20000" 0 \
	'grow: 14 reallocations'
check "last four reallocations are listed" "$L run grow --iters 20000" 0 \
	'last reallocations: push 16384 took [0-9.]+ [nmu]?s \(to 256 KiB\), push 8192'
check "reserved never reallocates" "$L run grow --mode reserved --iters 20000" 0 \
	'grow: 0 reallocations'
check "touched never reallocates" "$L run grow --mode touched --iters 20000" 0 \
	'mode touched: 20000 pushes'
check "pinned run says where" "$L run grow --cpu 0 --iters 1000" 0 'pinned to CPU 0'
check "--quiet prints nothing" "$L run grow --quiet --iters 1000 | wc -c" 0 '^0$'
check "an absolute --slow threshold" "$L run grow --iters 20000 --slow 1ms" 0 \
	'slower than 1ms = 1.00 ms'
echo 2596000 > "$TMPD/khz"
check "TSC frequency from the kernel when it tells" \
	"LATCTL_TSC_KHZ_FILE=$TMPD/khz $L run grow --iters 1000" 0 'TSC 2\.596 GHz \(from the kernel, tsc_freq_khz\)'
check "TSC calibrated when the kernel does not tell" \
	"LATCTL_TSC_KHZ_FILE=$TMPD/none $L run grow --iters 1000" 0 'calibrated against CLOCK_MONOTONIC_RAW'
check "list shows grow and its modes" "$L list" 0 'modes: grow\|reserved\|touched'
check "run --help has examples and exit codes" "$L run --help" 0 'exit status: 0 ok'
check "top-level help lists commands" "$L --help" 0 'report +print the report'

# JSON result: written, complete, and rendered again identically
J=$TMPD/g.json
check "--json writes the file" "$L run grow --iters 50000 --json $J > $TMPD/run.txt" 0 ''
ok "report FILE prints exactly what the run printed" \
	bash -c "'$L' report '$J' | diff - '$TMPD/run.txt'"
for key in schema_version command_line kernel_release start_time end_time exit_code \
	environment/cpu_model environment/tsc_hz environment/thp_enabled \
	environment/thp_defrag options/iters run/unit clock/pair_ns \
	summary/count summary/p50_ns summary/p99_9_ns summary/max_ns \
	summary/slowest_0_1_share histogram/buckets counters/minor_faults \
	counters/anon_huge_pages_kb counters/thp_fault_alloc \
	counters/free_2m_blocks_before extras/reallocations extras/last_reallocations \
	slow/threshold_ns slow/iterations/0/index slow/iterations/0/duration_ns; do
	ok "JSON has $key" json_get "$J" ${key//\// }
done
ok "JSON summary count equals --iters" test "$(json_get "$J" summary count)" = 50000
ok "JSON extras count 15 reallocations" test "$(json_get "$J" extras reallocations)" = 15
ok "JSON keeps the environment keys even when empty" \
	bash -c "grep -q '\"cpufreq_governor\"' '$J' && grep -q '\"isolcpus\"' '$J'"
ok "no temporary file left next to the result" \
	bash -c "! ls '$TMPD' | grep -q 'tmp\\.'"
# --json - : the document on stdout, alone; no file named "-"
check "run --json - writes the result to stdout, without the report" \
	"cd $TMPD && $LATCTL run grow --iters 20000 --json - | perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<>); print \$d->{schema}, \" \", \$d->{run}{iterations}, \"\\n\"'" 0 \
	'^latctl\.result 20000$'
ok "... and leaves no file named -" test ! -e "$TMPD/-"
$LATCTL run grow --iters 20000 --json "$TMPD/a.json" -q && $LATCTL run grow --iters 20000 --json "$TMPD/b.json" -q
check "compare --json - writes the comparison to stdout, without the tables" \
	"cd $TMPD && $LATCTL compare --json - a.json b.json | perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<>); print \$d->{schema}, \"\\n\"'" 0 \
	'^latctl\.compare$'
# The first screen answers: conditions, the table and the cause table in
# the first 24 lines; counters, the workload's lines and the histogram after.
check "a default report" "$LATCTL run grow --iters 300000 > $TMPD/first.txt" 0 ''
ok "the table and the cause table's rows within the first 24 lines" \
	bash -c "head -n 24 '$TMPD/first.txt' | grep -q '^push (ns) ' &&
		head -n 24 '$TMPD/first.txt' | grep -Eq '^Causes of the [0-9]+ slow|^No kernel events' &&
		head -n 24 '$TMPD/first.txt' | grep -Eq '^  (unexplained|fault|unattributed|realloc)'"
ok "the histogram and the counters after the causes" \
	perl -e 'local $/; $_ = <>; my ($c, $h, $m) = (index($_, "Causes of the"), index($_, "histogram of"),
		index($_, "during the timed loop")); exit !($c >= 0 && $c < $h && $c < $m)' "$TMPD/first.txt"
done_testing
