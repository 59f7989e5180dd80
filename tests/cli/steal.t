#!/bin/bash
# SPDX-License-Identifier: MIT
# Steal with the BPF backend on this machine (skipped where the kernel keeps
# no steal clock, or no hypervisor has taken a CPU away since boot): the
# clock latctl reads is the one /proc/stat's steal column counts, the steal
# it records is never more than /proc/stat counted over the command, and the
# report says how many readings moved. Where the join places steal is
# tested on synthetic records (tests/unit/test_steal.c).
. "$(dirname "$0")/engine.sh"

L=$LATCTL
caps=$("$L" backends)
case $caps in
*"bpf: yes"*) ;;
*) skip_all "the BPF backend is not permitted here: ${caps#*bpf: no }" ;;
esac
grep -qa prev_steal_time_rq /sys/kernel/btf/vmlinux ||
	skip_all "this kernel keeps no steal clock in its run queues (CONFIG_PARAVIRT_TIME_ACCOUNTING)"
[ "$(awk '/^cpu / { print $9 }' /proc/stat)" -gt 0 ] ||
	skip_all "no steal seen: /proc/stat's steal column is 0 (no hypervisor took a CPU away since boot)"

TICK_MS=$((1000 / $(getconf CLK_TCK)))
CPU=$(($(nproc) - 1))
# "cpuN ticks" of every CPU's steal column
steal_col() { awk '/^cpu[0-9]/ { print $1, $9 }' /proc/stat; }

steal_col > "$TMPD/before"
"$L" run chase --mode cold --iters 300000 --cpu "$CPU" --backend bpf --json "$TMPD/s.json" \
	> "$TMPD/s.txt" 2>&1
rc=$?
steal_col > "$TMPD/after"
ok "chase cold with the BPF backend ran (exit $rc)" test "$rc" = 0

S() { json_get "$TMPD/s.json" backend bpf steal "$@"; }
reads=$(S reads) records=$(S records) recorded=$(S recorded_ns)
echo "# steal: $reads readings, $records moved, $recorded ns recorded;" \
	"/proc/stat before: $(tr '\n' ' ' < "$TMPD/before"); after: $(tr '\n' ' ' < "$TMPD/after")"
ok "the steal clock was read at the thread's switches and ticks ($reads)" test "$reads" -gt 0

# clock_at_last_ns of each CPU lies between that CPU's /proc/stat figures
# before and after the command: the same clock, /proc/stat in ticks of
# TICK_MS; the margin of two ticks holds a tick of truncation either side.
clock_ok() {
	local cpu ns b a
	for cpu in $(S clock_at_last_ns | perl -MJSON::PP -e 'print join(" ", keys %{decode_json(<>)})'); do
		ns=$(S clock_at_last_ns "$cpu")
		b=$(awk -v c="cpu$cpu" '$1 == c { print $2 }' "$TMPD/before")
		a=$(awk -v c="cpu$cpu" '$1 == c { print $2 }' "$TMPD/after")
		echo "cpu$cpu: clock $ns ns, /proc/stat $b .. $a ticks"
		between "$ns" "$(((b - 2) * TICK_MS * 1000000))" "$(((a + 2) * TICK_MS * 1000000))" || return 1
	done
}
ok "each CPU's steal clock agrees with /proc/stat's steal column" clock_ok

# The records hold steal while the thread ran: at most what /proc/stat
# counted on every CPU over the whole command, plus a tick of truncation.
sum() { awk '{ s += $2 } END { print s }' "$1"; }
delta_ns=$((($(sum "$TMPD/after") - $(sum "$TMPD/before") + 1) * TICK_MS * 1000000))
ok "recorded steal ($recorded ns) is no more than /proc/stat's ($delta_ns ns)" \
	between "$recorded" 0 "$delta_ns"
in_slow=$(json_get "$TMPD/s.json" causes events steal_in_slow_ns)
ok "steal placed in slow iterations ($in_slow ns) is part of it" \
	awk -v p="$in_slow" -v r="$recorded" 'BEGIN { exit !(p <= r + 1) }'
check "the report says how many readings moved" "cat $TMPD/s.txt" 0 \
	"~ estimated: where steal fell: $reads readings of the steal clock .*, $records of them moved"
done_testing
