# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Over every run of t-91..t-93 (5 runs and t-93-join-nmi's): each slow iteration's breakdown adds up to
# its duration, tick for tick; and the run's fault events equal its
# getrusage minor-fault delta. Sourced by suite.sh.
#
# Tolerance of the fault count: 0.5% of the getrusage delta, at least 2.
# Both count the same faults of this process (latctl counts fault records
# that neither retried nor failed, as getrusage does) over the same window
# (between the two getrusage calls around the loop, by TSC), so they should
# agree exactly; the slack covers a fault that straddles a window edge.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

# Slow iterations of NAME whose breakdown_ticks do not add up to duration_ticks.
sum_mismatches() {
	jcheck sums "$1.json" slow.iterations breakdown_ticks |
		kv_awk 'f["duration_ticks"] != f["sum"] { print; n++ } END { print n + 0 }' | tail -n 1
}
export -f sum_mismatches

for run in $JOIN_RUNS; do
	listed=$(jget "$run" slow.listed)
	check "$run: the breakdown of each of its $listed slow iterations adds up to its duration" \
		"sum_mismatches $run" 0 '^0$'
	ev=$(jget "$run" causes.faults_in_loop)
	ru=$(jget "$run" counters.minor_faults)
	tol=$((ru / 200 > 2 ? ru / 200 : 2))
	d=$((ev > ru ? ev - ru : ru - ev))
	ok "$run: fault events $ev vs getrusage minor faults $ru (within $tol)" [ "$d" -le "$tol" ]
done
ok "the join runs above all wrote a result ($(echo "$JOIN_RUNS" | wc -w) of $JOIN_TRIED)" \
	[ "$(echo "$JOIN_RUNS" | wc -w)" = "$JOIN_TRIED" ] && [ "$JOIN_TRIED" -ge 5 ]
