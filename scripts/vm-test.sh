#!/bin/bash
# SPDX-License-Identifier: MIT
# Run the VM test suite (tests/vm/suite.sh) on one kernel, as TAP.
#
#   scripts/vm-test.sh 6.1|6.12
#
# Builds what is missing (kernel, latmon.ko, test programs, initramfs), boots
# the guest and relays its TAP. The guest's kernel log is kept in
# build/vm/SERIES/console.log. Used by tests/vm/kernel-SERIES.t.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SERIES=${1:?usage: $0 6.1|6.12}
LOG=$ROOT/build/vm/$SERIES

mkdir -p "$LOG"
if ! make -s -C "$ROOT" vm-initramfs VM_KERNELS="$SERIES" >"$LOG.build.log" 2>&1; then
	echo "Bail out! cannot build the $SERIES test bed; see $LOG.build.log"
	exit 1
fi
# init_on_alloc=0: Debian's kernels zero every page when it is allocated
# (CONFIG_INIT_ON_ALLOC_DEFAULT_ON), so a huge page would be zeroed twice,
# the first time outside the THP clear latmon probes (see t-91-join-thp.sh).
"$ROOT/scripts/vm-run.sh" --kernel "$SERIES" --timeout "${LATMON_VM_TIMEOUT:-600}" \
	--append "${LATMON_VM_APPEND-init_on_alloc=0}" \
	--console "$LOG/console.log" -- /tests/suite.sh
rc=$?
if [ "$rc" -ge 124 ]; then
	echo "Bail out! the $SERIES guest ended before the suite did (status $rc); see $LOG/console.log"
fi
exit "$rc"
