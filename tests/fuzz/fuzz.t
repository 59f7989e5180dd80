#!/bin/sh
# SPDX-License-Identifier: MIT
# TAP: build the libFuzzer targets (tests/fuzz/fuzz.mk) and run each for a
# short time on its seed corpus (FUZZ_CHECK_SECONDS, default 10, at most
# FUZZ_CHECK_RUNS inputs), one at a time. A crash, sanitizer report, leak,
# hang or broken invariant is "not ok" with the reproducer's path; replay it
# with .cache/fuzz/<target> <path>. An input may take 60 s before it counts
# as a hang: fuzz_result renders a result once per key (valid-mmap.json:
# 3.5 s alone under ASan, more beside a busy test VM).
cd "$(dirname "$0")/../.." || exit 1
SECS=${FUZZ_CHECK_SECONDS:-10}
RUNS=${FUZZ_CHECK_RUNS:-1000000}
OUT=$PWD/.cache/fuzz
TARGETS="fuzz_result fuzz_events fuzz_nl fuzz_opts fuzz_plot fuzz_compare"

echo "1..$(echo $TARGETS | wc -w)"
mkdir -p "$OUT" || exit 1
# make: the targets are up to date after `make check`; standalone, build them
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s fuzz-build >"$OUT/build.log" 2>&1; then
	sed 's/^/# /' "$OUT/build.log" | tail -20
	for t in $TARGETS; do
		echo "not ok - $t: the fuzz targets do not build (clang, libclang-rt-14-dev: scripts/deps.sh)"
	done
	exit 1
fi
n=0
fail=0
for t in $TARGETS; do
	n=$((n + 1))
	new=$(mktemp -d /tmp/latctl-fuzz.XXXXXX) || exit 1
	mkdir -p "$OUT/crash/$t"
	log="$OUT/$t.check.log"
	"$OUT/$t" -max_total_time="$SECS" -runs="$RUNS" -timeout=60 \
		-rss_limit_mb=1024 -close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$OUT/crash/$t/" "$new" "tests/fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	rm -rf "$new"
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ "$rc" -eq 0 ] && [ -n "$execs" ]; then
		echo "ok $n - $t: $execs inputs, no crash"
		continue
	fi
	fail=1
	repro=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
	# prove shows stderr only: the failure and its cause go there too
	msg=$({
		echo "not ok $n - $t: exit $rc"
		echo "# reproducer: ${repro:-none written}; log: $log"
		grep -m3 -E 'ERROR|runtime error|SUMMARY|deadly signal|out-of-memory|timeout' "$log" | sed 's/^/# /'
		[ -n "$repro" ] && [ -f "$repro" ] && head -c 600 "$repro" | od -c | head -20 | sed 's/^/# /'
	})
	echo "$msg"
	echo "$msg" >&2
done
exit $fail
