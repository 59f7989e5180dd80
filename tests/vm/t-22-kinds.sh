# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Fault kinds with latmon, held against a referee that shares none of its
# code: the kernel's own kprobe events (tracefs, trace clock x86-tsc, the
# TSC latmon stamps with) on the functions that do each kind's work. A
# fault record's kind is the referee's when a probe of that kind fired
# inside it, on its thread: do_anonymous_page on a read (zero) or a write
# (anon), do_wp_page with a page allocated after it (kmem:mm_page_alloc of
# order 0, or wp_page_copy where the kernel did not inline it: cow) or
# without (wp), do_swap_page, filemap_fault, shmem_fault or
# filemap_map_pages (file, file-io), do_huge_pmd_anonymous_page (thp). A
# function the kernel inlined has no probe: its kind is not refereed, and
# the test says so. Then latctl run: chase cold, chase
# --fork, grow --thp always and file warm report the kinds they make.
# Sourced by suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

PAGES=2000
TR=/sys/kernel/tracing
REFEREE="do_anonymous_page wp_page_copy do_wp_page do_swap_page filemap_fault shmem_fault filemap_map_pages do_huge_pmd_anonymous_page mm_page_alloc"

# probes_on: a kprobe event lk/FN for each referee function the kernel has
# as a symbol of its own; the names of those it has not.
probes_on() {
	local f missing=""
	echo >$TR/kprobe_events
	echo x86-tsc >$TR/trace_clock
	for f in $REFEREE; do
		[ "$f" = mm_page_alloc ] && continue
		if grep -q " [tT] $f\$" /proc/kallsyms && echo "p:lk/$f $f" >>$TR/kprobe_events 2>/dev/null; then
			:
		else
			missing="$missing $f"
		fi
	done
	echo >$TR/trace
	echo 1 >$TR/events/lk/enable
	echo 'order == 0' >$TR/events/kmem/mm_page_alloc/filter
	echo 1 >$TR/events/kmem/mm_page_alloc/enable
	echo "${missing# }"
}

probes_off() {
	echo 0 >$TR/events/lk/enable
	echo 0 >$TR/events/kmem/mm_page_alloc/enable
	echo 0 >$TR/events/kmem/mm_page_alloc/filter
	cat $TR/trace >"$1"
	echo >$TR/kprobe_events
	echo local >$TR/trace_clock
}

# referee FAULTS TRACE PID: per fault of PID, "latmon_kind referee_kind", the
# referee's from the probes that fired inside the fault on its thread
# (none: no probe fired). FAULTS: lmtool read lines; TRACE: tracefs's.
referee() {
	{
		awk -v pid="$3" '$1 == "fault" { f[1] = ""; for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
			if (f["tid"] == pid) print f["begin"], "F", f["end"], f["kind"], (f["flags"] ~ /write/ ? "w" : "r") }' "$1"
		awk -v pid="$3" -v fns="$REFEREE" 'BEGIN { n = split(fns, l, " "); for (i = 1; i <= n; i++) want[l[i] ":"] = 1 }
			/^#/ { next } { m = split($1, a, "-"); if (a[m] != pid) next; ts = ""; fn = ""
			for (i = 2; i <= NF; i++) {
				if (ts == "" && $i ~ /^[0-9]+:$/) ts = substr($i, 1, length($i) - 1)
				else if (ts != "" && ($i in want)) { fn = substr($i, 1, length($i) - 1); break } }
			if (ts != "" && fn != "") print ts, "P", fn }' "$2"
	} | sort -n -k1,1 | awk '
		function judge() {
			if (e["do_huge_pmd_anonymous_page"]) return "thp"
			if (e["do_swap_page"]) return "swap"
			if (e["filemap_fault"] || e["shmem_fault"] || e["filemap_map_pages"]) return "file"
			if (e["do_wp_page"]) return e["wp_page_copy"] || e["alloc_after_wp"] ? "cow" : "wp"
			if (e["do_anonymous_page"]) return w == "w" ? "anon" : "zero"
			return "none" }
		function flush() { if (open) print kind, judge(); open = 0; split("", e) }
		$2 == "F" { flush(); open = 1; end = $3; kind = $4; w = $5; next }
		$2 == "P" && open && $1 <= end { e[$3] = 1
			if ($3 == "mm_page_alloc" && e["do_wp_page"]) e["alloc_after_wp"] = 1 }
		END { flush() }'
}

# agreement PAIRS KIND: "n=N same=S" over the faults the referee calls KIND
# (file: file and file-io alike).
agreement() {
	awk -v k="$2" '$2 == k { n++; if ($1 == k || (k == "file" && $1 == "file-io")) same++ }
		END { printf "n=%d same=%d\n", n, same }' "$1"
}

# agrees PAIRS KIND: at least 95% of the referee's KIND faults have that kind.
agrees() {
	local a n s
	a=$(agreement "$1" "$2")
	n=${a#n=}; n=${n%% *}; s=${a##*same=}
	echo "# referee $2: $a"
	[ "$n" -gt 0 ] && [ $((100 * s)) -ge $((95 * n)) ]
}

load
missing=$(probes_on)
[ -z "$missing" ] || echo "# not refereed (no symbol of their own here): $missing"
lmtool record --events kinds.bin -- lmkinds --pages $PAGES --file /tmp >kinds.out 2>&1
probes_off kinds.trace
sed 's/^/# /' kinds.out
pid=$(field pid <kinds.out)
lmtool read --events kinds.bin --type fault >kinds.faults
referee kinds.faults kinds.trace "$pid" >kinds.pairs
echo "# latmon's kinds: $(awk '{ c[$1]++ } END { for (k in c) printf "%s=%d ", k, c[k] }' kinds.pairs)"
echo "# the referee's:  $(awk '{ c[$2]++ } END { for (k in c) printf "%s=%d ", k, c[k] }' kinds.pairs)"
ok "every fault record says a kind" [ "$(awk '$1 == "-" || $1 == "" { n++ } END { print n + 0 }' kinds.pairs)" = 0 ]
zero_page=$(awk '$1 == "zero" { n++ } END { print n + 0 }' kinds.pairs)
for k in zero anon cow file; do
	case " $missing " in
	*" do_anonymous_page "*) [ "$k" = zero ] || [ "$k" = anon ] && continue ;;
	esac
	case " $missing " in *" do_wp_page "*) [ "$k" = cow ] && continue ;; esac
	[ "$k" = zero ] && [ "$zero_page" = 0 ] && continue
	ok "the referee's $k faults are latmon's $k faults (95% or more)" agrees kinds.pairs "$k"
done
ok "zero page: a fault per page read, then as many copies" \
	[ "$zero_page" -ge $((PAGES * 95 / 100)) ]
cows=$(awk '$1 == "cow" { n++ } END { print n + 0 }' kinds.pairs)
ok "copies: one per zero page written and one per page written after fork ($cows, want $((2 * PAGES)))" \
	[ "$cows" -ge $((2 * PAGES * 95 / 100)) ] && [ "$cows" -le $((2 * PAGES + 50)) ]

ok "latctl run chase --mode cold" jrun kinds-chase chase --mode cold --no-thp --iters 20000 --slow p90
z=$(jget kinds-chase causes.fault_kinds.zero.count)
c=$(jget kinds-chase causes.fault_kinds.cow.count)
cold_cow=$c
echo "# chase cold: zero=$z cow=$c"
ok "chase cold: zero faults, then as many copies of the zero page" \
	[ "${z:-0}" -gt 1000 ] && [ "${c:-0}" -ge "$((z * 95 / 100))" ]
check "chase cold: the report splits fault by kind" "\"\$LATCTL\" report kinds-chase.json" 0 \
	'^    zero .* the shared zero page mapped on a read'
ok "latctl run chase --fork" jrun kinds-fork chase --fork --iters 20000 --slow p90
c=$(jget kinds-fork causes.fault_kinds.cow.count)
ok "chase --fork: copies, one per page ($c)" [ "${c:-0}" -gt 15000 ]
# The BPF backend on the same seeded runs: the same kinds, as many (5%).
# --no-thp: with THP on (Debian's default) how many pages a run maps huge
# depends on the memory free then, and the counts differ between runs.
near() { [ "$1" -gt 0 ] && [ $((100 * $2)) -ge $((95 * $1)) ] && [ $((100 * $2)) -le $((105 * $1)) ]; }
if "$LATCTL" backends 2>/dev/null | grep -q 'bpf: yes'; then
	ok "latctl run chase --mode cold --backend bpf" \
		jrun kinds-chase-bpf chase --mode cold --no-thp --iters 20000 --slow p90 --backend bpf
	zb=$(jget kinds-chase-bpf causes.fault_kinds.zero.count)
	cb=$(jget kinds-chase-bpf causes.fault_kinds.cow.count)
	echo "# chase cold with BPF: zero=$zb cow=$cb; with latmon zero=$z cow=$cold_cow"
	ok "the BPF backend: as many zero faults as latmon ($zb against $z)" near "${z:-0}" "${zb:-0}"
	ok "the BPF backend: --fork copies, one per page" \
		jrun kinds-fork-bpf chase --fork --iters 20000 --slow p90 --backend bpf
	cf=$(jget kinds-fork-bpf causes.fault_kinds.cow.count)
	ok "... $cf cow faults" [ "${cf:-0}" -gt 15000 ]
else
	echo "# the BPF backend cannot record in this guest: $("$LATCTL" backends 2>&1 | grep bpf)"
fi
if [ -e /sys/kernel/mm/transparent_hugepage/enabled ]; then
	set_thp always
	ok "latctl run grow --thp always" jrun kinds-grow grow --thp always --iters 1000000 --slow p90
else	# PREEMPT_RT builds have no THP
	ok "latctl run grow (no THP in this kernel)" jrun kinds-grow grow --iters 1000000 --slow p90
fi
a=$(jget kinds-grow causes.fault_kinds.anon.count)
t=$(jget kinds-grow causes.fault_kinds.thp.count)
h=$(jget kinds-grow counters.thp_fault_alloc)
echo "# grow: anon=$a thp=$t (huge pages allocated: $h)"
ok "grow: new anonymous pages" [ "${a:-0}" -gt 0 ]
if [ "${h:-0}" -gt 0 ]; then
	ok "grow: huge pages were allocated: thp faults" [ "${t:-0}" -gt 0 ]
fi
ok "latctl run file --mode warm (tmpfs: page-cache pages)" \
	env LATCTL_FILE_DIR=/tmp "$LATCTL" run file --mode warm --iters 20000 --slow p90 --quiet --json kinds-file.json
f=$(jget kinds-file causes.fault_kinds.file.count)
ok "file warm: file faults ($f)" [ "${f:-0}" -gt 0 ]
