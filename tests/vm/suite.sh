#!/bin/bash
# SPDX-License-Identifier: MIT
# The latmon VM test suite, run inside the guest as root: sources the TAP
# helpers, runs each group tests/vm/t-*.sh (and/or s-*.sh) in order in one TAP stream, then
# checks the kernel log. Booted by tests/vm/kernel-SERIES.t.
cd "$(dirname "$0")" || exit 1
[ -x /usr/bin/latctl ] && export LATCTL=/usr/bin/latctl || export LATCTL=/usr/bin/lmtool
. ./engine.sh
. ./lib.sh
# init_on_alloc as the kernel applied it (its config default or the command
# line), read once at boot: later the log may have wrapped
LATMON_HEAP_INIT=$(dmesg 2>/dev/null | sed -n 's/.*mem auto-init: .*heap alloc:\([a-z]*\).*/\1/p' | head -n1)
export LATMON_HEAP_INIT
trap cleanup EXIT
cd "$TMPD" || exit 1

echo "# kernel $(uname -r), $(nproc) CPUs"
dmesg -c >/dev/null
# suite.sh [t] [s] [x]: t the module and join groups, s the stress groups,
# x the experiments (tests/BENCHMARKS.md; no make target runs them)
for prefix in "${@:-t}"; do
	for group in /tests/"$prefix"-*.sh; do
		echo "# ${group##*/}"
		group_t0=$SECONDS
		# shellcheck source=/dev/null # each tests/vm/t-*.sh in turn
		. "$group"
		echo "# ${group##*/}: $((SECONDS - group_t0)) s"
	done
done

unload
# the log kept by tests that clear it (t-93-join-nmi), then the rest
{ cat "$TMPD/dmesg.kept" 2>/dev/null; dmesg; } >"$TMPD/dmesg.all"
: >"$TMPD/stalls"
klog_split "$TMPD/dmesg.all" "$TMPD/stalls" >"$TMPD/dmesg"
stalls=$(grep -cE "$STALL_RE" "$TMPD/stalls")
SPLAT='WARNING:|BUG:|Call Trace:|Oops|general protection|RIP:|[Dd]eprecat'
check "no WARNING, BUG, call trace or deprecation line in the kernel log ($stalls stall reports of the emulated CPU without a latmon frame set apart)" \
	"! grep -E '$SPLAT' $TMPD/dmesg" 0 ''
grep -E -m 20 -A 12 "$SPLAT" "$TMPD/dmesg" | sed 's/^/# kernel log: /'
grep -E "$STALL_RE" "$TMPD/stalls" | head -n 5 | sed 's/^/# stall, no latmon frame: /'
done_testing
