#!/bin/bash
# SPDX-License-Identifier: MIT
# Per-source cost benchmark, run inside the guest by
# tests/bench/bench-backends.sh --sources: what each latmon source adds,
# alone and all together, beside the bare ftrace event and the BPF backend,
# to three operations timed one by one with the TSC on CPU 1:
#   4k       PAGES fresh 4 KiB pages (lmtouch --pages, THP never)
#   huge     HUGE fresh 2 MiB regions (lmtouch --huge, THP always)
#   syscall  CALLS getppid() calls (lmprocs getppid)
# Modes: nothing; ftrace (exceptions:page_fault_user for the faults,
# raw_syscalls:sys_enter for the calls, enabled in tracefs); bpf (lmbpf: the
# BPF backend, all its programs); latmon (lmtool record, all sources); and
# latmon:SRC for each source alone; and for the 4 KiB faults alone, hook:H,
# one bare hook mechanism of tests/bench/hooks/lmhooks.ko that counts and
# returns (ftrace, ftrace-alloc, kprobe, kretprobe, fprobe, tracepoint, perf: the
# module's comment says what each is). latmon stays loaded (stopped, it costs
# nothing: tests/BENCHMARKS.md, "What latmon's probes cost"). The order of
# the modes rotates each round. Prints one line per run, then per kind and
# mode the median and the fastest p50 and their ratios to "nothing".
# Outside the test bed (tests/bench/bench-backends.sh --sources --here) the
# module is LATMON_KO and the helpers' library LATMON_VM_LIB; where latmon
# cannot be loaded its modes are left out, saying why.
#
#   /tests/bench-sources.sh [ROUNDS] [PAGES] [HUGE] [CALLS]
ROUNDS=${1:-5}
PAGES=${2:-20000}
HUGE=${3:-16}
CALLS=${4:-100000}
KO=${LATMON_KO:-/lib/modules/latmon.ko}
HOOKS_KO=${LMHOOKS_KO:-/lib/modules/lmhooks.ko}
HOOKS="ftrace ftrace-alloc kprobe kretprobe fprobe tracepoint perf"
TRACING=/sys/kernel/tracing
# shellcheck source=tests/vm/lib.sh
. "${LATMON_VM_LIB:-$(dirname "$0")/lib.sh}"	# kv_awk, THP
cd "$(mktemp -d /tmp/bench-sources.XXXXXX)" || exit 1
PIN=("$(command -v taskset)" -c 1)

# The program of kind $1.
program() {
	case $1 in
	4k) echo "lmtouch --pages $PAGES --timing" ;;
	huge) echo "lmtouch --huge $HUGE --timing" ;;
	syscall) echo "lmprocs getppid --calls $CALLS --timing" ;;
	esac
}

# The tracefs event the ftrace mode enables for kind $1.
ftrace_event() {
	case $1 in
	syscall) echo "$TRACING/events/raw_syscalls/sys_enter/enable" ;;
	*) echo "$TRACING/events/exceptions/page_fault_user/enable" ;;
	esac
}

# Kind $1 in mode $2, with what the recorder saw.
run_mode() {
	local prog ev
	read -ra prog <<<"$(program "$1")"
	case $2 in
	nothing) "${PIN[@]}" "${prog[@]}" ;;
	ftrace) ev=$(ftrace_event "$1")
		: >"$TRACING/trace"
		echo 1 >"$ev"
		"${PIN[@]}" "${prog[@]}"
		echo 0 >"$ev"
		echo "entries=$(awk '/^entries:/ { n += $2 } END { print n + 0 }' "$TRACING"/per_cpu/cpu*/stats)" ;;
	bpf) lmbpf -- "${PIN[@]}" "${prog[@]}" ;;
	latmon) lmtool record --events events.bin -- "${PIN[@]}" "${prog[@]}" ;;
	latmon:*) lmtool record --mask "${2#latmon:}" --events events.bin -- "${PIN[@]}" "${prog[@]}" ;;
	hook:*) hook_run "${2#hook:}" "${prog[@]}" ;;
	esac
}

# The program $2... with lmhooks.ko's hook $1 attached; prints its hits.
hook_run() {
	local h=$1
	shift
	insmod "$HOOKS_KO" hook="$h" || return
	sh -c 'echo $$ >/sys/module/lmhooks/parameters/target && exec "$@"' sh "${PIN[@]}" "$@"
	rmmod lmhooks
	dmesg | sed -n 's/.*lmhooks: hook=[^ ]* hits=\([0-9]*\) target_hits=\([0-9]*\).*/hits=\1 target_hits=\2/p' | tail -1
}

# One run: "kind=... mode=... round=... p50_cycles=... p50_ns=... <seen>".
one_run() {
	local out seen
	out=$(run_mode "$1" "$2" 2>&1)
	if ! echo "$out" | grep -q 'p50_cycles='; then
		echo "# kind=$1 mode=$2 round=$3: no measurement: $(echo "$out" | head -n 2 | tr '\n' ' ')"
		return
	fi
	seen=$(echo "$out" | grep -o 'records=[0-9]*\|records_read=[0-9]*\|lost[a-z_]*=[0-9]*\|entries=[0-9]*\|[a-z_]*hits=[0-9]*' | tr '\n' ' ')
	echo "kind=$1 mode=$2 round=$3 $(echo "$out" | grep -o 'p50_cycles=[0-9]* p50_ns=[0-9.]*') $seen"
}

# The sources this module has and can attach here.
sources() {
	lmtool info | awk '$1 == "source" && / state=available/ { print $2 }'
}

# summary RUNS MODE...: per kind and mode, from the run lines of RUNS.
summary() {
	local runs=$1
	shift
	kv_awk -v order="$*" '/^#/ { next } { k = f["kind"] SUBSEP f["mode"]; n[k]++; c = f["p50_cycles"] + 0
	cy[k, n[k]] = c; rc[k, f["round"]] = c; if (f["round"] + 1 > rounds) rounds = f["round"] + 1
	if (!(k in lo) || c < lo[k]) lo[k] = c; kinds[f["kind"]] = 1 }
function sortmed(a, m,    i, j, x) {
	for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
		x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
function median(k,    i, v) {
	for (i = 1; i <= n[k]; i++) v[i] = cy[k, i]
	return sortmed(v, n[k]) }
# the median over rounds of the ratio to "nothing" in the same round
function paired(k, b,    r, m, v) {
	for (r = 0; r < rounds; r++) if ((k, r) in rc && (b, r) in rc) v[++m] = rc[k, r] / rc[b, r]
	return m ? sortmed(v, m) : 0 }
END {
	split("4k huge syscall", ks, " "); m = split(order, o, " ")
	for (j = 1; j <= 3; j++) { if (!(ks[j] in kinds)) continue
		b = ks[j] SUBSEP "nothing"; base = median(b)
		for (i = 1; i <= m; i++) { k = ks[j] SUBSEP o[i]; if (!n[k]) continue
			printf "%-7s %-18s median %10.0f cycles  ratio %.3f  added %+9.0f  per-round ratio %.3f  fastest %10.0f cycles  ratio %.3f  (%d runs)\n",
				ks[j], o[i], median(k), median(k) / base, median(k) - base, paired(k, b), lo[k], lo[k] / lo[b], n[k] }
	}
}' "$runs"
}

MOUNTED=0
if [ ! -d "$TRACING/events" ] && mount -t tracefs nodev "$TRACING" 2>/dev/null; then
	MOUNTED=1	# unmounted again at exit
fi
modes=(nothing)
if [ -w "$(ftrace_event 4k)" ] && [ -w "$(ftrace_event syscall)" ]; then
	modes+=(ftrace)
else
	echo "# ftrace: not run: no $(ftrace_event 4k) (tracefs not mounted at $TRACING?)"
fi
command -v lmbpf >/dev/null && modes+=(bpf) || echo "# bpf: not run: no lmbpf"
LOADED=0
if grep -qs '^latmon ' /proc/modules; then
	LOADED=1
elif ! why=$(insmod "$KO" 2>&1); then
	echo "# latmon: not run: insmod $KO: $why"
	LOADED=-1
fi
if [ "$LOADED" -ge 0 ]; then
	modes+=(latmon)
	for s in $(sources); do modes+=("latmon:$s"); done
fi
hooks=()
if [ -f "$HOOKS_KO" ]; then
	for h in $HOOKS; do hooks+=("hook:$h"); done
else
	echo "# hook rows: not run: lmhooks.ko not built ($HOOKS_KO)"
fi
THP_WAS=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$THP")
trap 'echo "$THP_WAS" >"$THP"; [ "$MOUNTED" = 0 ] || umount "$TRACING"' EXIT
echo "# kernel $(uname -r), $(nproc) CPUs, $ROUNDS rounds; 4k: $PAGES pages (THP never), huge: $HUGE 2 MiB regions (THP always), syscall: $CALLS getppid() calls; on CPU 1"
echo "# modes: ${modes[*]}; 4k also: ${hooks[*]}"
for kind in 4k huge syscall; do
	if [ "$kind" = huge ]; then echo always >"$THP"; else echo never >"$THP"; fi
	these=("${modes[@]}")
	[ "$kind" = 4k ] && these+=("${hooks[@]}")
	n=${#these[@]}
	for r in $(seq 0 $((ROUNDS - 1))); do
		for i in $(seq 0 $((n - 1))); do
			one_run "$kind" "${these[$(((i + r) % n))]}" "$r"
		done
	done
done | tee runs.txt
[ "$LOADED" = 0 ] && rmmod latmon
summary runs.txt "${modes[@]}" "${hooks[@]}"
