#!/bin/bash
# SPDX-License-Identifier: MIT
# Every benchmark of tests/bench builds and runs one short round, so none
# stops linking unseen: the join (host), the markers of run exec (host),
# what each kind of fault costs user space (host),
# how often compare and check are
# wrong (simulation and two real results), the BPF backend's cost per fault
# (host, where this kernel allows BPF), latmon's probe cost per fault and
# per system call, the backends side by side and each latmon source's cost
# beside them (one boot of the test bed each, 6.12). The figures of a short round mean nothing; the README's
# come from the full rounds (tests/BENCHMARKS.md).
. "$(dirname "$0")/engine.sh"

B=$TESTS_DIR/tests/bench
check "bench-join: a small run joined, timed and its cause table printed" \
	"'$B/bench-join.sh' 200000 50000" 0 \
	'join: 200000 samples, [0-9]+ events, [0-9]+ slow iterations .*: [0-9]+ ms'
ok "bench-join: the cause table has a row per label it saw" \
	bash -c "printf '%s\n' \"\$1\" | grep -Eq '^  (fault|preemption|interrupt) +[0-9]+ +[0-9]+'" _ "$OUT"

check "bench-verdicts: the simulation prints A/A and shifted rows" \
	"'$B/bench-verdicts.sh' --trials 40 --real 2 --iters 20000" 0 '^shift x2\.0 of every run'
ok "bench-verdicts: real results, every pair compared and checked" \
	bash -c "printf '%s\n' \"\$1\" | grep -Eq '^A/A over 1 pairs of invocations: [01] tables flag a row; check bad [01], good [01], cannot tell [01]$'" _ "$OUT"
ok "bench-verdicts: the shifted copies checked" \
	bash -c "printf '%s\n' \"\$1\" | grep -Eq '^p99\.9 x2: check bad [01] of 1, good 0$'" _ "$OUT"

check "bench-faults: every kind of fault timed, no tracing" \
	"'$B/bench-faults.sh' 2000" 0 '^  write fault \(fresh memory\) +2000 +[0-9]+ +[0-9]+ +[0-9]+$'
# whether a read maps the zero page is the kernel's (no zero page under
# some hypervisors): bench-faults measures it (resident pages), the test
# asserts the fault counts that follow from what it measured
if printf '%s\n' "$OUT" | grep -q '^  read faults mapped the zero page:'; then
	cow='copy-on-write\) +2000' why='the zero page: a copy-on-write fault after each read'
else
	cow='no zero page\) +0' why='no zero page (measured): the read mapped a writable page, no fault after it'
fi
row() { printf '%s\n' "$OUT" | grep -Eq "$1"; }
ok "bench-faults: a read fault on each page; $why; none on populated pages" \
	eval "row '^  read fault +2000 ' && row '^  write after it \\($cow ' && row '^  MAP_POPULATE, first write +0 '"
ok "bench-faults: a copy per page written after fork (and fork's own few)" \
	row '^  write after fork \(cow\) +20[0-9][0-9] '
ok "bench-faults: file pages from the page cache and from storage, one fault a read, or why not" \
	eval "{ row '^  file read, page cache \\(file\\) +12[0-9] ' && row '^  file read, from storage \\(file-io\\) +12[0-9] '; } ||
		row '^  \\(no file rows: '"

check "bench-markers: a marker pair outside latctl and with a ring, against the floor" \
	"'$B/bench-markers.sh' 20000 2" 0 '^with a ring \(begin \+ end, one record\) +[0-9.]+ ns +\([0-9.]+x the floor'
ok "bench-markers: outside latctl and the recorded empty iteration measured" \
	bash -c "printf '%s\n' \"\$1\" | grep -q '^outside latctl (inline test) ' &&
		printf '%s\n' \"\$1\" | grep -q '^an empty marked iteration, as recorded '" _ "$OUT"

if [ "$(id -u)" = 0 ] && [ -r /sys/kernel/btf/vmlinux ] && $LATCTL backends 2>/dev/null | grep -q 'bpf: yes'; then
	check "bench-bpf: nothing and the BPF backend, interleaved" \
		"'$B/bench-bpf.sh' 2000 2 1" 0 'BPF backend  4 KiB +[0-9]+ ns'
	ok "bench-bpf: the difference line" bash -c "printf '%s\n' \"\$1\" | grep -q '^  added  '" _ "$OUT"
else
	echo "ok $((_n + 1)) # skip bench-bpf: the BPF backend cannot run here (root and kernel BTF)"
	_n=$((_n + 1))
fi

# The test bed's boots: not inside a guest of make check-machines (no
# emulator inside the emulator).
if [ -n "${LATCTL_MACHINE_ARGS+set}" ]; then
	echo "ok $((_n + 1)) # skip the test bed's benchmarks: this is a guest of make check-machines"
	_n=$((_n + 1))
	done_testing
	exit
fi
check "bench-probe-cost: latmon's cost per 4 KiB and huge fault, every mode" \
	"'$B/bench-probe-cost.sh' --kernel 6.12 --rounds 1 --pages 2000 --huge 2" 0 \
	'4k +rec-all +p50/fault +[0-9]+ cycles'
for m in unloaded stopped rec-base rec-all; do
	ok "bench-probe-cost: huge $m measured" bash -c "printf '%s\n' \"\$1\" | grep -Eq '^huge +$m +p50/fault'" _ "$OUT"
done
check "bench-probe-cost --syscall: the syscall source's cost per call" \
	"'$B/bench-probe-cost.sh' --kernel 6.12 --rounds 1 --pages 2000 --syscall" 0 \
	'recording +p50/call +[0-9]+ cycles'
check "bench-backends --sources: every latmon source alone and all, beside ftrace and bpf, in one boot" \
	"'$B/bench-backends.sh' --sources --kernel 6.12 --rounds 1 --pages 1000 --huge 1 --calls 5000" 0 \
	'^syscall +latmon:syscall +median +[0-9]+ cycles'
for k in 4k huge syscall; do
	for m in nothing ftrace bpf latmon latmon:fault latmon:alloc-zero latmon:wait; do
		ok "bench-backends --sources: $k $m measured" \
			bash -c "printf '%s\n' \"\$1\" | grep -Eq '^$k +$m +median +[0-9]+ cycles'" _ "$OUT"
	done
done
check "bench-backends: nothing, latmon, bpf, ftrace and perf in one boot" \
	"'$B/bench-backends.sh' --kernel 6.12 --rounds 1 --pages 2000 --no-bpftrace" 0 \
	'ftrace +p50/fault'
for m in nothing latmon bpf perf; do
	ok "bench-backends: $m measured" bash -c "printf '%s\n' \"\$1\" | grep -Eq '^$m +p50/fault +[0-9]+ cycles'" _ "$OUT"
done
done_testing
