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
slow=$(jget chase-pop slow.count)
pop=$(jcount chase-pop 'f["primary"] == "fault"')
ok "chase --mode populate: $pop of $slow slow iterations are primarily faults (want at most 1%)" \
	[ "$slow" -gt 0 -a $((100 * pop)) -le "$slow" ]
# cold_faults: chase-cold's slow iterations are primarily faults in a tenth
# of them or more, and five times populate's. Quiet, over half are; a busy
# host stops the emulator's thread and its vCPU's TSC runs on, which the
# guest sees as unexplained time: at load 8 on 2 cores a quarter were
# faults (501 of 1987), against populate's at most 1%.
cold_faults() {
	local slow n
	slow=$(jget chase-cold slow.count)
	n=$(jcount chase-cold 'f["primary"] == "fault"')
	echo "# chase --mode cold: $n of $slow slow iterations primarily faults; populate $pop"
	[ "$slow" -gt 0 ] && [ $((10 * n)) -ge "$slow" ] && [ "$n" -ge $((5 * pop)) ]
}
retry "a busy host's pauses of the emulator are unexplained time in the guest" \
	"\"\$LATCTL\" run chase --mode cold --iters 20000 --slow p90 --quiet --json chase-cold.json" \
	ok "chase --mode cold: a tenth or more of its slow iterations are primarily faults, 5x populate's" \
	cold_faults
