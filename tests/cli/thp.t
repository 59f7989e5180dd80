#!/bin/bash
# SPDX-License-Identifier: MIT
# --thp / --no-thp: the previous THP setting comes back after a normal run,
# an error, SIGINT and SIGTERM. Most tests use a fake sysfs directory
# ($LATCTL_SYSFS_THP); the last ones use the real one, as root.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
F=$TMPD/thp
mkdir "$F"
reset_fake() {
	echo 'always [madvise] never' > "$F/enabled"
	echo 'always defer defer+madvise [madvise] never' > "$F/defrag"
}
fake_is() { grep -qx -- "$1" "$F/enabled"; }

reset_fake
check "--thp always is in effect during the run" \
	"LATCTL_SYSFS_THP=$F $L run grow --thp always --iters 1000" 0 'THP enabled=always defrag=madvise'
ok "after a normal run the setting is madvise again" fake_is madvise

reset_fake
check "the run fails after --thp was applied (its command, exit 3)" \
	"LATCTL_SYSFS_THP=$F $L run exec --thp never --quiet -- sh -c 'cat $F/enabled; exit 3'" 3 '^never$'
ok "after the error the setting is madvise again" fake_is madvise

check_err "--thp without THP support in the kernel" \
	"LATCTL_SYSFS_THP=$TMPD/nothp $L run grow --thp always --iters 1000" 1 \
	'this kernel has no transparent huge pages .*enabled is missing'

# kill mid-run: wait until the fake file says "always", then signal
kill_mid_run() {	# SIGNAL -> prints exit status of latctl
	local pid
	LATCTL_SYSFS_THP=$F "$L" run grow --thp always --iters 30000000 \
		--json "$TMPD/killed.json" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 1000); do
		grep -qx always "$F/enabled" 2>/dev/null && break
		sleep 0.01
	done
	kill "-$1" "$pid"
	wait "$pid"
	echo $?
}
for sig in INT TERM; do
	reset_fake
	rc=$(kill_mid_run $sig)
	ok "SIGINT/SIGTERM: latctl died of SIG$sig (status $rc)" \
		test "$rc" = $((128 + $(kill -l $sig)))
	ok "after SIG$sig the setting is madvise again" fake_is madvise
	ok "after SIG$sig no JSON and no temporary file is left" \
		bash -c "! ls '$TMPD' | grep -q killed"
done

# two runs with --thp at once: the second waits, both restore correctly
reset_fake
LATCTL_SYSFS_THP=$F "$L" run grow --thp always --iters 20000000 --quiet &
first=$!
for _ in $(seq 1000); do fake_is always && break; sleep 0.01; done
check "a second --thp run waits for the first" \
	"LATCTL_SYSFS_THP=$F $L run grow --thp never --iters 1000" 0 \
	'waiting for another latctl run \(pid [0-9]+ .*--thp always.*\) to put back the settings it changed'
wait "$first"
ok "after two overlapping runs the setting is madvise again" fake_is madvise

REAL=/sys/kernel/mm/transparent_hugepage/enabled
if [ "$(id -u)" != 0 ]; then
	check_err "--thp as a normal user" "$L run grow --thp always --iters 1000" 1 \
		'--thp always needs root: .*run as root \(without root'
	done_testing
	exit
fi
if command -v setpriv >/dev/null; then
	check_err "--thp as user nobody" \
		"setpriv --reuid=nobody --regid=nogroup --clear-groups $L run grow --thp always --iters 1000" 1 \
		'--thp always needs root: .*run as root \(without root a run gets huge pages only where THP is already always\)$'
	check_err "--thp never as user nobody: --no-thp does that without root" \
		"setpriv --reuid=nobody --regid=nogroup --clear-groups $L run grow --thp never --iters 1000" 1 \
		'--thp never needs root: .*or use --no-thp \(no huge pages for this run only, no root needed\)$'
fi
[ -w "$REAL" ] || { done_testing; exit; }

# real sysfs, as root: set madvise, kill a --thp always run, expect madvise
real_value() { sed 's/.*\[\(.*\)\].*/\1/' "$REAL"; }
orig=$(real_value)
trap 'echo "$orig" > "$REAL"; rm -rf "$TMPD"' EXIT
echo madvise > "$REAL"
"$L" run grow --thp always --iters 30000000 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1000); do
	[ "$(real_value)" = always ] && break
	sleep 0.01
done
ok "real sysfs: the run had set always" test "$(real_value)" = always
kill -TERM "$pid"
wait "$pid"
ok "real sysfs: SIGTERM mid-run puts madvise back" test "$(real_value)" = madvise
check "real sysfs: --thp never for a normal run" "$L run grow --thp never --iters 1000" 0 \
	'THP enabled=never'
ok "real sysfs: madvise again after the normal run" test "$(real_value)" = madvise
# --no-thp must matter: with THP always the same run gets huge pages without it
check "real sysfs: --thp always maps huge pages" "$L run grow --thp always --iters 2000000" 0 \
	'AnonHugePages [1-9][0-9]* kB after the loop'
check "real sysfs: --thp always --no-thp maps none" \
	"$L run grow --thp always --no-thp --iters 2000000" 0 'AnonHugePages 0 kB after the loop'
ok "real sysfs: madvise again after both" test "$(real_value)" = madvise
done_testing
