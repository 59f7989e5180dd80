# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Helpers of the join tests (t-9x-*.sh, sourced by suite.sh in the guest):
# run latctl with latmon, read its JSON result through jcheck (cJSON), no
# JSON parsing in shell. Each run is remembered in JOIN_RUNS for t-94,
# and counted in JOIN_TRIED.
JOIN_RUNS=${JOIN_RUNS:-}
JOIN_TRIED=${JOIN_TRIED:-0}

# jrun NAME ARGS...: latctl run ARGS --quiet --json NAME.json; stderr in NAME.err.
jrun() {
	local name=$1
	shift
	JOIN_TRIED=$((JOIN_TRIED + 1))
	"$LATCTL" run "$@" --quiet --json "$name.json" 2>"$name.err"
	local rc=$?
	sed 's/^/# latctl: /' "$name.err"
	[ "$rc" = 0 ] && [ -f "$name.json" ] && JOIN_RUNS="$JOIN_RUNS $name"
	return "$rc"
}

# jget NAME PATH: one value of NAME.json.
jget() { jcheck get "$1.json" "$2"; }

# jcount NAME COND: slow iterations of NAME.json matching an awk condition
# on their flattened members f["primary"], f["breakdown_ticks.fault"], ...
# (numbers compare as numbers, everything else as strings).
jcount() {
	jcheck rows "$1.json" slow.iterations | kv_awk -v kv_num=1 "$2"' { n++ } END { print n + 0 }'
}

# jwhere NAME COND: as jcount, then each matching iteration's index, primary,
# duration and non-zero breakdown, so that a failing check shows which.
jwhere() {
	jcheck rows "$1.json" slow.iterations | kv_awk -v kv_num=1 "$2"' { n++; s = "iteration " f["index"] " " f["primary"] " " f["duration_ticks"] " ticks:"
		for (k in f) if (k ~ /^(breakdown|parts)_ticks\./ && f[k] > 0) s = s " " k "=" f[k]
		m[n] = s } END { print n + 0; for (i = 1; i <= n && i <= 5; i++) print m[i] }'
}

# jtop NAME K: the primary labels of the K slowest iterations, one a line.
jtop() {
	jcheck rows "$1.json" slow.iterations | kv_awk '{ print f["duration_ticks"], f["primary"] }' | sort -rn | head -n "$2" | cut -d' ' -f2
}

# jcause NAME LABEL KEY: KEY of LABEL's row in the cause table (0 if absent).
jcause() {
	jcheck rows "$1.json" causes.causes |
		kv_awk -v l="$2" -v k="$3" 'f["label"] == l && k in f { print f[k]; found = 1 }
		END { if (!found) print 0 }'
}

# The run recorded with latmon (not "latmon is not loaded").
recorded() { [ "$(jget "$1" latmon.state)" = on ] && [ "$(jget "$1" causes.module)" = true ]; }

export -f jget jcount jwhere jtop jcause recorded
