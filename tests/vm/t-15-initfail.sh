# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Every init step failing in turn leaves nothing registered (issue 5 §2):
# the module's test hook fail_init_step=N makes step N fail (1-S resolve
# the S sources, then rings, threads, /dev/latmon, the genl family, and
# one after all: S + 5 steps), then real failures: a thp_clear_symbol= that is not a clear
# function, and one this kernel lacks. After each: insmod failed, no module,
# no device, no family, no probe left on the fault path (which a fault storm
# then exercises), and a plain insmod still works. Sourced by suite.sh.
KPROBES=/sys/kernel/debug/kprobes/list

# Nothing of latmon left; prints what is.
leftovers() {
	loaded && echo "module still loaded"
	[ -e /dev/latmon ] && echo "/dev/latmon exists"
	[ -e /sys/class/misc/latmon ] && echo "misc device registered"
	lmtool info >/dev/null 2>&1 && echo "genl family answers"
	[ -r "$KPROBES" ] && grep -E 'handle_mm_fault|folio_zero_user|clear_huge_page' "$KPROBES"
	lmtouch --pages 500 >/dev/null || echo "faults after the failed load broke"
	return 0
}

# insmod with ARGS must fail and leave nothing; $1 names the case.
fail_load() {
	local name=$1 out
	shift
	unload
	dmesg -c >/dev/null
	check "$name: insmod fails" "insmod $KO $* || echo status=\$?" 0 'status=[1-9]'
	out=$(leftovers)
	ok "$name: nothing left registered${out:+ ($out)}" [ -z "$out" ]
}

[ -r "$KPROBES" ] || echo "# no $KPROBES: kprobe leftovers not checked"
load
nsources=$(lmtool info | grep -c '^source ')
unload
echo "# $nsources sources: $((nsources + 5)) init steps"
for step in $(seq 1 $((nsources + 5))); do
	fail_load "fail_init_step=$step" fail_init_step=$step
	check "fail_init_step=$step: the kernel log names the failing step" \
		"dmesg" 0 "init step $step .*fail_init_step=$step"
done
fail_load "thp_clear_symbol=no_such_clear" thp_clear_symbol=no_such_clear
case $(uname -r) in
6.1.*) absent=folio_zero_user ;;
*) absent=clear_huge_page ;;
esac
fail_load "thp_clear_symbol=$absent (not in $(uname -r))" thp_clear_symbol=$absent
check "thp_clear_symbol=$absent: the kernel log says it cannot be probed" \
	"dmesg" 0 "thp_clear_symbol=$absent cannot be probed"
check "after all of them a plain insmod works and records" \
	"insmod $KO && lmtool record --mask fault -- lmtouch --pages 50" 0 'minflt=50 '
unload
