# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Experiment (not in the suite: suite.sh x): whose are the compaction stalls
# the kernel counts during grow --thp always --fragment, and does the join
# name every compaction the measured thread ran? The kernel's tracefs
# compaction events run beside latmon: per thread, how often the allocator
# tried to compact (try_to_compact_pages), how often a zone was deferred or
# judged not worth it (mm_compaction_suitable), and how often compaction
# really ran (mm_compaction_begin/end); against the loop's compact_stall
# delta, latmon's compaction records and the slow pushes that name
# compaction. Prints one table; the checks assert what must hold whatever
# the kernel chose to do. Sourced by suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"
TR=/sys/kernel/tracing
[ -d $TR/events ] || mount -t tracefs nodev $TR

CX_EVENTS="mm_compaction_try_to_compact_pages mm_compaction_begin mm_compaction_end mm_compaction_deferred mm_compaction_suitable mm_compaction_finished"

# cx_trace 1: clear the trace and start the compaction events; 0: stop them
# (the trace is kept for cx_count).
cx_trace() {
	local e
	echo 0 >$TR/tracing_on
	if [ "$1" = 1 ]; then
		: >$TR/trace
		echo 16384 >$TR/buffer_size_kb
	fi
	for e in $CX_EVENTS; do echo "$1" >"$TR/events/compaction/$e/enable"; done
	echo "$1" >$TR/tracing_on
}

# cx_count TID: per event of the compaction trace, "mine" (thread TID) and
# "other" counts, one line per event name; suitable/finished split by ret.
cx_count() {
	awk -v tid="$1" '
	/^#/ { next }
	{ task = $1; sub(/.*-/, "", task); ev = ""
	  for (i = 2; i <= NF; i++) if ($i ~ /^mm_compaction_[a-z_]*:$/) { ev = $i; break }
	  if (ev == "") next
	  sub(/:$/, "", ev); sub(/^mm_compaction_/, "", ev)
	  if (ev == "suitable" || ev == "finished" || ev == "end") {
	    r = $0; if (match(r, /(ret|status)=[a-z_]+/)) ev = ev "(" substr(r, RSTART, RLENGTH) ")" }
	  who = task == tid ? "mine" : "other"; n[ev " " who]++; evs[ev] = 1 }
	END { for (e in evs) printf "%-32s mine %6d other %6d\n", e, n[e " mine"], n[e " other"] }' $TR/trace | sort
}

load
s0=$(awk '$1 == "compact_stall" { print $2 }' /proc/vmstat)
cx_trace 1
ok "latctl run grow --thp always --fragment --cpu 1, compaction traced" \
	jrun cx grow --thp always --fragment --cpu 1
cx_trace 0
s1=$(awk '$1 == "compact_stall" { print $2 }' /proc/vmstat)
tid=$(jcheck rows cx.json slow.iterations | kv_awk '{ print f["tid"]; exit }')
cx_count "$tid" >cx.table
echo "# kernel $(uname -r): compaction of grow's thread $tid (mine) and the rest (other)"
sed 's/^/#   /' cx.table
begins=$(awk '$1 == "begin" { print $3 }' cx.table)
named=$(jcount cx 'f["breakdown_ticks.compaction"] > 0')
echo "# compact_stall: loop $(jget cx counters.compact_stall), whole command $((s1 - s0)); slow pushes naming compaction $named, of $(jget cx slow.count)"
jwhere cx 'f["breakdown_ticks.compaction"] > 0' | sed 's/^/# /'
jwhere cx 'f["thp"] == "true"' | sed 's/^/# huge: /'
ok "the run recorded kernel events" recorded cx
# Each compaction of the measured thread lies inside one of its faults; a
# fault that long is slow, so the join names it unless the run lost it.
if [ "${begins:-0}" -gt 0 ]; then
	ok "grow's thread compacted $begins times: at least one slow push names compaction ($named)" \
		[ "$named" -ge 1 ]
else
	echo "# grow's thread ran no compaction here: the stalls were deferred, judged unsuitable or another thread's"
fi
