# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# A hog pinned to the target's CPU: preemptions naming it, timer interrupts,
# and no record of another process. Sourced by suite.sh.

load
# The hog spins until the target is done (a fixed time could end before a
# slow guest starts the target), so it is runnable on CPU 0 throughout.
bg spin --cpu 0 --seconds 3600 --name hog >/dev/null
hog=${BG_PIDS##* }
sleep 0.2
lmtool record --events sched.bin -- spin --cpu 0 --seconds 2 --name target >sched.out 2>&1
sed 's/^/# /' sched.out
ok "the hog still spun when the target ended" kill -0 "$hog"
kill $BG_PIDS 2>/dev/null; wait 2>/dev/null; BG_PIDS=""
pid=$(field pid <sched.out)
check "the target was preempted by the hog pinned to its CPU" \
	"count_where sched.bin '\$1 == \"sched\" && \$9 == \"preempted\" && f[\"other_comm\"] == \"hog\"'" \
	0 '^[1-9][0-9]*$'
check "timer interrupts were recorded while the target ran" \
	"count_where sched.bin '\$1 == \"irq\" && f[\"kind\"] == \"timer\"'" 0 '^[1-9][0-9]*$'
check "no event record names another process than the target ($pid)" \
	"! lmtool read --events sched.bin | grep -v -e ' pid=$pid tid=$pid ' -e '^lost '" 0 ''
check "poll() woke the reader during the session (records read live)" \
	"field live <sched.out" 0 '^[1-9][0-9]*$'
check "per-CPU seq numbers are contiguous across migrations" "seq_gaps sched.bin" 0 '^0$'
