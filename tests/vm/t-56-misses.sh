# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Probe misses are reported as loss. With fault_maxactive=1
# only one handle_mm_fault can be in flight system-wide, so a target whose
# two threads fault on both CPUs at once misses some of its own faults:
# GET_STATS counts them, and fault records + misses cover getrusage. Then
# latctl, with a fault storm beside it, prints the misses as lost.
# Sourced by suite.sh.
PAGES=4000

# The threads' faults overlap only while both run at once; under TCG's one
# emulation thread a try can pass without that: up to three tries, each on
# a freshly loaded module (its counts from zero).
for try in 1 2 3; do
	unload
	insmod "$KO" fault_maxactive=1
	lmtool record --mask fault --no-read --events miss.bin -- \
		lmtouch --pages $PAGES --threads 2 >miss.out 2>&1
	sed 's/^/# /' miss.out
	n=$(field minflt <miss.out)
	got=$(lmtool read --events miss.bin --count | field fault)
	lmtool stats >miss.stats
	misses=$(grep '^source fault ' miss.stats | field misses)
	echo "# try $try: getrusage $n, fault records $got, probe misses $misses"
	[ "${misses:-0}" -gt 0 ] && break
done
ok "two threads, fault_maxactive=1: the fault probe counts misses ($misses)" \
	[ "${misses:-0}" -gt 0 ]
ok "fault records + misses cover getrusage ($got + $misses >= $n), records fall short" \
	[ $((got + misses)) -ge "$n" -a "$got" -lt "$n" ]
check "no ring loss: the shortfall is the probe's" "grep '^total' miss.stats" 0 ' dropped=0 '

bg sh -c 'while :; do taskset -c 0 lmtouch --pages 3000 >/dev/null; done'
check "latctl beside a fault storm: the report shows the misses as lost" \
	"$LATCTL run chase --mode cold --iters 20000 --cpu 1" 0 \
	'probe misses \(system-wide\): fault [1-9][0-9]*, .*LOST before reaching latmon'
kill $BG_PIDS 2>/dev/null; wait 2>/dev/null; BG_PIDS=""
unload
