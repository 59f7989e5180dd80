# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# chase: with --mode cold the timed loop pays the page faults of its table
# and fault labels dominate the tail; with --mode populate mmap paid them
# and almost no slow iteration is a fault. Sourced by suite.sh.
# --slow p90: under TCG a timer interrupt costs milliseconds, so the p99.9
# tail of 20000 iterations is interrupts; the tail of interest is wider.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

load
ok "latctl run chase --mode cold with latmon" \
	jrun chase-cold chase --mode cold --iters 20000 --slow p90
ok "latctl run chase --mode populate with latmon" \
	jrun chase-pop chase --mode populate --iters 20000 --slow p90
slow=$(jget chase-cold slow.count)
n=$(jcount chase-cold 'f["primary"] == "fault"')
ok "chase --mode cold: $n of $slow slow iterations are primarily faults (want more than half)" \
	[ "$slow" -gt 0 -a $((2 * n)) -gt "$slow" ]
slow=$(jget chase-pop slow.count)
n=$(jcount chase-pop 'f["primary"] == "fault"')
ok "chase --mode populate: $n of $slow slow iterations are primarily faults (want at most 1%)" \
	[ "$slow" -gt 0 -a $((100 * n)) -le "$slow" ]
