#!/bin/bash
# SPDX-License-Identifier: MIT
# Probe-cost benchmark, run inside the guest by tests/bench/bench-probe-cost.sh:
# the syscall source's cost per system call: N getppid() calls (lmprocs
# getppid --calls N --timing) with latmon not loaded, loaded but stopped,
# and recording with the syscall source only, interleaved over ROUNDS rounds
# (the order rotates each round). Prints one line per run, then per mode the
# median of the runs' p50 per call and its ratio to "not loaded".
#
#   /tests/bench-syscall.sh [ROUNDS] [CALLS]
ROUNDS=${1:-5}
PAGES=${2:-20000}
KIND=syscall
KO=/lib/modules/latmon.ko
cd /tmp || exit 1
case $KIND in
fault) PROG="lmtouch --pages $PAGES --timing" MASK="" UNIT="fresh 4 KiB pages" PER=fault ;;
syscall) PROG="lmprocs getppid --calls $PAGES --timing" MASK="--mask syscall" UNIT="getppid() calls"
	PER=call ;;
*) echo "usage: $0 [ROUNDS] [PAGES] [fault|syscall]" >&2; exit 2 ;;
esac

# One run in mode $1; prints "mode=... p50_cycles=... p50_ns=...".
run_mode() {
	local out
	case $1 in
	unloaded) grep -q '^latmon ' /proc/modules && rmmod latmon
		out=$($PROG) ;;
	stopped) grep -q '^latmon ' /proc/modules || insmod "$KO"
		out=$($PROG) ;;
	recording) grep -q '^latmon ' /proc/modules || insmod "$KO"
		out=$(lmtool record $MASK --events /tmp/bench.bin -- $PROG) ;;
	esac
	echo "mode=$1 $(echo "$out" | grep -o 'p50_cycles=[0-9]* p50_ns=[0-9.]*') \
$(echo "$out" | grep -o 'records=[0-9]*')"
}

modes=(unloaded stopped recording)
echo "# kernel $(uname -r), $PAGES $UNIT per run, $ROUNDS rounds"
for r in $(seq 0 $((ROUNDS - 1))); do
	for i in 0 1 2; do
		run_mode "${modes[$(((i + r) % 3))]}"
	done
done | tee runs.txt
grep -q '^latmon ' /proc/modules && rmmod latmon
awk -v per="$PER" '{ split($1, m, "="); split($2, cv, "="); split($3, n, "=");
	k = m[2]; cnt[k]++; cy[k, cnt[k]] = cv[2] + 0; ns[k, cnt[k]] = n[2] + 0 }
function median(a, k, n,    i, j, t, v) {
	for (i = 1; i <= n; i++) v[i] = a[k, i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
		t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
END {
	base = median(cy, "unloaded", cnt["unloaded"])
	split("unloaded stopped recording", order, " ")
	for (i = 1; i <= 3; i++) { k = order[i]; c = median(cy, k, cnt[k])
		printf "%-10s p50/%s %8.0f cycles %9.1f ns  ratio %.3f  (median of %d runs)\n",
			k, per, c, median(ns, k, cnt[k]), c / base, cnt[k] }
}' runs.txt
