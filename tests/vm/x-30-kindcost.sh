# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The cost of a fault's kind with latmon, in one boot: lmtouch times each
# of 20000 fresh 4 KiB pages (p50 per fault, TSC), recorded by latmon with
# the kind read from the page table (fault_kinds=1) and without (0), and
# not recorded at all, interleaved over ROUNDS rounds. An experiment
# (tests/BENCHMARKS.md, "Fault kinds"): `make bench-kinds` boots it.
# Sourced by suite.sh x, or alone.
ROUNDS=${LATMON_KIND_ROUNDS:-7}
P=/sys/module/latmon/parameters/fault_kinds

# p50 MODE: lmtouch's p50 ns per fault, recorded by latmon in MODE (1, 0) or not (-).
p50() {
	if [ "$1" = - ]; then
		lmtouch --pages 20000 --timing
	else
		echo "$1" >$P
		lmtool record --events kc.bin -- lmtouch --pages 20000 --timing
	fi 2>&1 | sed -n 's/.*p50_ns=\([0-9.]*\).*/\1/p'
}

load
ok "latmon has the fault_kinds parameter" [ -w "$P" ]
: >kc.txt
for _ in $(seq "$ROUNDS"); do
	for m in 1 0 -; do echo "$m $(p50 "$m")" >>kc.txt; done
done
echo 1 >$P
med() { awk -v m="$1" '$1 == m { print $2 }' kc.txt | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
with=$(med 1) without=$(med 0) none=$(med -)
echo "# p50 ns per 4 KiB fault over $ROUNDS rounds: with kinds $with, without $without, not recorded $none"
echo "# kinds: $(awk -v a="$with" -v b="$without" 'BEGIN { printf "%+.0f ns (%+.1f%%)", a - b, 100 * (a - b) / b }')"
ok "all three timed" [ -n "$with" ] && [ -n "$without" ] && [ -n "$none" ]
