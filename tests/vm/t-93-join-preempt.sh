# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# A busy loop pinned to the measured CPU: the slow iterations are labelled
# preemption and name it as the task that ran. Sourced by suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

load
# spins until killed after the run, however slow the guest
bg spin --cpu 0 --seconds 3600 --name hog >/dev/null
hog=$!
sleep 0.3
ok "latctl run chase --mode populate --cpu 0 next to a hog on CPU 0" \
	jrun preempt chase --mode populate --cpu 0 --iters 200000
kill "$hog" 2>/dev/null
wait "$hog" 2>/dev/null
n=$(jcount preempt 'f["primary"] == "preemption"')
h=$(jcount preempt 'f["primary"] == "preemption" && f["preempted_by.comm"] == "hog"')
ok "$n slow iterations are labelled preemption (want at least 10)" [ "$n" -ge 10 ]
ok "$h of the $n name the hog as the task that ran (want at least 90%)" \
	[ $((10 * h)) -ge $((9 * n)) ]
