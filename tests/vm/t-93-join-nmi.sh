# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# NMI time on the measured CPU is named interrupt (kind nmi): sysrq 'l' (a
# backtrace of every CPU) written on CPU 0 raises an NMI on CPU 1, where
# chase runs, and its handler prints a stack there. With latmon; with the
# BPF backend too on the newest kernel (LATMON_LONG). The backtraces' Call
# Trace lines are this test's own: the log before it is kept for the
# suite's check, and of the log during it only the lines a real report
# prints (WARNING, BUG, Oops). Not on the debug kernel (LATMON_DEBUG),
# whose run counts every Call Trace as a report. Sourced by suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

# nmis NAME: slow iterations of NAME.json with an NMI among their
# interrupts, how many of them have an interrupt part in their breakdown,
# and how many are primarily interrupt: "N I P".
nmis() {
	jcheck rows "$1.json" slow.iterations | kv_awk -v kv_num=1 '{
		for (k in f) if (k ~ /^interrupts\.[0-9]+\.kind$/ && f[k] == "nmi") {
			n++; i += f["breakdown_ticks.interrupt"] > 0; p += f["primary"] == "interrupt"; break } }
		END { print n + 0, i + 0, p + 0 }'
}

# nmi_run NAME ARGS...: chase on CPU 1 under sysrq-l from CPU 0 every
# 20 ms, then its NMI iterations checked.
nmi_run() {
	local name=$1 pid n i p
	shift
	dmesg -c >>"$TMPD/dmesg.kept"
	taskset -c 0 sh -c 'while :; do echo l >/proc/sysrq-trigger; sleep 0.02; done' &
	pid=$!
	ok "$name: chase on CPU 1 while CPU 0 raises NMIs on it (sysrq l)" \
		jrun "$name" chase --mode populate --cpu 1 --iters 200000 "$@"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	dmesg -c >"$TMPD/$name.dmesg"
	grep -E 'WARNING:|BUG:|Oops|general protection' "$TMPD/$name.dmesg" >>"$TMPD/dmesg.kept"
	echo "# $name: $(grep -c 'NMI backtrace for cpu 1' "$TMPD/$name.dmesg") NMI backtraces of CPU 1 in the log"
	read -r n i p <<<"$(nmis "$name")"
	ok "$name: $n slow iterations hold an NMI (want at least 3)" [ "$n" -ge 3 ]
	ok "$name: $i of the $n have the NMI's time as interrupt (want all)" [ "$i" = "$n" ]
	# Under TCG one host thread runs both vCPUs: while CPU 0 prints the
	# backtraces, CPU 1 stands still and its TSC runs on, so most of such an
	# iteration is unexplained, not the NMI (the handler: about 0.5 ms).
	echo "# $name: $p of the $n primarily interrupt"
}

if [ "${LATMON_DEBUG:-0}" = 1 ]; then
	echo "# t-93-join-nmi: not on the debug kernel (its log check counts the backtraces)"
elif [ ! -w /proc/sysrq-trigger ] || [ "$(nproc)" -lt 2 ]; then
	echo "# t-93-join-nmi: needs /proc/sysrq-trigger and 2 CPUs"
else
	load
	nmi_run nmi-latmon
	[ "${LATMON_LONG:-0}" = 1 ] && nmi_run nmi-bpf --backend bpf
fi
