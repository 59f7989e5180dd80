# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# A target in a pid namespace, as include/latmon.h documents: START looks
# the tgid up in the caller's pid namespace, and records carry ids as seen
# from there. From inside a new pid namespace: the target's records carry
# its namespace pid, and a tgid that exists only outside is refused. From
# the initial namespace: a process inside a pid namespace is recorded under
# its global pid. Sourced by suite.sh.
load

# In a new pid namespace: lmtool is pid 1 there, its target a small pid.
unshare -pf lmtool record --mask fault,sched --events pidns.bin -- lmtouch --pages 200 \
	>pidns.out 2>&1
sed 's/^/# /' pidns.out
nspid=$(field pid <pidns.out)
check "inside a pid namespace: the target gets a namespace pid ($nspid)" \
	"echo $nspid" 0 '^[2-9]$'
check "inside a pid namespace: every fault and sched record carries it" \
	"count_where pidns.bin '(\$1 == \"fault\" || \$1 == \"sched\") && f[\"pid\"] != $nspid'" 0 '^0$'
check "inside a pid namespace: the faults are recorded" \
	"count_where pidns.bin '\$1 == \"fault\"'" 0 '^[1-9][0-9]+$'
check "inside a pid namespace: tasks outside it appear as other_pid 0" \
	"count_where pidns.bin '\$1 == \"sched\" && f[\"other_pid\"] + 0 > 10'" 0 '^0$'

sleep 30 &
outside=$!
BG_PIDS="$BG_PIDS $outside"
check_err "inside a pid namespace: a tgid that exists only outside it is refused" \
	"unshare -pf lmtool start --tgid $outside" 1 'no process with this tgid in the caller.s pid namespace'
check "the refused START changed nothing" "lmtool info" 0 'running 0'

# From the initial namespace: the child of unshare -pf is pid 1 inside.
# It waits for the file go (same mount namespace), so START comes first;
# with shell builtins only: a forked sleep would be followed and recorded.
rm -f go
unshare -pf sh -c 'until [ -e go ]; do :; done; exec lmtouch --pages 300' \
	>/dev/null 2>&1 &
for _ in $(seq 50); do	# the forked child of unshare, by its parent pid
	inner=$(cat /proc/[0-9]*/stat 2>/dev/null | awk -v pp=$! '$4 == pp { print $1 }')
	[ -n "$inner" ] && break
	sleep 0.1
done
check "from the initial namespace: START on a process inside a pid namespace ($inner)" \
	"lmtool start --tgid $inner --mask fault" 0 ''
: >go
wait $!
lmtool stop >/dev/null
lmtool read >pidns-global.txt 2>&1
check "its records carry its global pid" \
	"awk '\$1 == \"fault\"' pidns-global.txt | grep -c ' pid=$inner '" 0 '^[1-9][0-9]+$'
check "and no other" \
	"awk '\$1 == \"fault\"' pidns-global.txt | grep -vc ' pid=$inner '" 1 '^0$'
