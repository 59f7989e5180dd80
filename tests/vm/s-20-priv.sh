# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Privilege matrix: root succeeds; uid 1000, root with only
# CAP_PERFMON, uid 1000 with CAP_PERFMON, root of a user namespace and a
# process in another network namespace are refused by /dev/latmon and by
# every netlink operation, and change nothing (a session runs meanwhile).
# Sourced by suite.sh s.

load
bg sleep 600
idle=$!
lmtool start --tgid "$idle"
check "root: GET_INFO shows the session" "lmtool info" 0 "running 1 tgid $idle"
check "root: GET_STATS answers" "lmtool stats" 0 '^total recorded='
check "root: /dev/latmon opens" "lmtool read --nonblock --count" 0 '^records='

# Identity NAME, the prefix that runs a command as it, and a proof it is that.
while read name prefix proof want; do	# backslash-escaped spaces
	check "$name: runs as intended ($proof)" "$prefix $proof" 0 "$want"
	check "$name: /dev/latmon is refused" "$prefix lmtool read --nonblock" 1 \
		'open /dev/latmon: (Permission denied|Operation not permitted)'
	for op in info stats stop "start --tgid $idle"; do
		check "$name: ${op%% *} is refused" "$prefix lmtool $op" 1 \
			'(Operation not permitted|cannot reach the latmon family)'
	done
	check "$name: a raw START with a valid tgid is refused" \
		"$prefix lmtool raw start tgid=u32:$idle" 1 \
		'(^rejected: Operation not permitted|cannot reach the latmon family)'
	check "$name: nothing changed (the session still runs)" "lmtool info" 0 "running 1 tgid $idle"
done <<-LIST
	uid-1000 stress\ as\ 1000\ -- id\ -u ^1000$
	root-with-only-CAP_PERFMON stress\ as\ 0\ perfmon\ -- grep\ CapEff\ /proc/self/status CapEff:.0000004000000000
	uid-1000-with-CAP_PERFMON stress\ as\ 1000\ perfmon\ -- grep\ CapEff\ /proc/self/status CapEff:.0000004000000000
	root-of-a-user-namespace unshare\ -Ur cat\ /proc/self/uid_map ^\ *0\ +0\ +1$
	root-in-another-netns unshare\ -n sh\ -c\ 'readlink\ /proc/self/ns/net;readlink\ /proc/1/ns/net'\ |\ uniq\ |\ wc\ -l ^2$
LIST
check "the family is not visible from another network namespace" \
	"unshare -n lmtool info" 1 'cannot reach the latmon family: No such file or directory'
lmtool stop
kill "$idle" 2>/dev/null
check "root: the module is idle again" "lmtool info" 0 'running 0 tgid 0'
