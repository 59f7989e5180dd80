#!/bin/bash
# SPDX-License-Identifier: MIT
# Backend benchmark, run inside the guest by tests/bench/bench-backends.sh: one
# program (lmtouch --pages N --timing: N fresh 4 KiB pages, THP never, each
# touch timed with the TSC, pinned to CPU 1) with nothing attached, latmon
# recording (all sources, lmtool record; the module is loaded for these
# runs only), the BPF backend recording (lmbpf),
# a bpftrace program on the same tracepoint with two map updates, the ftrace
# event exceptions:page_fault_user enabled in tracefs, and a perf tracepoint
# event on it sampled into an mmap ring (lmperf), interleaved over ROUNDS
# rounds (the order rotates each round). Prints one line per run (with what
# each recorder saw), then per mode the median of the runs' p50 per fault,
# its ratio to the median of "nothing", the added time, and the median over
# rounds of the ratio to the "nothing" run of the same round (less moved by
# the host's load drifting between rounds), and the fastest run's p50 and
# its ratio to the fastest "nothing" (on a loaded host a run the host
# disturbed takes up to about twice as long, and the median may fall on
# either side; the fastest is the least disturbed). A mode whose tool is not in
# the guest prints why, once.
#
#   /tests/bench-backends.sh [ROUNDS] [PAGES]
ROUNDS=${1:-5}
PAGES=${2:-20000}
KO=/lib/modules/latmon.ko
TP=exceptions:page_fault_user
EV=/sys/kernel/tracing/events/exceptions/page_fault_user/enable
BT_PROG='tracepoint:exceptions:page_fault_user /pid == cpid/ { @faults[tid] = count(); @last[tid] = nsecs; } END { clear(@last); }'
. "$(dirname "$0")/lib.sh"	# kv_awk, THP
cd /tmp || exit 1
TOUCH=("$(command -v taskset)" -c 1 lmtouch --pages "$PAGES" --timing)

# Why mode $1 cannot run here, or nothing.
missing() {
	case $1 in
	latmon) [ -f "$KO" ] || echo "no latmon.ko for this kernel" ;;
	bpf) command -v lmbpf >/dev/null || echo "lmbpf not in the initramfs" ;;
	bpftrace) command -v bpftrace >/dev/null || echo "bpftrace not in the initramfs (tests/bench/bench-backends.sh --no-bpftrace, or not fetched)" ;;
	ftrace) [ -w "$EV" ] || echo "no $EV" ;;
	perf) command -v lmperf >/dev/null || echo "lmperf not in the initramfs" ;;
	esac
}

# The ftrace event enabled around the program; prints the entries it kept.
ftrace_run() {
	: >/sys/kernel/tracing/trace
	echo 1 >"$EV"
	"${TOUCH[@]}"
	echo 0 >"$EV"
	echo "ftrace: entries=$(awk '/^entries:/ { n += $2 } END { print n + 0 }' \
		/sys/kernel/tracing/per_cpu/cpu*/stats) overrun=$(awk '/^overrun:/ { n += $2 } \
		END { print n + 0 }' /sys/kernel/tracing/per_cpu/cpu*/stats)"
}

# The program in mode $1, with its recorder's output.
run_mode() {
	case $1 in
	nothing) "${TOUCH[@]}" ;;
	latmon) insmod "$KO" && lmtool record --events /tmp/bench.bin -- "${TOUCH[@]}"
		rmmod latmon ;;
	bpf) lmbpf -- "${TOUCH[@]}" ;;
	bpftrace) bpftrace -e "$BT_PROG" -c "${TOUCH[*]}" 2>&1 ;;
	ftrace) ftrace_run ;;
	perf) lmperf "$TP" -- "${TOUCH[@]}" ;;
	esac
}

# One run in mode $1 of round $2: "round=... mode=... p50_cycles=...
# p50_ns=... <what it saw>".
one_run() {
	local out seen
	out=$(run_mode "$1")
	seen=$(echo "$out" | grep -o 'records=[0-9]*\|records_read=[0-9]*\|lost[a-z_]*=[0-9]*\|samples=[0-9]*\|entries=[0-9]*\|overrun=[0-9]*' | tr '\n' ' ')
	[ "$1" = bpftrace ] && seen="faults=$(echo "$out" | sed -n 's/^@faults\[[0-9]*\]: //p' | head -1)"
	echo "round=$2 mode=$1 $(echo "$out" | grep -o 'p50_cycles=[0-9]* p50_ns=[0-9.]*') $seen"
}

modes=()
for m in nothing latmon bpf bpftrace ftrace perf; do
	why=$(missing "$m")
	if [ -n "$why" ]; then echo "# $m: not run: $why"; else modes+=("$m"); fi
done
grep -q '^latmon ' /proc/modules && rmmod latmon	# loaded only while it records
echo never >"$THP"
echo "# kernel $(uname -r), $(nproc) CPUs, $ROUNDS rounds of ${modes[*]}; $PAGES fresh 4 KiB pages per run (THP never), lmtouch on CPU 1"
n=${#modes[@]}
for r in $(seq 0 $((ROUNDS - 1))); do
	for i in $(seq 0 $((n - 1))); do
		one_run "${modes[$(((i + r) % n))]}" "$r"
	done
done | tee runs.txt
echo madvise >"$THP"
kv_awk -v order="${modes[*]}" -v rounds="$ROUNDS" '{ k = f["mode"]; cnt[k]++
	cy[k, cnt[k]] = f["p50_cycles"] + 0; ns[k, cnt[k]] = f["p50_ns"] + 0; rc[k, f["round"]] = f["p50_cycles"] + 0
	if (!(k in lo) || f["p50_cycles"] + 0 < lo[k]) lo[k] = f["p50_cycles"] + 0 }
function median(a, k, n,    i, j, x, v) {
	for (i = 1; i <= n; i++) v[i] = a[k, i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
		x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
# the median over rounds of mode k against "nothing" in the same round
function paired(k,    r, n, q) {
	for (r = 0; r < rounds; r++) if ((k, r) in rc && ("nothing", r) in rc)
		q["x", ++n] = rc[k, r] / rc["nothing", r]
	return median(q, "x", n) }
END {
	m = split(order, o, " "); base = median(cy, "nothing", cnt["nothing"]); bns = median(ns, "nothing", cnt["nothing"])
	for (i = 1; i <= m; i++) { c = median(cy, o[i], cnt[o[i]]); t = median(ns, o[i], cnt[o[i]])
		printf "%-9s p50/fault %8.0f cycles %9.1f ns  ratio %.3f  added %+8.1f ns  per-round ratio %.3f  fastest %8.0f cycles, ratio %.3f  (%d runs)\n",
			o[i], c, t, c / base, t - bns, paired(o[i]), lo[o[i]], lo[o[i]] / lo["nothing"], cnt[o[i]] }
}' runs.txt
