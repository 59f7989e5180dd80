#!/bin/bash
# SPDX-License-Identifier: MIT
# TAP helpers for the command-line tests (idea of rtla's tests/engine.sh).
# Source it from a .t script:
#
#   . "$(dirname "$0")/engine.sh"
#   check "what" "command" EXIT REGEX      exit code EXIT, stdout+stderr ~ REGEX
#   check_err "what" "command" EXIT REGEX  exit EXIT, ONE stderr line ~ REGEX,
#                                          nothing on stdout (bad input)
#   ok "what" COMMAND...                   passes when COMMAND succeeds
#   retry "why" "redo" check|ok ARGS...    a claim about real runs that holds
#                                          with a known chance: when it fails,
#                                          says why and what it saw, runs redo
#                                          (new runs) and judges once more
#   between X LO HI                        true if LO <= X <= HI (numbers)
#   run_int LOG SEED SIGNALS ARGS...       latctl run ARGS in a pseudo-terminal,
#                                          Ctrl-C'd (see below)
#   skip_all "why"                         whole file skipped
#   done_testing                           prints the plan; exit 1 if any failed
#
# $LATCTL is the binary under test; $TMPD a scratch dir removed at exit;
# $OUT, $ERR hold the output of the last check. Runs read no hypervisor
# probe this machine stored (LATCTL_VAR_DIR is the scratch dir's) and keep
# their journal of changed settings in the scratch dir (LATCTL_STATE_DIR;
# tests of the real journal unset it and say so).
set -u

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LATCTL=${LATCTL:-$TESTS_DIR/user/latctl}
TMPD=$(mktemp -d /tmp/latctl-test.XXXXXX)
chmod 755 "$TMPD"
export LATCTL_VAR_DIR=$TMPD/var
# each test its own journal, so a run killed on the box changes nothing it
# sees; the lock of the real settings stays the one every latctl shares
export LATCTL_STATE_DIR=$TMPD/state
_n=0
_failed=0
OUT=""
ERR=""
trap 'rm -rf "$TMPD"' EXIT

_report() {	# pass? what diagnostics...
	local pass=$1 what=$2
	shift 2
	_n=$((_n + 1))
	if [ "$pass" = 1 ]; then
		echo "ok $_n - $what"
	else
		echo "not ok $_n - $what"
		_failed=$((_failed + 1))
		local line
		for line in "$@"; do
			printf '%s\n' "$line" | sed 's/^/# /'
		done
		# prove shows only stderr of a passing run's neighbours: say it there too
		{ echo "# not ok $_n - $what ($(basename "$0"))"
		  for line in "$@"; do printf '%s\n' "$line" | sed 's/^/#   /'; done; } >&2
	fi
}

# Run a command line in bash; sets OUT, ERR, RC.
_run() {
	OUT=$(bash -c "$1" 2>"$TMPD/.err")
	RC=$?
	ERR=$(cat "$TMPD/.err")
}

check() {
	local what=$1 cmd=$2 want=$3 re=$4
	_run "$cmd"
	if [ "$RC" = "$want" ] && printf '%s\n%s\n' "$OUT" "$ERR" | grep -Eq -- "$re"; then
		_report 1 "$what"
	else
		_report 0 "$what" "command: $cmd" "exit $RC, wanted $want; wanted output ~ /$re/" \
			"stdout: $(printf '%s' "$OUT" | tail -n 15)" "stderr: $ERR"
	fi
}

check_err() {
	local what=$1 cmd=$2 want=$3 re=$4 lines
	_run "$cmd"
	lines=$(printf '%s' "$ERR" | grep -c '')
	if [ "$RC" = "$want" ] && [ "$lines" = 1 ] && [ -z "$OUT" ] &&
	   printf '%s\n' "$ERR" | grep -Eq -- "$re"; then
		_report 1 "$what"
	else
		_report 0 "$what" "command: $cmd" \
			"exit $RC (wanted $want), $lines stderr lines (wanted 1) ~ /$re/" \
			"stdout: $OUT" "stderr: $ERR"
	fi
}

ok() {
	local what=$1
	shift
	if "$@" >"$TMPD/.okout" 2>&1; then
		_report 1 "$what"
	else
		_report 0 "$what" "command: $*" "$(tail -n 15 "$TMPD/.okout")"
	fi
}

# retry WHY REDO FN ARGS...: FN (check, check_err or ok) with ARGS; a first
# failure is a TAP comment with what it saw, then REDO makes new runs and
# FN's verdict on them is the test's.
retry() {
	local why=$1 redo=$2 n=$_n f=$_failed
	shift 2
	"$@" >"$TMPD/.try" 2>"$TMPD/.tryerr"
	if [ "$_failed" = "$f" ]; then
		cat "$TMPD/.try"
		return
	fi
	_n=$n _failed=$f
	echo "# retry: $why; the first try saw:"
	sed 's/^#*/#  /' "$TMPD/.try"
	bash -c "$redo" >/dev/null 2>&1
	"$@"
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

done_testing() {
	echo "1..$_n"
	[ "$_failed" = 0 ]
}

# run_int LOG SEED SIGNALS ARGS...: latctl run ARGS on a pty; once its loop
# is timed (the still line is drawn; $WAITFOR names another line), and
# $DELAY seconds more, SIGNALS SIGINTs 0.2 s apart; the exit status into
# $TMPD/rc. The wait has no count of tries, a deadline ($WAITMAX s, 600):
# a busy box sets up slowly, and a signal in the setup is no test of the
# loop's. What it waited for and how long is a TAP comment.
run_int() {
	local log=$1 seed=$2 sigs=$3 pid="" start=$SECONDS
	local end=$((SECONDS + ${WAITMAX:-600})) want=${WAITFOR:-timing grow}
	shift 3
	rm -f "$TMPD/rc"
	script -qfec "$LATCTL run $* --seed $seed; echo rc=\$? > $TMPD/rc" "$log" >/dev/null 2>&1 &
	while [ $SECONDS -lt $end ] && [ ! -s "$TMPD/rc" ]; do
		[ -n "$pid" ] || pid=$(pgrep -f -- "^$LATCTL run .*--seed $seed" | head -n1)
		[ -n "$pid" ] && grep -aq "$want" "$log" 2>/dev/null && break
		sleep 0.1
	done
	if grep -aq "$want" "$log" 2>/dev/null; then
		echo "# run_int: '$want' after $((SECONDS - start)) s, then ${DELAY:-0} s"
	else
		echo "# run_int: '$want' not seen in $((SECONDS - start)) s; signalling anyway"
	fi
	sleep "${DELAY:-0}"
	for _ in $(seq "$sigs"); do [ -n "$pid" ] && kill -INT "$pid" 2>/dev/null; sleep 0.2; done
	wait
}

# Value of a JSON key path (perl core JSON::PP): json_get FILE summary p50_ns
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

json_get() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", shift or die; my $d = decode_json(<$f>);
		for my $k (@ARGV) { $d = ref $d eq "ARRAY" ? $d->[$k] : $d->{$k};
			defined $d or exit 3 }
		print ref $d ? JSON::PP->new->canonical->encode($d) : $d, "\n";' "$@"
}

[ -x "$LATCTL" ] || { echo "Bail out! $LATCTL not built (run make)"; exit 1; }
