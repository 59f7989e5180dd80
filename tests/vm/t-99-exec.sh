# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# exec with latmon: a program of the user's own (tests/exec/markers_prog.c,
# linked with liblatctl) whose marked iterations touch fresh pages has its
# slow iterations labelled fault, with as many fault records as its
# getrusage counts, less the pages of its markers' region (faulted in by
# MADV_POPULATE_WRITE: latmon records them, and latctl sets them apart);
# sleeping iterations are blocked; 8 threads make 8 streams; a program
# without markers (tests/exec/calls.c) has its system calls as iterations,
# the slow ones munmap. Sourced by suite.sh. --slow p90 as in t-92: under
# TCG a timer interrupt costs milliseconds.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

# xrun NAME ARGS...: latctl run exec ARGS; the command's stdout in NAME.out.
xrun() {
	local name=$1
	shift
	"$LATCTL" run exec --quiet --json "$name.json" "$@" >"$name.out" 2>"$name.err"
	local rc=$?
	sed 's/^/# latctl: /' "$name.err"
	return "$rc"
}

load
ok "a marked loop of first touches with latmon" xrun x-fault --slow p90 -- markers_prog fault 3000
ok "... recorded with latmon" recorded x-fault
ok "... every marked iteration a sample" [ "$(jget x-fault run.iterations)" = 3000 ]
slow=$(jget x-fault causes.slow_iterations)
n=$(jcount x-fault 'f["primary"] == "fault"')
ok "... $n of $slow slow iterations are primarily faults (want more than half)" \
	[ "$slow" -gt 0 -a $((2 * n)) -gt "$slow" ]
minflt=$(sed -n 's/^minflt //p' x-fault.out)
sf=$(jget x-fault causes.stream_faults.0.fault_events)
pop=$(jget x-fault extras.markers.populated_pages)
ring=$(jget x-fault extras.markers.ring_faults)
ok "... fault records ($sf) + region pages ($pop) = the program's getrusage ($minflt), within 1%" \
	[ $((sf + pop)) -ge $((minflt - minflt / 100 - 10)) -a $((sf + pop)) -le $((minflt + minflt / 100 + 10)) ]
ok "... the region's faults ($ring) set apart, as many as its pages ($pop)" \
	[ "$ring" -ge $((pop - pop / 100)) -a "$ring" -le $((pop + 2)) ]

ok "marked sleeps with latmon" xrun x-sleep --slow 2ms -- markers_prog sleep 20
n=$(jcount x-sleep 'f["primary"] == "blocked"')
ok "... $n of 20 are blocked (want 18)" [ "$n" -ge 18 ]

ok "8 threads with latmon" xrun x-threads -- markers_prog threads 8 500
ok "... 8 streams, 4000 iterations" \
	[ "$(jget x-threads extras.threads)" = 8 -a "$(jget x-threads run.iterations)" = 4000 ]

ok "a program without markers with latmon" xrun x-calls --slow p99 -- calls 6
ok "... its system calls are the iterations" [ "$(jget x-calls extras.source)" = syscalls ]
slow=$(jget x-calls causes.slow_iterations)
n=$(jcheck rows x-calls.json slow.iterations | kv_awk '/syscall\.name=munmap/ { n++ } END { print n + 0 }')
ok "... $n of the $slow slow calls are munmap (want all but one)" [ "$slow" -gt 0 -a "$n" -ge $((slow - 1)) ]
