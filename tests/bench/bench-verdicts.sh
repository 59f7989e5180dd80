#!/bin/bash
# SPDX-License-Identifier: MIT
# How often compare and check are wrong: by simulation (tests/bench/
# bench_verdicts.c, the statistics of compare and check on log-normal runs
# with a per-invocation effect), and on real results of this machine:
# INVOCATIONS separate `latctl run grow --iters ITERS --repeat 5` of one
# configuration, every pair compared (a table flags anything: a significant
# row) and checked (bad, good, 125), then every pair again with the new
# side's p99.9 multiplied by 1.2, 1.5 and 2 (check must say bad, never good).
#   tests/bench/bench-verdicts.sh [--trials T] [--cv CV] [--icc ICC]
#                                 [--real INVOCATIONS] [--iters ITERS]
# Defaults: 2000 trials, CV 0.15, ICC 0.3; --real 10 --iters 300000 (about
# a minute per invocation here); --real 0 skips the real results.
set -euo pipefail
cd "$(dirname "$0")/../.."
TRIALS=2000 CV=0.15 ICC=0.3 REAL=10 ITERS=300000
while [ $# -gt 0 ]; do
	case $1 in
	--trials) TRIALS=${2:?}; shift 2 ;;
	--cv) CV=${2:?}; shift 2 ;;
	--icc) ICC=${2:?}; shift 2 ;;
	--real) REAL=${2:?}; shift 2 ;;
	--iters) ITERS=${2:?}; shift 2 ;;
	*) echo "usage: $0 [--trials T] [--cv CV] [--icc ICC] [--real N] [--iters ITERS]" >&2; exit 2 ;;
	esac
done
CC=${CC:-cc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
pkgs="libnl-genl-3.0 libcjson libbpf zlib"
make -s all tests/unit/test_liblatctl.a
mkdir -p build
# shellcheck disable=SC2046 # pkg-config output is a word list
$CC -O2 -g -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -Iuser $($PKG_CONFIG --cflags $pkgs) \
	-o build/bench_verdicts tests/bench/bench_verdicts.c tests/unit/test_liblatctl.a \
	$($PKG_CONFIG --libs $pkgs) -lm
build/bench_verdicts "$TRIALS" "$CV" "$ICC"
[ "$REAL" -ge 2 ] || exit 0

L=$PWD/user/latctl
D=$(mktemp -d /tmp/bench-verdicts.XXXXXX)
trap 'rm -rf "$D"' EXIT
echo "real results: $REAL invocations of latctl run grow --iters $ITERS --repeat 5 ($(uname -r), $(nproc) CPUs)"
for i in $(seq 1 "$REAL"); do
	"$L" run grow --iters "$ITERS" --repeat 5 --quiet --json "$D/r$i.json"
done
# A copy of $1 with every run's p99.9 times $2.
scaled() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
		$_->{summary}{p99_9_ns} *= $ARGV[1] for @{$d->{repeat}{per_run}};
		print JSON::PP->new->canonical->encode($d)' "$1" "$2" > "$3"
}
pairs=0 tables=0 bad=0 good=0 skip=0
declare -A sbad sgood
for i in $(seq 1 "$REAL"); do
	for j in $(seq 1 "$REAL"); do
		[ "$i" -lt "$j" ] || continue
		pairs=$((pairs + 1))
		"$L" compare --json "$D/c.json" "$D/r$i.json" "$D/r$j.json" >/dev/null
		perl -MJSON::PP -e 'local $/; my $d = decode_json(<>);
			exit((grep { $_->{significant} } @{$d->{comparisons}[0]{metrics}}) ? 0 : 1)' "$D/c.json" &&
			tables=$((tables + 1))
		rc=0; "$L" check --baseline "$D/r$i.json" "$D/r$j.json" >/dev/null 2>&1 || rc=$?
		case $rc in 0) good=$((good + 1)) ;; 1) bad=$((bad + 1)) ;; *) skip=$((skip + 1)) ;; esac
		for f in 1.2 1.5 2; do
			scaled "$D/r$j.json" "$f" "$D/s.json"
			rc=0; "$L" check --baseline "$D/r$i.json" "$D/s.json" >/dev/null 2>&1 || rc=$?
			[ "$rc" = 1 ] && sbad[$f]=$((${sbad[$f]:-0} + 1))
			[ "$rc" = 0 ] && sgood[$f]=$((${sgood[$f]:-0} + 1))
		done
	done
done
echo "A/A over $pairs pairs of invocations: $tables tables flag a row; check bad $bad, good $good, cannot tell $skip"
for f in 1.2 1.5 2; do
	echo "p99.9 x$f: check bad ${sbad[$f]:-0} of $pairs, good ${sgood[$f]:-0}"
done
