# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# --memcg 64M (the size latctl's help gives) with each workload's default
# iterations: latctl's own memory (samples, event buffer) stays outside the
# cgroup, so grow, request and alloc run to their report with no OOM kill;
# chase cold, whose loop faults in its 64 MiB table, is refused before the
# run with the size it needs, and runs at that size. mmap is bounded by
# --duration (its million default operations take minutes under emulation).
# On 6.12 only, where the OOM kill was seen. Sourced by suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

case $(uname -r) in
6.12.*)
	load
	for wl in grow request alloc "mmap --duration 3s"; do
		name=cg-${wl%% *}
		# shellcheck disable=SC2086
		ok "latctl run $wl --memcg 64M: exit 0 with its result" jrun "$name" $wl --memcg 64M
		check "$wl: the 64M limit, no OOM, the cgroup removed" \
			"jget $name mm.memcg.oom_events; jget $name mm.memcg.limit_bytes; ls -d /sys/fs/cgroup/latctl-* 2>/dev/null | wc -l" 0 \
			'^0
67108864
0$'
	done
	check "grow ran all its default pushes" "jget cg-grow run.iterations" 0 '^4000000$'
	check_err "chase --memcg 64M: refused before the run, with the size it needs" \
		"$LATCTL run chase --memcg 64M" 2 \
		'^latctl: --memcg 64M is too small: chase \(mode cold, --iters 1000000\) faults in about 64 MiB during its loop; give --memcg 72M or more'
	ok "chase --memcg 72M (the size it named) runs, no OOM" \
		jrun cg-chase chase --memcg 72M --iters 100000
	check "chase at 72M: no OOM kill" "jget cg-chase mm.memcg.oom_events" 0 '^0$'
	# shellcheck disable=SC2034 # read by t-94, sourced into this shell
	JOIN_RUNS="" JOIN_TRIED=0	# t-94 adds up the join runs of t-91..t-93
	;;
*)
	echo "# t-90: --memcg 64M runs on 6.12 only"
	;;
esac
