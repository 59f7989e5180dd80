#!/bin/bash
# SPDX-License-Identifier: MIT
# Ctrl-C with --vm, in a pseudo-terminal (script): the first SIGINT goes into
# the guest (vm-run.sh --control, the guest's ttyS2), whose latctl stops its
# loop at the next iteration and reports what it measured: the report and
# --json come back marked interrupted, exit 130, said once on stderr. In
# make check's VM lane: it boots Debian 6.1 under TCG.
. "$(dirname "$0")/engine.sh"

command -v script >/dev/null || skip_all "script (util-linux) is not installed"
# The guest boots (10-30 s under TCG), sets up, then chase's loop runs for
# about 40 s; Ctrl-C 40 s after the boot began lands in that loop.
JV=$TMPD/vm.json
WAITFOR="booting the VM" DELAY=40 run_int "$TMPD/vm.log" 771004 1 chase --vm --kernel 6.1 \
	--iters 12000000 --json "$JV"
tr '\r' '\n' < "$TMPD/vm.log" | sed 's/\x1b\[K//g' > "$TMPD/vm.txt"
ok "--vm, Ctrl-C: exit 130" grep -q '^rc=130$' "$TMPD/rc"
ok "... passed to the guest, said once" \
	test "$(grep -c 'Ctrl-C passed to the guest: its run stops and reports' "$TMPD/vm.txt")" = 1
ok "... the guest's report says INTERRUPTED and how far it got" \
	grep -Eq '^INTERRUPTED by SIGINT after [0-9]+ of 12000000 iterations' "$TMPD/vm.txt"
ok "... it is the guest's: kernel 6.1 with latmon's causes" \
	bash -c "grep -q '^kernel 6\.1\.' '$TMPD/vm.txt' && grep -q '^Causes of the' '$TMPD/vm.txt'"
ok "... and --json has it, marked interrupted" \
	test "$(json_get "$JV" interrupted iterations_asked 2>/dev/null)" = 12000000
grep -E 'INTERRUPTED|Ctrl-C|^rc=' "$TMPD/vm.txt" | sed 's/^/# /'
done_testing
