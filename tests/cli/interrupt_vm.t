#!/bin/bash
# SPDX-License-Identifier: MIT
# Ctrl-C with --vm, in a pseudo-terminal (script): the first SIGINT goes into
# the guest (vm-run.sh --control, the guest's ttyS2), whose latctl stops its
# loop at the next iteration and reports what it measured: the report and
# --json come back marked interrupted, exit 130, said once on stderr; a
# Ctrl-C during the boot stops the run before its loop. In
# make check's VM lane: it boots Debian 6.1 under TCG.
. "$(dirname "$0")/engine.sh"

command -v script >/dev/null || skip_all "script (util-linux) is not installed"
# The guest boots (10-30 s under TCG) and sets up; once its latctl says
# its loop is timed (the line relayed from the guest), Ctrl-C. chase's
# 12M iterations take about 40 s there: the signal has that long to arrive.
JV=$TMPD/vm.json
vm_int() {
	rm -f "$JV"
	WAITFOR="in the VM: timing chase" run_int "$TMPD/vm.log" 771004 1 chase --vm --kernel 6.1 \
		--iters 12000000 --json "$JV"
	tr '\r' '\n' < "$TMPD/vm.log" | sed 's/\x1b\[K//g' > "$TMPD/vm.txt"
}
vm_int
# A second make check of a fresh clone once saw the guest's loop run to
# its end although the host had passed the Ctrl-C on (beside the other
# lane's bench.t; the cause is not found, the runs before and after
# stopped): retried once, with what the first try saw.
if ! grep -q '^rc=130$' "$TMPD/rc"; then
	echo "# retry: the Ctrl-C did not stop the guest's loop on the first try; it saw:"
	grep -aE 'in the VM: timing|Ctrl-C|INTERRUPTED|interrupted|^chase|^kernel ' "$TMPD/vm.txt" |
		sed 's/^/#   /'
	sed 's/^/#   /' "$TMPD/rc"
	vm_int
fi
ok "--vm, Ctrl-C: exit 130" grep -q '^rc=130$' "$TMPD/rc"
ok "the guest said when its loop began" grep -q '^latctl: in the VM: timing chase; Ctrl-C now stops it and reports$' "$TMPD/vm.txt"
ok "... passed to the guest, said once" \
	test "$(grep -c 'Ctrl-C passed to the guest: its run stops and reports' "$TMPD/vm.txt")" = 1
ok "... the guest's report says INTERRUPTED and how far it got" \
	grep -Eq '^INTERRUPTED by SIGINT after [0-9]+ of 12000000 iterations' "$TMPD/vm.txt"
ok "... it is the guest's: kernel 6.1 with latmon's causes" \
	bash -c "grep -q '^kernel 6\.1\.' '$TMPD/vm.txt' && grep -q '^Causes of the' '$TMPD/vm.txt'"
ok "... and --json has it, marked interrupted" \
	test "$(json_get "$JV" interrupted iterations_asked 2>/dev/null)" = 12000000
grep -E 'INTERRUPTED|Ctrl-C|^rc=' "$TMPD/vm.txt" | sed 's/^/# /'

# Ctrl-C while the VM boots: the guest's port drops what comes before its
# kernel opens it, so the host repeats "INT" until the guest takes it; the
# run stops there, before its loop (12M iterations: 40 s it did not run).
WAITFOR="booting the VM" run_int "$TMPD/boot.log" 771005 1 chase --vm --kernel 6.1 \
	--iters 12000000 --json "$TMPD/boot.json"
tr '\r' '\n' < "$TMPD/boot.log" | sed 's/\x1b\[K//g' > "$TMPD/boot.txt"
ok "--vm, Ctrl-C during the boot: exit 130" grep -q '^rc=130$' "$TMPD/rc"
ok "... it reached the guest, which measured nothing" grep -Eq \
	"guest's run was interrupted before its timed loop|interrupted before the first iteration" "$TMPD/boot.txt"
ok "... no report, no result file" \
	bash -c "! grep -q '^Causes of the' '$TMPD/boot.txt' && [ ! -e '$TMPD/boot.json' ]"
grep -E 'INTERRUPTED|Ctrl-C|interrupted|^rc=' "$TMPD/boot.txt" | sed 's/^/# /'
done_testing
