# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The BPF backend against latmon in one boot (the guest allows both):
# chase --mode cold and grow --thp always, each once with --backend latmon
# and once with --backend bpf, give the same primary label for at least 95%
# of the slow iterations; then one chase run recorded by both at once (latmon
# through lmtool on latctl's pid, the BPF backend inside latctl, its records
# saved through LATCTL_BPF_EVENTS) pairs every fault: the ends the BPF
# backend estimates lie within the module's measured fault widened by the
# backend's stated clock bound. Sourced by suite.sh; newest kernel only.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

# agree A B: "n=N same=S" over the slow iterations of A.json and B.json
# paired by iteration index (the workloads are seeded: index i does the same
# work in both runs), over the indexes slow in both.
agree() {
	{ jcheck rows "$1.json" slow.iterations | sed 's/^row/A/'
	  jcheck rows "$2.json" slow.iterations | sed 's/^row/B/'; } |
	kv_awk '$1 == "A" { a[f["index"]] = f["primary"] }
	$1 == "B" && (f["index"] in a) { n++; same += a[f["index"]] == f["primary"] }
	END { printf "n=%d same=%d\n", n, same }'
}

# agree_rank A B: "n=N same=S", the k-th slowest of A against the k-th of B.
agree_rank() {
	jtop "$1" 1000000 >"$1.top"
	jtop "$2" 1000000 >"$2.top"
	awk 'NR == FNR { a[FNR] = $1; next } FNR in a { n++; same += a[FNR] == $1 }
	END { printf "n=%d same=%d\n", n, same }' "$1.top" "$2.top"
}

# labels NAME WHAT ARGS...: both backends on one workload, labels compared.
labels() {
	local name=$1 what=$2 r n same
	shift 2
	ok "$what with --backend latmon" jrun "$name-latmon" "$@" --backend latmon
	ok "$what with --backend bpf" jrun "$name-bpf" "$@" --backend bpf
	ok "$what with --backend latmon again" jrun "$name-latmon2" "$@" --backend latmon
	is "$what: the second run was recorded by the BPF backend" "$(jget "$name-bpf" backend.name)" bpf
	r=$(agree "$name-latmon" "$name-bpf")
	n=$(field n <<<"$r") same=$(field same <<<"$r")
	echo "# $what: by index $same of $n slow in both agree; by rank $(agree_rank "$name-latmon" "$name-bpf")"
	echo "# $what: latmon twice: by index $(agree "$name-latmon" "$name-latmon2"); by rank $(agree_rank "$name-latmon" "$name-latmon2")"
	echo "# $what: latmon $(jcheck rows "$name-latmon.json" causes.causes | kv_awk '{ printf "%s=%s ", f["label"], f["primary"] }')"
	echo "# $what: bpf    $(jcheck rows "$name-bpf.json" causes.causes | kv_awk '{ printf "%s=%s ", f["label"], f["primary"] }')"
	ok "$what: $same of the $n iterations slow in both runs have one primary label (want at least 95%)" \
		[ "$n" -gt 0 -a $((100 * same)) -ge $((95 * n)) ]
}

# both NAME ARGS...: latctl run ARGS --backend bpf while latmon records the
# same process's faults: latctl is held stopped before its exec, lmtool
# STARTs latmon on its pid, a reader drains /dev/latmon until STOP. Leaves
# NAME.json, NAME.latmon and NAME.bpf (fault records as lmtool prints them).
both() {
	local name=$1 pid reader rc
	shift
	sh -c 'kill -STOP $$; exec "$@"' sh env LATCTL_BPF_EVENTS="$name.bin" \
		"$LATCTL" run "$@" --backend bpf --quiet --json "$name.json" 2>"$name.err" &
	pid=$!
	until grep -q '^State:.*stopped' "/proc/$pid/status" 2>/dev/null; do sleep 0.1; done
	lmtool start --tgid "$pid" --mask fault --buffer 262144 || { kill -9 "$pid"; return 1; }
	timeout 600 lmtool read --type fault >"$name.latmon" &
	reader=$!
	kill -CONT "$pid"
	wait "$pid"
	rc=$?
	lmtool stats >"$name.stats"
	lmtool stop
	wait "$reader"
	sed 's/^/# latctl: /' "$name.err"
	lmtool read --events "$name.bin" --type fault >"$name.bpf" && [ "$rc" = 0 ]
}

# fault_lines SRC: "begin end SRC tid addr mark" of each fault record lmtool
# prints on stdin.
fault_lines() {
	awk -v src="$1" '$1 == "fault" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print v["begin"], v["end"], src, v["tid"], v["addr"], v["mark"] + 0; delete v }'
}

# pair_faults NAME BOUND_TICKS: each BPF fault paired with the module's next
# fault of the same thread and address; counts and the worst distances.
pair_faults() {
	{ fault_lines L <"$1.latmon"; fault_lines B <"$1.bpf"; } |
	sort -n -k1,1 | awk -v b="$2" '
	$3 == "B" { k = $4 SUBSEP $5; pb[k] = $1 + 0; pe[k] = $2 + 0; pm[k] = $6; nb++; next }
	{ k = $4 SUBSEP $5; nl++ }
	!(k in pb) { next }
	{ paired++; begin_ok += pb[k] <= $1 + b; e = pe[k]; m = pm[k]; delete pb[k] }
	m == 0 { seen++; inside += e <= $2 + b; before += e < $1 - b
		 if (e - $2 > late) late = e - $2; if ($2 - e > early) early = $2 - e }
	m == 1 { open++; after += e >= $2 - b; if (e - $2 > over) over = e - $2 }
	m == 2 { out++; out_after += e > $2 + b }
	END { printf "bpf=%d latmon=%d paired=%d begin_ok=%d seen=%d inside=%d before=%d late=%d early=%d open=%d after=%d over=%d out=%d out_after=%d\n",
		nb, nl, paired, begin_ok, seen, inside, before, late, early, open, after, over, out, out_after }'
}

# ends NAME WHAT: the fault-end checks of a run recorded by both.
ends() {
	local name=$1 what=$2 bound tpn btk r
	bound=$(jget "$name" backend.bpf.clock.bound_ns)
	tpn=$(jget "$name" backend.bpf.clock.ticks_per_ns)
	btk=$(awk -v b="$bound" -v t="$tpn" 'BEGIN { printf "%d", b * t }')
	tons() { awk -v x="$(field "$1" <<<"$r")" -v t="$tpn" 'BEGIN { printf "%.0f", x / t }'; }
	r=$(pair_faults "$name" "$btk")
	echo "# $what: $r (ticks; bound $bound ns = $btk ticks)"
	is "$what: latmon lost no fault record" "$(sed -n 's/^total .*dropped=\([0-9]*\).*/\1/p' "$name.stats")" 0
	ok "$what: every fault the BPF backend saw ($(field bpf <<<"$r")) is paired with a latmon fault ($(field paired <<<"$r") paired, latmon $(field latmon <<<"$r"))" \
		[ "$(field bpf <<<"$r")" -gt 10000 -a "$(field paired <<<"$r")" = "$(field bpf <<<"$r")" ]
	ok "$what: every BPF fault begins before latmon's (handle_mm_fault) plus the bound" \
		[ "$(field begin_ok <<<"$r")" = "$(field paired <<<"$r")" ]
	ok "$what: $(field inside <<<"$r") of $(field seen <<<"$r") fault ends seen at rss_stat lie before latmon's fault end plus $bound ns (latest $(tons late) ns after it, earliest $(tons early) ns before; $(field before <<<"$r") before its begin)" \
		[ "$(field seen <<<"$r")" -gt 0 -a "$(field inside <<<"$r")" = "$(field seen <<<"$r")" ]
	ok "$what: $(field after <<<"$r") of $(field open <<<"$r") open ends (the next fault or TSC read) lie after latmon's end less $bound ns (at most $(tons over) ns later)" \
		[ "$(field after <<<"$r")" = "$(field open <<<"$r")" ]
	echo "# $what: $(field out <<<"$r") faults ended at a switch-out, $(field out_after <<<"$r") of them after latmon's end plus $bound ns"
}

load
T0=$SECONDS
if [ "$LATMON_LONG" = 1 ]; then
labels chase "chase --mode cold" chase --mode cold --thp never --iters 20000 --slow p90
labels grow "grow --thp always" grow --thp always
ok "chase --mode cold recorded by latmon and the BPF backend at once" \
	both both-chase chase --mode cold --thp never --iters 20000 --slow p90
echo "# t-97: runs and label checks $((SECONDS - T0)) s"
ends both-chase "chase --mode cold, both at once"
echo "# t-97: all $((SECONDS - T0)) s"
cp chase-*.json grow-*.json /out/ # DEV
else
	echo "# t-97: on the newest kernel only (LATMON_LONG)"
fi
