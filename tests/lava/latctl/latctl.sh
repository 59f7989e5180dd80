#!/bin/sh
# SPDX-License-Identifier: MIT
# shellcheck shell=dash
# The latctl test of a kernel test lab: runs the workloads a lab compares
# between kernels, reports each headline metric as a test case with its
# measurement and unit, a pass/fail verdict per workload from
# 'latctl check', and puts each result file into the job log.
#
#   latctl.sh [-w "grow chase mmap"] [-r RUNS] [-s] [-b BASELINE_DIR] [-o OUTPUT]
#
# -r RUNS is each workload's --repeat (default 5: 'latctl check --baseline'
# and 'latctl compare' need 4 or more a side); -s runs each workload a fifth
# as long (for emulated boards).
#
# Test cases (stable names, see tests/lava/README.md):
#   WL               pass when 'latctl run' wrote its result, else fail
#   WL_METRIC        pass, with the measurement: p50 ... p99_9, max, mean,
#                    faults_per_iter, huge_pages, fault_p50 ..., share_CAUSE,
#                    primary_share, lost_events, runs ('latctl report --metrics')
#   WL_check         'latctl check': pass (good), fail (bad), skip (cannot tell)
# Results go to OUTPUT/result.txt ("NAME RESULT [MEASUREMENT UNITS]", the
# test-definitions format) and, under LAVA, to lava-test-case. Each result
# file is also printed between "LATCTL-RESULT-BEGIN WL.json" and
# "LATCTL-RESULT-END" lines (gzip, base64): scripts/lava/lava-results.sh
# takes them back out of the job log for 'latctl compare'.
#
# Environment: LATCTL (the program, default: latctl on PATH), LATMON_KO (a
# latmon.ko to insmod when the module is not loaded), GROW_MAX, CHASE_MAX,
# MMAP_MAX (the limits of 'latctl check --max', space-separated).
set -u

WORKLOADS="grow chase mmap"
RUNS=5
SHORT=0
BASELINE=
OUTPUT=./output
LATCTL=${LATCTL:-latctl}
GROW_MAX=${GROW_MAX:-p99.9=1ms}
CHASE_MAX=${CHASE_MAX:-p99.9=1ms}
MMAP_MAX=${MMAP_MAX:-p99.9=20ms}

usage() {
	echo "usage: $0 [-w WORKLOADS] [-r RUNS] [-s] [-b BASELINE_DIR] [-o OUTPUT]" >&2
	exit 2
}

while getopts "w:r:sb:o:h" opt; do
	case $opt in
	w) WORKLOADS=$OPTARG ;;
	r) RUNS=$OPTARG ;;
	s) SHORT=1 ;;
	b) BASELINE=$OPTARG ;;
	o) OUTPUT=$OPTARG ;;
	*) usage ;;
	esac
done

# The arguments of 'latctl run' for a workload name of this test.
run_args() {
	local d=1
	[ "$SHORT" = 1 ] && d=5
	case $1 in
	grow) echo "grow --thp always --iters $((4000000 / d))" ;;
	chase) echo "chase --mode cold --iters $((200000 / d))" ;;
	mmap) echo "mmap --procs 2 --duration $((10 / d))s" ;;
	*) return 1 ;;
	esac
}

# The --max limits of a workload.
limits() {
	case $1 in
	grow) echo "$GROW_MAX" ;;
	chase) echo "$CHASE_MAX" ;;
	mmap) echo "$MMAP_MAX" ;;
	esac
}

# report NAME RESULT [MEASUREMENT UNITS]: one test case, to result.txt and LAVA.
report() {
	echo "$*" >>"$OUTPUT/result.txt"
	command -v lava-test-case >/dev/null 2>&1 || return 0
	if [ $# -ge 4 ]; then
		lava-test-case "$1" --result "$2" --measurement "$3" --units "$4"
	else
		lava-test-case "$1" --result "$2"
	fi
}

# Find latctl; load latmon when it is not loaded and can be.
setup() {
	if ! command -v "$LATCTL" >/dev/null 2>&1; then
		echo "latctl.sh: $LATCTL not found: install latctl on the device (make install)" >&2
		report latctl-installed fail
		exit 1
	fi
	if [ ! -d /sys/module/latmon ]; then
		modprobe latmon 2>/dev/null ||
			{ [ -n "${LATMON_KO:-}" ] && insmod "$LATMON_KO"; } ||
			echo "latctl.sh: latmon not loaded: latctl records with another backend (see the report)" >&2
	fi
	"$LATCTL" --version
	"$LATCTL" doctor || true
}

# Put a result file into the log, compressed, between marker lines.
print_result() {
	echo "LATCTL-RESULT-BEGIN $(basename "$1")"
	gzip -c "$1" | base64
	echo "LATCTL-RESULT-END"
}

# check WL FILE: the verdict of 'latctl check' as a test case.
check() {
	local rc f args="" lim
	if [ -n "$BASELINE" ] && [ -f "$BASELINE/$1.json" ]; then
		args="--baseline $BASELINE/$1.json"
	fi
	for lim in $(limits "$1"); do
		args="$args --max $lim"
	done
	# shellcheck disable=SC2086
	"$LATCTL" check $args "$2"
	rc=$?
	case $rc in
	0) report "$1_check" pass ;;
	1) report "$1_check" fail ;;
	*) report "$1_check" skip ;;
	esac
}

# run_one WL: run it, report its metrics and verdict.
run_one() {
	local wl=$1 args f="$OUTPUT/$1.json" name value unit
	args=$(run_args "$wl") || { echo "latctl.sh: unknown workload '$wl'" >&2; report "$wl" fail; return; }
	# shellcheck disable=SC2086
	if ! "$LATCTL" run $args --repeat "$RUNS" --json "$f" || [ ! -f "$f" ]; then
		report "$wl" fail
		return
	fi
	report "$wl" pass
	"$LATCTL" report --metrics "$f" | while read -r name value unit; do
		report "${wl}_$name" pass "$value" "$unit"
	done
	check "$wl" "$f"
	print_result "$f"
}

mkdir -p "$OUTPUT"
: >"$OUTPUT/result.txt"
setup
for wl in $WORKLOADS; do
	run_one "$wl"
done
