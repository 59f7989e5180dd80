#!/bin/bash
# SPDX-License-Identifier: MIT
# Run the VM test suite (tests/vm/suite.sh) on one kernel, as TAP.
#
#   scripts/testbed/vm-test.sh 6.1|6.12|7.3|7.3-rt [t|s|r]
#
# t (default): the module and join groups tests/vm/t-*.sh, guest kernel log
# in build/vm/SERIES/console.log; used by tests/vm/kernel-SERIES.t.
# r: the PREEMPT_RT groups tests/vm/r-*.sh, kernel log in
# build/vm/SERIES/rt-console.log; used by tests/vm/kernel-7.3-rt.t.
# s: the stress groups tests/vm/s-*.sh with LATMON_STRESS_CYCLES race cycles
# (default 100) and LATMON_STRESS_SEED (default: a fresh one), kernel log in
# build/vm/SERIES/stress-console.log; used by tests/vm/stress-SERIES.t and
# make check-stress.
# Builds what is missing (kernel, latmon.ko, test programs, initramfs), boots
# the guest with Debian's stock kernel arguments (LATCTL_VM_APPEND adds more,
# for example init_on_alloc=0) and relays its TAP.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERIES=${1:?usage: $0 6.1|6.12|7.3|7.3-rt [t|s|r]}
GROUP=${2:-t}
LOG=$ROOT/build/vm/$SERIES
case $GROUP in
t) CONSOLE=$LOG/console.log TIMEOUT=${LATMON_VM_TIMEOUT:-1800} ;;
s) CONSOLE=$LOG/stress-console.log TIMEOUT=${LATMON_STRESS_TIMEOUT:-3000} ;;
r) CONSOLE=$LOG/rt-console.log TIMEOUT=${LATMON_VM_TIMEOUT:-600} ;;
*) echo "usage: $0 6.1|6.12|7.3|7.3-rt [t|s|r]" >&2; exit 2 ;;
esac

# Guest memory (LATMON_VM_MEMORY): 2G. Less is slower, not faster: with
# 1280M, t-36's --fragment runs took 91-101 s against 56-63 s.
MEMORY=${LATMON_VM_MEMORY:-2G}

# t-97 (the BPF backend against latmon) runs on the newest kernel only
NEWEST=$(sed -n 's/^VM_NEWEST := //p' "$ROOT/scripts/mk/vm.mk")
LONG=0
[ "$SERIES" = "$NEWEST" ] && LONG=1
mkdir -p "$LOG"
if ! make -s -C "$ROOT" vm-initramfs VM_KERNELS="$SERIES" >"$LOG.build.log" 2>&1; then
	echo "Bail out! cannot build the $SERIES test bed; see $LOG.build.log"
	exit 1
fi
"$ROOT/scripts/testbed/vm-run.sh" --kernel "$SERIES" --timeout "$TIMEOUT" --memory "$MEMORY" \
	--append "${LATCTL_VM_APPEND:-}" --console "$CONSOLE" -- \
	env LATMON_LONG="$LONG" LATMON_STRESS_CYCLES="${LATMON_STRESS_CYCLES:-100}" \
	LATMON_STRESS_SEED="${LATMON_STRESS_SEED:-}" /tests/suite.sh "$GROUP" | tee "$LOG/$GROUP.tap"
rc=${PIPESTATUS[0]}
# prove hides TAP comments: the failures and what they printed go to stderr
awk '/^not ok/ { d = 1; print; next } d && /^#/ { print; next } { d = 0 }' "$LOG/$GROUP.tap" | head -n 80 >&2
if [ "$rc" -ge 124 ]; then
	echo "Bail out! the $SERIES guest ended before the suite did (status $rc); see $CONSOLE"
fi
exit "$rc"
