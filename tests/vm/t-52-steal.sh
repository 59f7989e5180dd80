# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Steal and SMIs with latmon: the test bed's TCG has no steal clock and is
# a guest, whose SMI count latmon does not read, so a run counts none;
# latmon's test hooks steal_fake_ns and smi_fake add synthetic steal and
# SMIs at each tick that interrupts the measured thread, and the records
# they write go through latctl's join like real ones: a whole multiple of
# the fake amount, label steal and label smi in slow iterations. Sourced
# by suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

FAKE=/sys/module/latmon/parameters/steal_fake_ns
# steal_run NAME: chase on CPU 1 long enough for a few hundred ticks.
steal_run() { jrun "$1" chase --mode populate --cpu 1 --iters 100000 --slow p99; }

load
ok "latmon has the test hook steal_fake_ns" test -w "$FAKE"
ok "chase with latmon, no synthetic steal" steal_run steal-none
ok "TCG has no steal clock: the run recorded no steal ($(jget steal-none causes.events.steal_ns))" \
	test "$(jget steal-none causes.events.steal_ns)" = 0
echo 1000 >"$FAKE"
ok "chase with latmon, 1000 ns of synthetic steal a tick" steal_run steal-fake
echo 0 >"$FAKE"
ns=$(jget steal-fake causes.events.steal_ns)
placed=$(jget steal-fake causes.events.steal_in_slow_ns)
echo "# steal-fake: $ns ns recorded, $placed ns placed in slow iterations"
# ns is the records' sum, whole windows of 1000 ns each, through the join's
# TSC ticks and back (under 1 ns of rounding per record)
ok "the records hold a whole number of ticks' steal ($ns ns)" \
	awk -v n="$ns" 'BEGIN { k = int(n / 1000 + 0.5); d = n - 1000 * k
		exit !(k >= 1 && d * d <= k * k) }'
ok "the steal placed ($placed ns) is part of it" \
	awk -v p="$placed" -v n="$ns" 'BEGIN { exit !(p <= n + 1) }'
# Each window ends at a tick that interrupted the thread, and under TCG
# that iteration is slow: some slow iteration holds 1 us of uncovered time.
n=$(jcount steal-fake 'f["breakdown_ticks.steal"] > 0')
ok "$n slow iterations carry label steal (want at least 1)" [ "$n" -ge 1 ]

SMI=/sys/module/latmon/parameters/smi_fake
ok "latmon has the test hook smi_fake" test -w "$SMI"
ok "no SMI record in the guest without it ($(jcount steal-none 'f["smis"] > 0') iterations)" \
	test "$(jcount steal-none 'f["smis"] > 0')" = 0
echo 1 >"$SMI"
ok "chase with latmon, 1 synthetic SMI a tick" steal_run smi-fake
echo 0 >"$SMI"
# a window ends at each tick that interrupted the thread: its iteration is
# slow under TCG, and holds uncovered time
n=$(jcount smi-fake 'f["smis"] > 0')
s=$(jcount smi-fake 'f["breakdown_ticks.smi"] > 0')
ok "$n slow iterations lie in a window where SMIs were counted, $s carry label smi (want at least 1 each)" \
	test "$n" -ge 1 -a "$s" -ge 1
