#!/bin/bash
# SPDX-License-Identifier: MIT
# The peak resident memory of one command itself (its VmHWM, polled every
# 5 ms), not of its children as /usr/bin/time's %M is:
#
#   scripts/dev/peak-rss.sh latctl run exec -- ./prog
#
# prints "rc=N peak RSS K kB" on stdout; the command's output is dropped.
"$@" >/dev/null 2>&1 &
pid=$!
peak=0
while kill -0 "$pid" 2>/dev/null; do
	v=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	[ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v
	sleep 0.005
done
wait "$pid"
echo "rc=$? peak RSS $peak kB"
