#!/bin/bash
# SPDX-License-Identifier: MIT
# Limits checked before the work, and signals that say what they stopped:
# --iters beyond this machine's memory and beyond ulimit -v refused with
# the size needed; --backend bpf asked for with ulimit -n 16 exits 1 and
# names the descriptors; an unprivileged --thp-size says one line and
# warns of no restore; SIGINT during set-up says nothing was measured
# and puts THP back; SIGTERM to --repeat keeps the runs done (exit 143).
. "$(dirname "$0")/../cli/engine.sh"

L=$LATCTL
F=$TMPD/thp
export LATCTL_STATE_DIR=$TMPD/state
mkdir -p "$F"
echo 'always [madvise] never' > "$F/enabled"
echo 'always defer defer+madvise [madvise] never' > "$F/defrag"

avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
# (a box with more than 44.7 GiB available runs 1e9 iterations: no check)
[ "$avail_kb" -lt 46875000 ] && check_err "--iters 1e9: refused before the work, with the memory it needs" \
	"$L run grow --iters 1000000000 --backend none" 1 \
	'--iters 1000000000 needs about 44\.7 GiB \(48 bytes an iteration\); .* available here: give --iters [0-9]+ or fewer'
check_err "--iters over ulimit -v: the limit named" \
	"ulimit -v 200000; $L run grow --iters 10000000 --backend none" 1 \
	'over the address-space limit \(ulimit -v\) of 195 MiB'
if $L backends 2>/dev/null | grep -q 'bpf: yes'; then
	check "--backend bpf with ulimit -n 16: exit 1, the reason named, no run without it" \
		"ulimit -n 16; $L run grow --iters 1000 --backend bpf --quiet" 1 \
		'--backend bpf cannot record here .*too many open files: ulimit -n is 16'
fi

if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && su nobody -s /bin/sh -c "test -x $L"; then
	check_err "--thp-size as user nobody: one line, and no 'could not restore' for what it never changed" \
		"su nobody -s /bin/sh -c '$L run grow --thp-size 64K=always --iters 1000 --backend none --quiet'" 1 \
		'--thp-size: cannot write .*hugepages-64kB/enabled: Permission denied'
fi

# a set-up long enough to be interrupted: 200 M samples (9 GiB), or what
# half of this machine's available memory holds
setup_iters=$((avail_kb * 1024 / 48 / 2))
[ "$setup_iters" -gt 200000000 ] && setup_iters=200000000
LATCTL_SYSFS_THP=$F $L run grow --iters $setup_iters --backend none --thp always > "$TMPD/setup.out" 2>&1 & pid=$!
for _ in $(seq 100); do grep -qx always "$F/enabled" && break; sleep 0.05; done
kill -INT $pid; wait $pid; rc=$?
ok "SIGINT during set-up (mapping $setup_iters samples): exit 130" test "$rc" = 130
ok "... said: nothing measured" grep -q '^latctl: stopped by SIGINT during set-up: nothing measured' "$TMPD/setup.out"
ok "... THP put back" grep -Eqx 'madvise|.*\[madvise\].*' "$F/enabled"

$L run grow --repeat 8 --iters 3000000 --backend none --json "$TMPD/rep.json" > "$TMPD/rep.out" 2>&1 & pid=$!
# run 1 is done once the series' child process is another (each run of
# 3 M pushes takes about a second: the poll of 50 ms sees each)
first=""
for _ in $(seq 1200); do
	c=$(pgrep -P $pid | head -n 1)
	[ -n "$c" ] && [ -z "$first" ] && first=$c
	[ -n "$c" ] && [ "$c" != "$first" ] && break
	sleep 0.05
done
echo "# runs' processes: first $first, now ${c:-none}"
kill -TERM $pid; wait $pid; rc=$?
ok "SIGTERM to --repeat: exit 143" test "$rc" = 143
ok "... says how many runs it kept" grep -Eq '^latctl: --repeat: stopped by SIGTERM after [1-9] of 8 runs; the report covers those' "$TMPD/rep.out"
ok "... and its report says so" grep -Eq '^INTERRUPTED by SIGTERM: the [1-9] of 8 runs measured so far' "$TMPD/rep.out"
ok "... the result holds those runs, stopped_by SIGTERM" \
	test "$(json_get "$TMPD/rep.json" repeat stopped_by) $(json_get "$TMPD/rep.json" exit_code)" = "SIGTERM 143"
ok "... and no scratch directory is left" bash -c "! ls -d $TMPD/.latctl-repeat.* 2>/dev/null"
done_testing
