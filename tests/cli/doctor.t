#!/bin/bash
# SPDX-License-Identifier: MIT
# latctl doctor: one finding per setting with what to do, agreeing with
# sysfs and the kernel config; --json the same; this machine explained.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
NAMES="settings thp thp-defrag mthp init_on_alloc governor boost smt isolation mitigations lockdown latmon bpf tsc vm"
check "doctor runs" "$L doctor > $TMPD/d.txt" 0 ''
for n in $NAMES; do
	ok "a finding for $n, with advice below it" \
		awk -v n="$n" '$2 == n && $1 ~ /^(ok|note|warn)$/ { getline; if ($0 ~ /^      +[^ ]/) f = 1 } END { exit !f }' "$TMPD/d.txt"
done
field() { awk -v n="$1" '$2 == n { $1 = $2 = ""; sub(/^ +/, ""); print; exit }' "$TMPD/d.txt"; }
advice() { awk -v n="$1" '$2 == n { getline; sub(/^ +/, ""); print; exit }' "$TMPD/d.txt"; }
T=/sys/kernel/mm/transparent_hugepage/enabled
[ -r $T ] && ok "thp is the [selected] word of $T" \
	test "$(field thp)" = "$(sed 's/.*\[\(.*\)\].*/\1/' $T)"

if [ ! -e /proc/modules ]; then
	ok "no module support here: latmon says so and points to --vm" \
		bash -c "grep -Eq '^(warn|note)  latmon *cannot load: this kernel has no module support' '$TMPD/d.txt' && grep -q 'latctl run ... --vm' '$TMPD/d.txt'"
	ok "... and lockdown gives no advice about signing a module that cannot load" \
		bash -c "! grep -A1 '^[a-z]*  *lockdown' '$TMPD/d.txt' | grep -q 'sign latmon'"
fi
# One source of truth: doctor's latmon and bpf lines agree with `latctl backends`.
B=$("$L" backends)
if [[ $B == *"bpf: yes"* ]]; then
	ok "backends allows bpf: doctor's bpf line is ok" grep -q '^ok    bpf  *usable: ' "$TMPD/d.txt"
	ok "... and its latmon line does not say runs go without causes" \
		bash -c "! grep -A1 '^[a-z]*  *latmon' '$TMPD/d.txt' | grep -q 'without causes'"
else
	ok "backends refuses bpf: doctor's bpf line is not ok" bash -c "! grep -q '^ok    bpf' '$TMPD/d.txt'"
fi
if [ -r /sys/kernel/security/lockdown ]; then
	ok "lockdown is the [selected] level" \
		test "$(field lockdown)" = "$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/security/lockdown)"
else
	ok "lockdown without securityfs: the config's level, and that it is not mounted" \
		bash -c "grep -Eq '^(ok|warn|note) +lockdown +(none|integrity|confidentiality|unknown) \(kernel config; /sys/kernel/security is not mounted\)' '$TMPD/d.txt'"
fi

# The kernel config decides init_on_alloc (unless the command line sets it)
# and, without securityfs, the lockdown level.
printf 'CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y\nCONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY=y\nCONFIG_KPROBES=y\n' > "$TMPD/config"
LATCTL_KCONFIG=$TMPD/config "$L" doctor > "$TMPD/d.txt"
if ! grep -qw 'init_on_alloc' /proc/cmdline; then
	ok "init_on_alloc on by config: a warning that says to boot with init_on_alloc=0" \
		bash -c "grep -q '^warn  init_on_alloc  on (kernel config default)' '$TMPD/d.txt' && grep -q 'boot with init_on_alloc=0' '$TMPD/d.txt'"
fi
[ -r /sys/kernel/security/lockdown ] ||
	ok "confidentiality lockdown: latmon cannot attach, use --vm" \
		bash -c "grep -q '^warn  lockdown *confidentiality' '$TMPD/d.txt' && test '$(advice lockdown)' = \"kprobes, tracefs and kernel reads are refused, so latmon cannot attach: use latctl run ... --vm\""
printf '# CONFIG_INIT_ON_ALLOC_DEFAULT_ON is not set\n' > "$TMPD/config"
grep -qw 'init_on_alloc' /proc/cmdline ||
	check "init_on_alloc off by config" "LATCTL_KCONFIG=$TMPD/config $L doctor" 0 '^ok    init_on_alloc  off \(kernel config default\)'

check "doctor --json" "$L doctor --json > $TMPD/d.json" 0 ''
ok "JSON: schema latctl.doctor, one check per finding, in the same order" \
	test "$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<>);
		die unless $d->{schema} eq "latctl.doctor" && $d->{schema_version} == 1;
		for (@{$d->{checks}}) { die unless $_->{verdict} =~ /^(ok|note|warn)$/ && length $_->{value} && length $_->{advice} }
		print join " ", map { $_->{name} } @{$d->{checks}}' "$TMPD/d.json")" = "$NAMES"
# The machine's facts against what this test measures itself: bench_faults
# (its own code: resident pages after reads, TSC pairs) and sysfs.
fact() { json_get "$TMPD/d.json" facts "$1" || echo null; }
check "bench-faults measures this machine" "'$TESTS_DIR/tests/bench/bench-faults.sh' 2000" 0 '^  write fault \(fresh memory\) '
BF=$OUT
p50() { printf '%s\n' "$BF" | awk -v r="$1" 'index($0, r) == 3 { print $(NF - 1) }'; }
if printf '%s\n' "$BF" | grep -q 'mapped the zero page'; then zp=true; else zp=false; fi
ok "zero page: $(fact zero_page), as bench-faults measured (resident pages after reads)" \
	test "$(fact zero_page)" = "$zp"
ok "... and the text says the same" \
	grep -Eq "^      zero page      $([ $zp = true ] && echo yes || echo no): " "$TMPD/d.txt"
ok "first touch $(fact first_touch_ns) ns, bench-faults' median $(p50 'write fault (fresh memory)') ns: within 3x" \
	between "$(fact first_touch_ns)" "$(awk -v x="$(p50 'write fault (fresh memory)')" 'BEGIN { print x / 3 }')" \
		"$(awk -v x="$(p50 'write fault (fresh memory)')" 'BEGIN { print x * 3 }')"
ok "system call $(fact syscall_ns) ns, bench-faults' median $(p50 'system call (getppid)') ns: within 3x" \
	between "$(fact syscall_ns)" "$(awk -v x="$(p50 'system call (getppid)')" 'BEGIN { print x / 3 }')" \
		"$(awk -v x="$(p50 'system call (getppid)')" 'BEGIN { print x * 3 }')"
pmu=false
[ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ] && pmu=true
ok "pmu: $(fact pmu), as /sys/bus/event_source/devices says" test "$(fact pmu)" = "$pmu"
ok "clocksource: the kernel's current one" \
	test "$(fact clocksource)" = "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
case $(stat -f -c %T /sys/fs/cgroup 2>/dev/null) in
cgroup2fs) cg=v2 ;;
tmpfs) cg=v1; [ "$(stat -f -c %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ] && cg=hybrid ;;
*) cg=none ;;
esac
ok "cgroup: $(fact cgroup), as statfs of /sys/fs/cgroup says" test "$(fact cgroup)" = "$cg"
hv=$(dmesg 2>/dev/null | sed -n 's/.*Hypervisor detected: //p' | head -n1)
if [ -n "$hv" ]; then
	ok "hypervisor: $(fact hypervisor), the kernel's word in its log" test "$(fact hypervisor)" = "$hv"
elif ! grep -qw hypervisor /proc/cpuinfo; then
	ok "hypervisor: none on a CPU without the hypervisor flag" test "$(fact hypervisor)" = null
fi
check "a run with --json" "$L run chase --iters 2000 --quiet --json $TMPD/r.json" 0 ''
ok "... keeps the facts in its environment (zero page $zp, the hypervisor)" \
	test "$(json_get "$TMPD/r.json" environment facts zero_page) $(json_get "$TMPD/r.json" environment facts hypervisor || echo null)" = "$zp $(fact hypervisor)"

check_err "an unknown argument" "$L doctor --yaml" 2 "^latctl doctor: unknown argument '--yaml'"
check "doctor --help" "$L doctor --help" 0 '^usage: latctl doctor \[--json\]'
done_testing
