#!/bin/bash
# SPDX-License-Identifier: MIT
# run --vm: bad --kernel/--vm input is refused before any VM boots; a real
# run in the QEMU test bed (Debian 6.1, latmon loaded there) prints the
# report here, one line on stderr says where it ran, --json gets the guest's
# result, the host's THP setting is untouched; the guest's bad-input line
# and exit status come back; `make run` on a host that cannot load modules
# runs here with the BPF backend when the kernel allows it (else in the VM),
# and in the VM with --vm. Boots the VM three times (10-20 s each under TCG).
. "$(dirname "$0")/engine.sh"

L=$LATCTL
J=$TMPD/vm.json
THP=/sys/kernel/mm/transparent_hugepage/enabled

check_err "--kernel without --vm is refused" "$L run grow --kernel 6.1" 2 '--kernel .*add --vm'
check_err "an unknown --kernel is refused" "$L run grow --vm --kernel 5.4" 2 \
	"--kernel '5.4' is not valid; give 6.1, 6.12 or 7.3"
check_err "a bad workload option is refused before booting" "$L run grow --vm --rate 10" 2 \
	'--rate does not apply to grow'
check_err "an unwritable --json is refused before booting" \
	"$L run grow --vm --json /nonexistent/dir/r.json" 2 'cannot create a file there'
check_err "without the test bed scripts: one line naming LATCTL_SCRIPTS" \
	"LATCTL_SCRIPTS=$TMPD/none $L run grow --vm" 1 'set LATCTL_SCRIPTS='

# The last _run's RC, stdout and stderr as diagnostics.
last_run() { printf 'exit %s\nstdout: %s\nstderr: %s\n' "$RC" "$(printf '%s' "$OUT" | tail -n 5)" "$ERR"; }
# One stderr line, the VM line of Debian 6.1.
vm_line() {
	[ "$(printf '%s\n' "$ERR" | grep -c '')" = 1 ] && printf '%s\n' "$ERR" |
		grep -Eq '^latctl: running in a QEMU VM with Debian 6\.1 \(6\.1\.[^)]*\) under (TCG .*compare ratios only|KVM)'
}
# The report is the guest's: kernel 6.1, causes recorded by latmon.
guest_report() {
	printf '%s\n' "$OUT" | grep -Eq '^kernel 6\.1\.' && printf '%s\n' "$OUT" | grep -q '^Causes of the' &&
		! printf '%s\n' "$OUT" | grep -q 'latmon is not loaded'
}
guest_bad_input() {
	[ "$RC" = 2 ] && [ -z "$OUT" ] && printf '%s\n' "$ERR" | grep -q -- '--cpu 7: cannot run there'
}
diag() { if ! "$@"; then last_run; return 1; fi; }

[ -e "$THP" ] && thp_before=$(cat "$THP")
_run "$L run grow --thp always --vm --kernel 6.1 --iters 300000 --json $J"
ok "grow --thp always --vm --kernel 6.1 exits 0" diag [ "$RC" = 0 ]
ok "one line on stderr: QEMU VM, Debian 6.1, how to read its times" diag vm_line
ok "the report printed here is the guest's: kernel 6.1, causes from latmon" diag guest_report
printf '%s\n' "$OUT" >"$TMPD/run.txt"
krel=$(json_get "$J" kernel_release)
ok "--json got the guest's result: kernel_release $krel" [ "${krel#6.1.}" != "$krel" ]
ok "... with where it ran: vm.kernel 6.1" [ "$(json_get "$J" vm kernel)" = 6.1 ]
# vm.kernel_args is present and empty: Debian's stock boot line, nothing added
stock_args() { local a; a=$(json_get "$J" vm kernel_args) && [ -z "$a" ]; }
ok "... booted with Debian's stock kernel arguments (vm.kernel_args empty)" stock_args
cmd=$(json_get "$J" command_line)
ok "... and the host's command line ($cmd)" [ "${cmd#*--vm --kernel 6.1 }" != "$cmd" ]
ok "latctl report prints it as the run did" bash -c "'$L' report $J | diff - $TMPD/run.txt"
[ -e "$THP" ] && ok "the host's THP setting is untouched ($thp_before)" [ "$(cat "$THP")" = "$thp_before" ]
_run "$L run grow --vm --kernel 6.1 --cpu 7 --iters 1000"
ok "bad input only the guest can judge (--cpu 7 of 2): exit 2, its line here" diag guest_bad_input
# Your own program in the VM: --in copies it and the libraries it needs
# (liblatctl of this tree) into /in, on the guest's PATH.
check_err "--in without --vm is refused" "$L run exec --in $TESTS_DIR/tests/exec/bin/calls -- calls" 2 \
	'--in copies a file into the VM; add --vm'
check_err "--in of a file that is not there" "$L run exec --vm --in $TMPD/nosuch -- nosuch" 2 "--in '$TMPD/nosuch'"
cp "$TESTS_DIR/tests/exec/bin/markers_prog" "$TMPD/myprog"
check "exec --vm --in: a program the guest does not have, with its markers library" \
	"$L run exec --vm --kernel 7.3 --slow p90 --in $TMPD/myprog --json $TMPD/in.json -- myprog fault 2000" 0 \
	'^iterations: latctl_begin\(\) to latctl_end\(\) of 1 thread in 1 process'
ok "... 2000 marked iterations, joined with latmon's records" \
	test "$(json_get "$TMPD/in.json" run iterations)" = 2000 -a "$(json_get "$TMPD/in.json" latmon state)" = on
ok "... their slow iterations mostly faults" \
	test "$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); my ($f) = grep { $_->{label} eq "fault" } @{$d->{causes}{causes}};
		print 2 * ($f ? $f->{primary} : 0) > $d->{causes}{slow_iterations} ? "yes" : "no"' "$TMPD/in.json")" = yes

# SIGINT while the guest runs: latctl stops the VM and removes its files.
# setsid: everything latctl started shares its session, found by pgrep -s.
interrupted_run() {
	local sid _
	setsid "$L" run grow --vm --kernel 6.1 --iters 4000000 --json "$TMPD/int.json" \
		>/dev/null 2>"$TMPD/int.err" &
	sid=$!
	for _ in $(seq 100); do grep -q 'running in a QEMU VM' "$TMPD/int.err" && break; sleep 0.2; done
	sleep 2
	kill -INT "$sid"	# passed to the guest (interrupt_vm.t)
	sleep 0.5
	kill -INT "$sid"	# stops the VM
	wait "$sid"
	echo "latctl exit $?"
	for _ in $(seq 50); do pgrep -s "$sid" >/dev/null || break; sleep 0.2; done
	! pgrep -a -s "$sid" && [ ! -e "$TMPD/int.json" ] && ! ls "$TMPD"/.int.json.latctl-* 2>/dev/null
}
ok "a second SIGINT while the VM runs: no QEMU, vm-run.sh or --json file left behind" interrupted_run

# make run on a root host without module support: with the BPF backend here
# when the kernel allows it (and the VM with --vm), else in the VM.
make_run_line() {
	printf '%s\n' "$ERR" | grep -q '^make run: this kernel (.*) cannot load modules (no /proc/modules): running in a QEMU VM with Debian 7\.3$'
}
make_run_bpf_line() {
	printf '%s\n' "$ERR" | grep -q '^make run: latmon cannot load here: this kernel (.*) cannot load modules (no /proc/modules); running on this machine (.*) at real speed with the BPF backend'
}
make_run_vm_asked() {
	printf '%s\n' "$ERR" | grep -q '^make run: --vm was asked for: running in a QEMU VM with Debian 7\.3$'
}
make_run_causes() { printf '%s\n' "$OUT" | grep -q '^Causes of the'; }
make_run_bpf() { printf '%s\n' "$OUT" | grep -q '^events from the BPF backend: '; }
if [ "$(id -u)" = 0 ] && [ ! -e /proc/modules ] && "$L" backends | grep -q 'bpf: yes'; then
	_run "'$TESTS_DIR/scripts/make-run.sh' --iters 200000"
	ok "make run on this host (no /proc/modules, BPF allowed): exit 0" diag [ "$RC" = 0 ]
	ok "make run says it runs here with the BPF backend and why" diag make_run_bpf_line
	ok "make run prints the BPF backend's cause table" diag make_run_bpf
	_run "'$TESTS_DIR/scripts/make-run.sh' --vm --iters 200000"
	ok "make run --vm: exit 0" diag [ "$RC" = 0 ]
	ok "make run --vm says it runs in the VM" diag make_run_vm_asked
	ok "make run --vm prints the VM's cause table" diag make_run_causes
elif [ "$(id -u)" = 0 ] && [ ! -e /proc/modules ]; then
	_run "'$TESTS_DIR/scripts/make-run.sh' --iters 200000"
	ok "make run on this host (no /proc/modules): exit 0" diag [ "$RC" = 0 ]
	ok "make run says it runs in the VM and why" diag make_run_line
	ok "make run prints the VM's cause table" diag make_run_causes
fi
done_testing
