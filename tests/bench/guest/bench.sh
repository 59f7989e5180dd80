#!/bin/bash
# SPDX-License-Identifier: MIT
# Probe-cost benchmark, run inside the guest by tests/bench/bench-probe-cost.sh:
# the same fault-heavy programs with latmon not loaded, loaded but stopped,
# recording with the four original sources (fault, thp-clear, sched, irq)
# and recording with all (also alloc-zero, compaction, reclaim), interleaved
# over ROUNDS rounds (the order rotates each round). Two programs: PAGES
# fresh 4 KiB pages (lmtouch --pages N --timing, THP never) and HUGE fresh
# 2 MiB regions (lmtouch --huge M --timing, THP always). Prints one line per
# run, then per program and mode the median of the runs' p50 per fault and
# its ratio to "not loaded".
#
#   /tests/bench.sh [ROUNDS] [PAGES] [HUGE]
ROUNDS=${1:-5}
PAGES=${2:-20000}
HUGE=${3:-32}
KO=/lib/modules/latmon.ko
. "$(dirname "$0")/lib.sh"	# kv_awk
cd /tmp || exit 1

# The touch program of kind $1 (4k or huge).
touch_args() {
	if [ "$1" = huge ]; then echo "--huge $HUGE --timing"; else echo "--pages $PAGES --timing"; fi
}

# One run of kind $1 in mode $2; prints "kind=... mode=... p50_cycles=... p50_ns=...".
run_mode() {
	local kind=$1 mode=$2 out args
	args=$(touch_args "$kind")
	case $mode in
	unloaded) grep -q '^latmon ' /proc/modules && rmmod latmon
		out=$(lmtouch $args) ;;
	stopped) grep -q '^latmon ' /proc/modules || insmod "$KO"
		out=$(lmtouch $args) ;;
	rec-base) grep -q '^latmon ' /proc/modules || insmod "$KO"
		out=$(lmtool record --mask fault,thp-clear,sched,irq --events /tmp/bench.bin -- lmtouch $args) ;;
	rec-all) grep -q '^latmon ' /proc/modules || insmod "$KO"
		out=$(lmtool record --events /tmp/bench.bin -- lmtouch $args) ;;
	esac
	echo "kind=$kind mode=$mode $(echo "$out" | grep -o 'p50_cycles=[0-9]* p50_ns=[0-9.]*') \
$(echo "$out" | grep -o 'records=[0-9]*')"
}

modes=(unloaded stopped rec-base rec-all)
echo "# kernel $(uname -r) ($(grep -o 'init_on_alloc=[01]' /proc/cmdline || echo 'stock arguments')), $ROUNDS rounds:"
echo "# 4k: $PAGES fresh 4 KiB pages per run (THP never); huge: $HUGE fresh 2 MiB regions (THP always)"
for kind in 4k huge; do
	[ "$kind" = huge ] && echo always >"$THP" || echo never >"$THP"
	for r in $(seq 0 $((ROUNDS - 1))); do
		for i in 0 1 2 3; do
			run_mode "$kind" "${modes[$(((i + r) % 4))]}"
		done
	done
done | tee runs.txt
echo madvise >"$THP"
grep -q '^latmon ' /proc/modules && rmmod latmon
kv_awk '{ k = f["kind"] SUBSEP f["mode"]; cnt[k]++
	cy[k, cnt[k]] = f["p50_cycles"] + 0; ns[k, cnt[k]] = f["p50_ns"] + 0 }
function median(a, k, n,    i, j, x, v) {
	for (i = 1; i <= n; i++) v[i] = a[k, i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
		x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
END {
	split("4k huge", kinds, " "); split("unloaded stopped rec-base rec-all", order, " ")
	for (j = 1; j <= 2; j++) {
		base = median(cy, kinds[j] SUBSEP "unloaded", cnt[kinds[j] SUBSEP "unloaded"])
		for (i = 1; i <= 4; i++) { k = kinds[j] SUBSEP order[i]; c = median(cy, k, cnt[k])
			printf "%-4s %-9s p50/fault %10.0f cycles %11.1f ns  ratio %.3f  (median of %d runs)\n",
				kinds[j], order[i], c, median(ns, k, cnt[k]), c / base, cnt[k] }
	}
}' runs.txt
