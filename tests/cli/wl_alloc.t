#!/bin/bash
# SPDX-License-Identifier: MIT
# alloc: one allocation per call for the "new" variants, none for the reused
# ones, counted per thread; the first 256 KiB call on its own line.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
NCPU=$(getconf _NPROCESSORS_ONLN)

A=$TMPD/one
check "alloc runs 2000 calls per variant" "$L run alloc --iters 2000 --json $A.json > $A.txt" 0 ''
check "the first call has its own line" "cat $A.txt" 0 \
	'^first call of 256 KiB, new buffer, in a fresh process: [0-9]+ ns, [0-9]+ page faults'
check "the variant table has its columns" "cat $A.txt" 0 \
	'^version +ns per call +p50 ns +p99 ns +allocs per call +page faults per call'
for v in "small, new buffer" "256 KiB, new buffer"; do
	check "$v: 1.00 allocs per call" "cat $A.txt" 0 "^$v +[0-9.]+ +[0-9]+ +[0-9]+ +1\\.00 +[0-9.]+\$"
done
for v in "small, reused buffer" "256 KiB, reused buffer"; do
	check "$v: 0.00 allocs per call" "cat $A.txt" 0 "^$v +[0-9.]+ +[0-9]+ +[0-9]+ +0\\.00 +0\\.00\$"
done
check "one thread line with both counts" "cat $A.txt" 0 \
	'^thread 0 on CPU [0-9]+: new buffer [0-9.]+ ns, reused buffer [0-9.]+ ns per call, 1\.00 and 0\.00 allocs per call'
# 256 KiB is 64 pages: a fresh mmap faults each of them on the first touch
ok "the first call faults about once per page ($(json_get $A.json extras first_call_page_faults))" \
	between "$(json_get $A.json extras first_call_page_faults)" 32 200
ok "the first call is slower than a typical 256 KiB call" \
	awk -v f="$(json_get $A.json extras first_call_ns)" -v p="$(json_get $A.json extras variants 2 p50_ns)" \
	'BEGIN { exit !(f > p) }'
ok "samples: 1 first call + 2 x 2000 small + 2 x 20 big" test "$(json_get $A.json summary count)" = 4041
ok "report FILE prints the alloc lines again" bash -c "'$L' report $A.json | diff - $A.txt"

if [ "$NCPU" -ge 2 ]; then
	T=$TMPD/two
	check "--threads 2 runs" "$L run alloc --iters 2000 --threads 2 --json $T.json > $T.txt" 0 ''
	check "thread 0 has its line" "cat $T.txt" 0 '^thread 0 on CPU [0-9]+: .*1\.00 and 0\.00 allocs per call'
	check "thread 1 has its line" "cat $T.txt" 0 '^thread 1 on CPU [0-9]+: .*1\.00 and 0\.00 allocs per call'
	ok "each thread is pinned to its own CPU" test "$(json_get $T.json extras per_thread 0 cpu)" != \
		"$(json_get $T.json extras per_thread 1 cpu)"
	ok "allocs per call stay 1.00 over both threads" \
		test "$(json_get $T.json extras variants 0 allocs_per_call)" = 1
	ok "samples of both threads: 1 + 2 x 4040" test "$(json_get $T.json summary count)" = 8081
	check_err "--threads 2 with --cpu" "$L run alloc --threads 2 --cpu 0" 2 \
		'alloc: --threads 2 pins each thread to its own CPU; drop --cpu 0'
else
	ok "--threads 2 needs two CPUs (skipped) # SKIP one CPU" true
fi
check_err "--threads above the online CPUs" "$L run alloc --threads $((NCPU + 1))" 2 \
	"alloc: --threads $((NCPU + 1)) but only $NCPU CPUs are online; use --threads $NCPU or fewer"
check_err "--threads 0" "$L run alloc --threads 0" 2 "--threads '0'"
check_err "--procs does not apply to alloc" "$L run alloc --procs 2" 2 '--procs does not apply to alloc'
done_testing
