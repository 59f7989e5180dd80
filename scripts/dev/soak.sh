#!/bin/bash
# SPDX-License-Identifier: MIT
# The command-line tests that judge real runs, N times in a row beside
# HOGS busy loops (one per core by default), as a busy box runs them:
#
#   scripts/dev/soak.sh [-n N] [-j HOGS] [TEST...]    (make check-soak)
#
# Prints one line per pass and a closing "N passed, N failed" line; a
# failed pass keeps its TAP output in build/soak/pass-K.log.
set -u
cd "$(dirname "$0")/../.." || exit 1
n=20 hogs=$(nproc)
while getopts n:j: o; do
	case $o in
	n) n=$OPTARG ;;
	j) hogs=$OPTARG ;;
	*) echo "usage: $0 [-n N] [-j HOGS] [TEST...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/cli/lab.t tests/cli/compare.t tests/cli/causes.t
	tests/cli/wl_request.t tests/cli/wl_alloc.t tests/cli/wl_chase.t tests/cli/wl_mmap.t
	tests/cli/wl_exec.t tests/cli/grow.t tests/cli/thp.t tests/cli/mm.t)
log=build/soak
mkdir -p "$log"
pids=()
stop() { [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null; }
trap stop EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$hogs"); do
	sh -c 'while :; do :; done' & pids+=($!)
done
passed=0 failed=0 t0=$SECONDS
for k in $(seq "$n"); do
	s=$SECONDS
	if prove -v "${tests[@]}" >"$log/pass-$k.log" 2>&1; then
		passed=$((passed + 1)) r=ok
	else
		failed=$((failed + 1)) r="FAILED (build/soak/pass-$k.log)"
	fi
	retries=$(grep -c '^# retry:' "$log/pass-$k.log")
	[ "$r" = ok ] && rm -f "$log/pass-$k.log"
	echo "soak: pass $k of $n with $hogs hogs: $r in $((SECONDS - s)) s, load $(cut -d' ' -f1 /proc/loadavg), retries $retries"
done
echo "soak: ${#tests[@]} tests x $n passes in $((SECONDS - t0)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
