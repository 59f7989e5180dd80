#!/bin/bash
# SPDX-License-Identifier: MIT
# Helpers of the VM test suite (sourced by /tests/suite.sh inside the guest,
# after tests/cli/engine.sh): module load/unload, record parsing, cleanup.

KO=${KO:-/lib/modules/latmon.ko}
THP=/sys/kernel/mm/transparent_hugepage/enabled
THP_SAVED=""
BG_PIDS=""

loaded() { grep -q '^latmon ' /proc/modules; }
load() { loaded || insmod "$KO"; }
unload() { ! loaded || rmmod latmon; }

# Value of KEY=VALUE on the first line of stdin that has it.
field() { sed -n "s/^\(.* \)\{0,1\}$1=\([^ ]*\).*/\2/p" | head -n1; }

# The one KEY=VALUE parser of the test scripts: before PROGRAM sees a line,
# every KEY=VALUE field of it is in f["KEY"] (f is fresh per line; fields
# without "=" such as a record's type stay in $1, $2, ...). With -v kv_num=1
# values that look like numbers are numbers (compare as numbers).
#   kv_awk [-v NAME=VALUE]... PROGRAM [FILE]...
# shellcheck disable=SC2089,SC2090 # an awk program's text, never run as a command
KV_AWK_LIB='function kv_split(   i, k, v) { delete f; for (i = 1; i <= NF; i++) {
	if (!index($i, "=")) continue; k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v)
	f[k] = kv_num && v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ ? v + 0 : v } }
{ kv_split() }
'
kv_awk() {
	local args=()
	while [ "${1:-}" = -v ]; do args+=("$1" "$2"); shift 2; done
	local prog=$1
	shift
	awk "${args[@]}" "$KV_AWK_LIB$prog" "$@"
}

# is "what" GOT WANT: one TAP line; a failure says what was wanted and what came.
is() {
	if [ "$2" = "$3" ]; then
		_report 1 "$1"
	else
		_report 0 "$1" "wanted '$3'" "got    '$2'"
	fi
}

# Count records of FILE matching an awk condition on their fields.
# The fields of a record line are in f["name"]; $1 is its type.
count_where() {
	lmtool read --events "$1" | kv_awk "$2"' { n++ } END { print n + 0 }'
}

# Records of FILE whose per-CPU seq is not the count of that CPU's earlier
# records (the header promises 0, 1, 2, ... per ring, lost records included).
seq_gaps() {
	count_where "$1" 'f["seq"] + 0 != next_seq[f["cpu"]]++'
}

# Per CPU of the records in FILE ($1): "cpu C records=N lost=L lost_records=R",
# N counting the records of type $2 (default: every type but lost records).
ring_counts() {
	lmtool read --events "$1" | kv_awk -v type="${2:-}" '
	{ c = f["cpu"]; seen[c] = 1 }
	$1 != "lost" && (type == "" || $1 == type) { rec[c]++ }
	$1 == "lost" { lo[c] += f["count"]; lr[c]++ }
	END { for (c in seen) printf "cpu %d records=%d lost=%d lost_records=%d\n",
		c, rec[c], lo[c], lr[c] }' | sort -n -k2
}

# ring_counts ($1) against `lmtool stats` ($2): the CPUs where they disagree
# (records != recorded, lost != dropped, lost records, read != both).
ring_counts_disagree() {
	kv_awk 'NR == FNR { for (k in f) s[$2, k] = f[k]; c[$2] = 1; next }
	$1 == "cpu" { for (k in f) t[$2, k] = f[k]; c[$2] = 1 }
	END { for (k in c) if (s[k, "records"] + 0 != t[k, "recorded"] + 0 ||
		s[k, "lost"] + 0 != t[k, "dropped"] + 0 ||
		s[k, "lost_records"] + 0 != t[k, "lost_records"] + 0 ||
		s[k, "records"] + s[k, "lost_records"] != t[k, "read"] + 0) print "cpu" k }' "$1" "$2"
}

# Run something in the background and remember it for cleanup.
bg() { "$@" & BG_PIDS="$BG_PIDS $!"; }

set_thp() {
	[ -n "$THP_SAVED" ] || THP_SAVED=$(sed 's/.*\[\(.*\)\].*/\1/' "$THP")
	echo "$1" >"$THP"
}

# trap cleanup EXIT: stop what runs, restore THP, leave the module unloaded.
cleanup() {
	local p
	for p in $BG_PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -z "$THP_SAVED" ] || echo "$THP_SAVED" >"$THP"
	loaded && { lmtool stop >/dev/null 2>&1; rmmod latmon; }
	rm -rf "$TMPD"
}

# Whether the page allocator zeroes what it hands out (init_on_alloc on):
# the boot log's "mem auto-init: ... heap alloc:on|off", else the command line.
alloc_zeroes() {
	case ${LATMON_HEAP_INIT:-} in
	on) return 0 ;;
	off) return 1 ;;
	esac
	! grep -q 'init_on_alloc=0' /proc/cmdline
}

# Whether the --fragment checks run here: not on 6.1 unless LATMON_FRAGMENT=1.
# Filling the 6.1 guest's memory under a loaded host once soft-locked it
# (a 279 s "soft lockup" in lmmm's fill, kernel log check failed).
fragment_here() {
	[ "${LATMON_FRAGMENT:-}" = 1 ] && return 0
	case $(uname -r) in 6.1.*) return 1 ;; esac
}
# klog_split DMESG STALLS: print the kernel log without the stall reports of
# the emulated CPU (soft lockup, RCU stall, and a task hung behind a CPU
# that did not run: khugepaged waiting 120 s for an LRU drain on a CPU an
# overloaded host had stopped) whose stack has no latmon frame; those go
# to STALLS. A stall report runs from its first line to the end of its
# task stack (</TASK>); one that does not end, or has a latmon frame in its
# call chain, stays. A frame the unwinder marks "?" is stale stack content,
# not the chain: a 26 s soft lockup in clear_page_erms under a huge-page
# fault of lmmm (6.12, the host busy with two guests) listed
# "? fault_entry+0x10d/0x120 [latmon]", the kretprobe handler that ran
# before the fault, and failed the suite.
STALL_RE='BUG: soft lockup|rcu: INFO: rcu_[a-z]* (self-)?detected stall|rcu_[a-z]* detected stalls|INFO: task .* blocked for more than [0-9]+ seconds'
klog_split() {
	awk -v stalls="$2" -v re="$STALL_RE" '
	function flush(keep) { printf "%s", blk > (keep ? "/dev/stdout" : stalls); blk = ""; inb = lat = 0 }
	$0 ~ re { inb = 1 }
	inb { blk = blk $0 "\n"; if ($0 ~ /\[latmon\]/ && $0 !~ /\][ \t]+\? /) lat = 1
	      if ($0 ~ /<\/TASK>/) flush(lat); next }
	{ print }
	END { if (inb) flush(1) }' "$1"
}

export -f loaded load unload klog_split field fragment_here alloc_zeroes kv_awk count_where seq_gaps ring_counts ring_counts_disagree
# shellcheck disable=SC2090 # the awk program, as text
export KO KV_AWK_LIB STALL_RE
