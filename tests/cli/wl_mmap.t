#!/bin/bash
# SPDX-License-Identifier: MIT
# mmap: N worker processes, every operation timed, totals per process,
# bounded by --iters per process or --duration, whichever comes first.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
NCPU=$(getconf _NPROCESSORS_ONLN)

M=$TMPD/three
check "3 processes x 1500 operations" "$L run mmap --procs 3 --iters 1500 --json $M.json > $M.txt" 0 ''
check "the header says how it was bounded" "cat $M.txt" 0 \
	'^3 processes, each at most 1500 operations or 5\.0 s \(stopped by iters\)'
for k in 0 1 2; do
	check "process $k prints its totals" "cat $M.txt" 0 \
		"^process $k <[0-9]+>: 1500 ops \\([0-9]+ maps, [0-9]+ unmaps\\), total [0-9.]+ ms, mean [0-9.]+ us, max [0-9.]+ us, [0-9]+ over 1 ms"
	ok "process $k: maps + unmaps = ops" test \
		$(($(json_get $M.json extras per_process $k maps) + $(json_get $M.json extras per_process $k unmaps))) = 1500
done
ok "three different worker pids" test "$(grep -o '^process [0-9] <[0-9]*>' $M.txt | sort -u -k3 | wc -l)" = 3
check "operations over 1 ms are counted" "cat $M.txt" 0 '^operations over 1 ms: [0-9]+ of 4500'
ok "the per-process counts over 1 ms add up to the total" test \
	$(($(json_get $M.json extras per_process 0 over_1ms) + $(json_get $M.json extras per_process 1 over_1ms) + \
	   $(json_get $M.json extras per_process 2 over_1ms))) = "$(json_get $M.json extras slow_ops_count)"
ok "all samples of all processes are in the summary" test "$(json_get $M.json summary count)" = 4500
ok "each process touched the first page of each map (a fault per map at least)" \
	test "$(json_get $M.json extras per_process 0 minor_faults)" -ge \
	"$(json_get $M.json extras per_process 0 maps)"
ok "report FILE prints the per-process lines again" bash -c "'$L' report $M.json | diff - $M.txt"

check "default: one process per online CPU" "$L run mmap --iters 300" 0 \
	"^$NCPU processes, each at most 300 operations"
D=$TMPD/dur
check "--duration stops the workers first" \
	"$L run mmap --procs 2 --duration 300ms --json $D.json > $D.txt" 0 ''
# the loop's own span (first to last TSC read), not the wall clock: a busy
# box takes seconds to set up and report
span=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<>);
	printf "%.2f", ($d->{run}{tsc_last} - $d->{run}{tsc_first}) / $d->{environment}{tsc_hz}' "$D.json")
ok "... its loop spans well under the default 5 s (${span} s)" \
	perl -e 'exit !($ARGV[0] >= 0.25 && $ARGV[0] < 2)' "$span"
check "... and says so" "cat $D.txt" 0 'or 0\.3 s \(stopped by duration\)'
ok "... with fewer operations than --iters" \
	test "$(json_get $D.json extras per_process 1 ops)" -lt 1000000
# SIGTERM to latctl alone (not its process group): no worker may survive it
# (SIGINT is ignored by background jobs of a script, so TERM stands for both)
"$L" run mmap --procs 2 --duration 20s --seed 918273 > /dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
sleep 0.3
ok "SIGTERM stops the run (exit $rc)" test "$rc" = $((128 + 15))
survivors() {	# processes whose command line has our marker seed (no procps needed)
	local f
	for f in /proc/[0-9]*/cmdline; do
		{ tr '\0' ' ' < "$f"; } 2>/dev/null | grep -q -- '--seed 918273' && echo "${f%/cmdline}"
	done
}
ok "no worker process survives SIGTERM" test -z "$(survivors)"
check_err "--procs 0" "$L run mmap --procs 0" 2 "--procs '0'"
# (20 M operations alone fit run's own check, 48 bytes each; times 100
# processes they do not)
check_err "samples larger than the RAM" "$L run mmap --procs 100 --iters 20000000" 2 \
	'mmap: 100 processes x 20000000 operations need [0-9.]+ GiB of samples; lower --iters or --procs'
check_err "--hugepage does not apply to mmap" "$L run mmap --hugepage" 2 '--hugepage does not apply to mmap'
done_testing
