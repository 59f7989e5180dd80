# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# PREEMPT_RT (Debian's 7.3-rt, booted once by tests/vm/kernel-7.3-rt.t):
# latmon loads, every source resolves or says why not, --thp fails with its
# one line (RT has no THP), and an interrupt, which RT handles in a thread,
# shows up as interrupt work named after its irq/N-name thread. Sourced by
# suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

check "the guest runs a PREEMPT_RT kernel" "uname -v" 0 'PREEMPT_RT'
check "latmon loads" "insmod $KO && lmtool info" 0 '^module '
# "source NAME ... state=S ... reason=R": attached/available, or unavailable
# with a reason that is not empty ("-")
check "every source resolves, or is unavailable with its reason" \
	"lmtool info | awk '/^source / { n++; if (\$0 ~ / state=(available|attached) / ||
		(\$0 ~ / state=unavailable / && \$0 !~ / reason=-\$/)) good++ }
		END { print n \" sources, \" good \" good\"; exit (n < 4 || good != n) }'" 0 'sources'
lmtool info | sed -n 's/^source /# source /p'
check_err "--thp always: one line, RT has no transparent huge pages" \
	"$LATCTL run grow --thp always --iters 1000" 1 \
	'^latctl: --thp always: this kernel has no transparent huge pages .*; run without --thp$'

# Console lines written from CPU 1 every 2 ms while chase runs on CPU 0, the
# serial port's interrupt (and so its irq/N-ttyS0 thread) on CPU 0. Not a
# flood: a thread that mostly finds nothing to do gets its interrupt
# disabled ("irq 4: nobody cared").
taskset -c 1 sh -c 'exec 3>/dev/ttyS0
	while :; do echo "latmon: PREEMPT_RT interrupt thread test" >&3; usleep 2000; done' &
flood=$!
sleep 0.5
irq=$(awk -F: '/ttyS0/ { gsub(/ /, "", $1); print $1; exit }' /proc/interrupts)
check "ttyS0's interrupt ($irq) is routed to CPU 0" "echo 1 >/proc/irq/$irq/smp_affinity" 0 ''
ok "latctl run chase --mode populate --cpu 0 while ttyS0 interrupts hit CPU 0" \
	jrun rtirq chase --mode populate --cpu 0 --iters 200000 --slow p99
kill "$flood" 2>/dev/null
wait "$flood" 2>/dev/null
# The irq thread's run counts as interrupt time of the iteration; whether
# it is also the primary cause depends on what else the iteration held (on
# a loaded host, the emulator descheduled: unexplained).
n=$(jcount rtirq 'f["breakdown_ticks.interrupt"] > 0 && f["preempted_by.comm"] ~ /^irq\/[0-9]+-/')
w=$(jcount rtirq 'f["primary"] == "preemption" && f["preempted_by.comm"] ~ /^irq\//')
ok "$n slow iterations hold interrupt work by an irq/N-name thread (want at least 1)" [ "$n" -ge 1 ]
ok "none of them is labelled preemption ($w)" [ "$w" = 0 ]
"$LATCTL" report rtirq.json | grep -m2 -B1 'interrupt thread irq/' | sed 's/^/# /'
# The report lists the 10 slowest; on a loaded host the emulator's pauses
# may fill them, so the check is that the text says what the JSON holds:
# the interrupt thread named where one of those 10 was preempted by it
top=$(jcheck rows rtirq.json slow.iterations | kv_awk -v kv_num=1 '{ print f["duration_ticks"] }' |
	sort -rn | sed -n '10p;$p' | head -n 1)
m=$(jcount rtirq "f[\"duration_ticks\"] >= ${top:-0} && f[\"preempted_by.comm\"] ~ /^irq\\//")
shown=$("$LATCTL" report rtirq.json | grep -c 'interrupt thread irq/[0-9]*-[^ ]* (pid [0-9]*)')
ok "the report names the interrupt thread in as many of its 10 slowest as the JSON has ($shown, $m)" \
	[ "$shown" = "$m" ]
unload
