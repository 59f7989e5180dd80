# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Experiment (not in the suite: suite.sh x): the faults latctl run exec
# sets apart on the markers ring of markers_prog fault 3000, twelve runs,
# against the stream's faults and the program's getrusage. Sourced by
# suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"
load
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
	"$LATCTL" run exec --quiet --json r$k.json --slow p90 -- markers_prog fault 3000 >r$k.out 2>r$k.err
	echo "# run $k: ring_faults $(jget r$k extras.markers.ring_faults) populated $(jget r$k extras.markers.populated_pages) stream_faults $(jget r$k causes.stream_faults.0.fault_events) minflt $(sed -n 's/^minflt //p' r$k.out) lost_latmon $(jget r$k latmon.lost_by_latmon) lost_latctl $(jget r$k latmon.lost_by_latctl) incomplete $(jcount r$k 'f["primary"] == "incomplete"')"
done
