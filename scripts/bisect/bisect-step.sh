#!/bin/bash
# SPDX-License-Identifier: MIT
# One step of a kernel bisect for `git bisect run`: build the kernel of the
# tree's current commit, build latmon against it, boot it in the QEMU test
# bed, run the workload --repeat N there, check the result against a
# baseline (or absolute limits) with `latctl check`.
#
#   git bisect run /path/to/latctl/scripts/bisect/bisect-step.sh [options] -- WORKLOAD [OPTIONS]
#
# Exit 0 good, 1 bad, 125 skip: a build or boot failure, a run that failed,
# timed out or lost events, too few runs, another machine; 128 (which stops
# the bisect) only for check arguments that no commit could pass, found
# before anything is built (a cause that does not exist, a --baseline that
# is not there). One line per phase on stderr, and on a
# terminal one more rewritten in place while the phase runs (PHASE ... N s);
# every step's result is kept as RESULTS/step-NN-COMMIT.json, and
# RESULTS/steps.log has one line per step (commit, verdict, why), so
# `latctl compare BASELINE RESULTS/step-*.json` shows the whole bisect.
#
# The tree is either a Linux source tree or a test-bed tree holding
# testbed.conf with `kernel=6.1|6.12` (one of the test bed's prebuilt Debian
# kernels) and `append=ARGS` (its command line): a commit whose testbed.conf
# names no such kernel does not build.
#
# A Linux tree is built with O=BUILD, incrementally, from the configuration
# users run (scripts/bisect/kernel-config.sh): the distribution's (--config
# FILE, else Debian's config of the test bed's kernel of the same series),
# its modules off (the test bed loads none but latmon), every built-in
# option as the distribution sets it (init_on_alloc, THP, preemption, HZ,
# BTF); the options changed are said once, in CONFIG-CHANGES. --tinyconfig
# builds tinyconfig + scripts/bisect/bisect-kernel.config instead (minutes,
# not the users' kernel). The build dependencies are installed first
# (scripts/deps.sh kernel); latmon's vermagic is checked against the built
# kernel's release.
#
# A step that check cannot decide (125: the change neither shown within
# nor over --regression) boots again, --repeat more runs each time, up to
# --max-boots boots in all, and is judged on every boot so far; each check
# is one of the step's possible looks (check --looks: Bonferroni over
# them, so the error rates hold over the whole sequence). Against a
# baseline of one file, the boots' runs are taken together
# (check --runs-together); against several, each boot is one unit
# (check --pool). No boot starts once the step has run --max-step-time.
#
# --lab URL runs each boot as a job on a LAVA lab instead of this machine's
# QEMU (scripts/lava/lab-client.py, the REST API v0.2; the token from
# $LATCTL_LAVA_TOKEN or the file $LATCTL_LAVA_TOKEN_FILE): the kernel and
# the ramdisk (the test bed's, with scripts/lava/lava-init.sh as /init) are
# put in --lab-share DIR, which the workers read at --lab-share-url
# (default file://DIR: a lab on this machine, scripts/lava/lab-up.sh); the
# --boots N boots of a step are N jobs at once, on the devices the
# scheduler gives them; each result keeps its device (environment.device).
# A job that ends Incomplete or Canceled, times out or has no result is
# submitted again (--lab-retries), then the step is 125 with the job ids
# and why; a URL, token or device type the lab refuses is 128 before
# anything is built.
#
# --improvement finds the commit that made things faster: with
#   git bisect start --term-old=slow --term-new=fast FAST SLOW
# and a --baseline recorded on SLOW, a step is "fast" (exit 1) when the
# baseline is significantly worse than it (latctl check with the roles
# swapped) and "slow" (exit 0) when it is not.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LATCTL=$ROOT/user/latctl
FRAGMENT=$ROOT/scripts/bisect/bisect-kernel.config
SKIP=125

usage() {
	cat >&2 <<-EOF
	usage: $0 [options] -- WORKLOAD [OPTIONS]
	  --baseline FILE    result of a good kernel: check --baseline FILE (repeatable:
	                     invocations of the good kernel, e.g. a --record with --boots)
	  --boots N          boot the step N times, --repeat runs each; check pools the
	                     N results, each boot one unit (default 1)
	  --build DIR        kernel build directory, kept between steps (default RESULTS/build)
	  --config FILE      Linux tree: the distribution configuration to start from (default:
	                     Debian's config of the test bed's kernel of the tree's series)
	  --improvement      find a speed-up: exit 1 when the step is significantly faster
	                     than --baseline (git bisect terms: old=slow, new=fast)
	  --jobs N           make -j (default: online CPUs)
	  --lab URL          run each boot as a job on the LAVA lab at URL (token:
	                     \$LATCTL_LAVA_TOKEN or the file \$LATCTL_LAVA_TOKEN_FILE)
	  --lab-deadline S   cancel a job not finished S seconds after it was submitted, and
	                     submit it again (default --timeout + 600)
	  --lab-device-type T  the lab's device type to boot on (default qemu)
	  --lab-retries N    submit a job that the lab did not finish again, N times (default 2)
	  --lab-share DIR    where the kernel and ramdisk go for the lab's workers
	  --lab-share-url URL  DIR as the workers see it (default file://DIR)
	  --max METRIC=LIMIT absolute limit for check (repeatable)
	  --max-boots N      boot an undecided step again, up to N boots in all, judged on
	                     them all at each look (default 3; 1: one look, as before)
	  --max-step-time S  start no further boot after S seconds of the step (default 7200)
	  --metric METRIC    what --baseline compares (default fault:p50, the median time of
	                     a page fault of the loop in latmon's records; repeatable)
	  --record FILE      only run and keep the result as FILE (make the baseline; with
	                     --boots N: FILE-b1.json .. FILE-bN.json)
	  --regression PCT   tolerated worsening against --baseline (default 10%)
	  --repeat N         runs per step, each in a fresh process (default 5)
	  --results DIR      where every step's result goes (default ./latctl-bisect)
	  --timeout SECONDS  one boot and its runs (default 1800)
	  --tinyconfig       Linux tree: tinyconfig + bisect-kernel.config (fast, not the users' kernel)
	  --tree DIR         the kernel tree (default: the current directory)
	example: git bisect run ~/latctl/scripts/bisect/bisect-step.sh --baseline good.json -- grow --no-thp
	EOF
	exit "$SKIP"
}

say() { progress_end; echo "bisect-step: $COMMIT: $*" >&2; }
# On a terminal (and unless LATCTL_PROGRESS=0): "PHASE ... N s" rewritten
# once a second by a background loop until progress_end erases it.
progress() {
	local start=$SECONDS
	progress_end
	[ -t 2 ] && [ "${LATCTL_PROGRESS-}" != 0 ] || return 0
	while :; do
		printf '\r\033[Kbisect-step: %s: %s ... %d s' "$COMMIT" "$1" $((SECONDS - start)) >&2
		sleep 1
	done &
	PROGRESS_PID=$!
}
progress_end() {
	[ -n "${PROGRESS_PID-}" ] || return 0
	kill "$PROGRESS_PID" 2>/dev/null
	wait "$PROGRESS_PID" 2>/dev/null
	PROGRESS_PID=
	printf '\r\033[K' >&2
}
# Give up on this commit: one line, exit 125.
skip() { say "skip (125): $*"; echo "$COMMIT 125 $*$(facts)" >>"$RESULTS/steps.log"; exit "$SKIP"; }
# What the step did so far, for its line in steps.log.
facts() {
	local f=""
	[ -n "${KREL-}" ] && f="kernel $KREL"
	[ -n "${BUILD_S-}" ] && f="$f${f:+, }build $BUILD_S s"
	[ -n "${BOOT_S-}" ] && f="$f${f:+, }boot and runs $BOOT_S s, $((REPEAT * ${#STEPS[@]})) runs in ${#STEPS[@]} boot(s)"
	[ -n "${LAB_JOBS-}" ] && f="$f${f:+, }lab jobs$LAB_JOBS on$(printf ' %s' "${DEVICES[@]}")"
	[ -n "$f" ] && echo "; $f"
}

parse() {
	TREE=. RESULTS=./latctl-bisect BUILD="" JOBS=$(nproc) REPEAT=5 TIMEOUT=1800 BOOTS=1
	MAX_BOOTS="" MAX_STEP_S=7200
	RECORD="" CHECK=() CONFIG="" TINY=0 IMPROVE=0 BASELINES=()
	LAB="" LAB_TYPE=qemu LAB_RETRIES=2 LAB_SHARE="" LAB_URL="" LAB_DEADLINE=""
	while [ $# -gt 0 ]; do
		case $1 in
		--baseline) BASELINES+=("${2:?}"); CHECK+=(--baseline "$2"); shift 2 ;;
		--config) CONFIG=${2:?}; shift 2 ;;
		--improvement) IMPROVE=1; shift ;;
		--tinyconfig) TINY=1; shift ;;
		--boots) BOOTS=${2:?}; shift 2 ;;
		--max-boots) MAX_BOOTS=${2:?}; shift 2 ;;
		--max-step-time) MAX_STEP_S=${2:?}; shift 2 ;;
		--build) BUILD=${2:?}; shift 2 ;;
		--jobs) JOBS=${2:?}; shift 2 ;;
		--lab) LAB=${2:?}; shift 2 ;;
		--lab-deadline) LAB_DEADLINE=${2:?}; shift 2 ;;
		--lab-device-type) LAB_TYPE=${2:?}; shift 2 ;;
		--lab-retries) LAB_RETRIES=${2:?}; shift 2 ;;
		--lab-share) LAB_SHARE=${2:?}; shift 2 ;;
		--lab-share-url) LAB_URL=${2:?}; shift 2 ;;
		--max | --metric | --regression) CHECK+=("$1" "${2:?}"); shift 2 ;;
		--record) RECORD=${2:?}; shift 2 ;;
		--repeat) REPEAT=${2:?}; shift 2 ;;
		--results) RESULTS=${2:?}; shift 2 ;;
		--timeout) TIMEOUT=${2:?}; shift 2 ;;
		--tree) TREE=${2:?}; shift 2 ;;
		--) shift; break ;;
		*) usage ;;
		esac
	done
	[ $# -ge 1 ] || usage
	WORKLOAD=("$@")
	default_metric
	case $BOOTS in '' | *[!0-9]* | 0) echo "bisect-step: --boots '$BOOTS' is not valid; give a whole number from 1" >&2; exit "$SKIP" ;; esac
	: "${MAX_BOOTS:=$((BOOTS > 3 ? BOOTS : 3))}"
	case $MAX_BOOTS in '' | *[!0-9]* | 0) echo "bisect-step: --max-boots '$MAX_BOOTS' is not valid; give a whole number from 1" >&2; exit "$SKIP" ;; esac
	[ "$MAX_BOOTS" -ge "$BOOTS" ] || { echo "bisect-step: --max-boots $MAX_BOOTS is fewer than --boots $BOOTS" >&2; exit "$SKIP"; }
	case $MAX_STEP_S in '' | *[!0-9]*) echo "bisect-step: --max-step-time '$MAX_STEP_S' is not valid; give whole seconds" >&2; exit "$SKIP" ;; esac
	[ -n "$RECORD" ] || [ ${#CHECK[@]} -gt 0 ] || {
		echo "bisect-step: give --baseline GOOD.json, --max METRIC=LIMIT or --record FILE" >&2
		exit "$SKIP"
	}
}

# Against a baseline without --metric, judge the faults themselves: a
# fault's median time moves with the kernel's fault path and hardly with
# one run's scheduling, where p99.9 (check's own default) needs many runs.
default_metric() {
	local a
	[ ${#BASELINES[@]} -gt 0 ] || return 0
	for a in "${CHECK[@]}"; do
		[ "$a" = --metric ] && return 0
	done
	CHECK+=(--metric fault:p50)
}

# Test-bed tree: KERNEL (a Debian series of the test bed) and APPEND.
build_testbed() {
	local conf=$TREE/testbed.conf
	SERIES=$(sed -n 's/^kernel=//p' "$conf" | tail -n1)
	APPEND=$(sed -n 's/^append=//p' "$conf" | tail -n1)
	case $SERIES in
	6.1 | 6.12) ;;
	*) skip "build failed: testbed.conf names kernel '$SERIES'; the test bed has 6.1 and 6.12" ;;
	esac
	scripts_ok "$ROOT/scripts/testbed/kernel-fetch.sh" "$SERIES" || skip "build failed: cannot fetch Debian $SERIES"
	scripts_ok "$ROOT/scripts/testbed/vm-module.sh" "$SERIES" || skip "latmon does not build against Debian $SERIES"
	KO=$ROOT/build/vm/$SERIES/latmon.ko VMLINUZ=""
	KDESC="Debian $SERIES, command line '$APPEND'"
}

# Run a helper script quietly, its output in the step's log.
scripts_ok() { "$@" >>"$LOG" 2>&1; }

# The kernel build's tools, installed when missing; a missing one named.
build_tools() {
	local t missing=""
	"$ROOT/scripts/deps.sh" kernel >>"$LOG" 2>&1 || true
	for t in flex bison bc pahole openssl; do
		command -v "$t" >/dev/null || missing="$missing $t"
	done
	[ -e /usr/include/gelf.h ] || missing="$missing libelf-dev"
	[ -e /usr/include/openssl/ssl.h ] || missing="$missing libssl-dev"
	[ -z "$missing" ] || skip "kernel build tools missing:$missing (scripts/deps.sh kernel installs them)"
}

# tinyconfig + the fragment, when the fragment is newer than the config.
configure_tiny() {
	local b=$1
	[ ! -f "$b/.config" ] || [ "$FRAGMENT" -nt "$b/.config" ] || return 0
	make -s -C "$TREE" O="$b" tinyconfig >>"$LOG" 2>&1 &&
		(cd "$TREE" && scripts/kconfig/merge_config.sh -m -O "$b" "$b/.config" "$FRAGMENT") >>"$LOG" 2>&1 &&
		make -s -C "$TREE" O="$b" olddefconfig >>"$LOG" 2>&1 || skip "configure failed (see $LOG)"
}

# Latmon's vermagic names the release of the kernel it was built for.
check_vermagic() {
	local vm
	vm=$(modinfo -F vermagic "$KO" 2>/dev/null | cut -d' ' -f1)
	[ "$vm" = "$KREL" ] || skip "latmon's vermagic '$vm' is not the built kernel's release '$KREL'"
}

# Linux tree: configure (once per build directory, again when the base
# configuration changes), then build incrementally.
build_linux() {
	local b=$BUILD
	mkdir -p "$b"
	build_tools
	if [ "$TINY" = 1 ]; then
		configure_tiny "$b"
	else
		"$ROOT/scripts/bisect/kernel-config.sh" --tree "$TREE" --build "$b" ${CONFIG:+--config "$CONFIG"} \
			>>"$LOG" 2>"$WORK/config.err" || skip "configure failed: $(tail -n1 "$WORK/config.err")"
		[ -s "$WORK/config.err" ] && say "$(cat "$WORK/config.err")"
	fi
	# the same version string every step: a commit that changes no source
	# of the image relinks nothing
	export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2026-01-01} KBUILD_BUILD_VERSION=${KBUILD_BUILD_VERSION:-1}
	make -C "$TREE" O="$b" -j"$JOBS" bzImage modules >>"$LOG" 2>&1 || skip "build failed (see $LOG)"
	KREL=$(make -s -C "$TREE" O="$b" kernelrelease 2>/dev/null)
	# latmon's build directory is the kernel build directory's own: steps
	# that run at once (bisect-sections.sh) never share one
	SERIES=bisect-$(printf '%s' "$(cd "$b" && pwd -P)" | sha256sum | cut -c1-8)
	LATMON_VM_KDIR=$b scripts_ok "$ROOT/scripts/testbed/vm-module.sh" "$SERIES" ||
		skip "latmon does not build against this kernel (see $LOG)"
	KO=$ROOT/build/vm/$SERIES/latmon.ko VMLINUZ=$b/arch/x86/boot/bzImage
	check_vermagic
	APPEND=${LATCTL_BISECT_APPEND-}
	KDESC=$KREL
}

phase_build() {
	local start=$SECONDS
	progress "building the kernel, latmon and the initramfs"
	if [ -f "$TREE/testbed.conf" ]; then
		build_testbed
	elif [ -f "$TREE/Kconfig" ] && [ -d "$TREE/arch/x86" ]; then
		build_linux
	else
		skip "$TREE is neither a Linux source tree nor a test-bed tree (testbed.conf)"
	fi
	make -s -C "$ROOT" user >>"$LOG" 2>&1 || skip "latctl does not build (see $LOG)"
	"$ROOT/scripts/testbed/vm-initramfs.sh" --kernel "$SERIES" --module "$KO" ${LAB:+--init "$ROOT/scripts/lava/lava-init.sh"} \
		--out "$WORK/initramfs.cpio.gz" >>"$LOG" 2>&1 || skip "the test bed's initramfs does not build (see $LOG)"
	[ -z "$LAB" ] || lab_publish
	BUILD_S=$((SECONDS - start))
	say "build: $KDESC, latmon and initramfs in $BUILD_S s"
}

# Boot, insmod latmon, latctl run WORKLOAD --repeat N --json /out/step.json;
# the result into STEPS. $1: which boot of BOOTS.
boot_once() {
	local start=$SECONDS rc=0 img=() what="" n
	if [ -n "$LAB" ]; then
		lab_boots "$1"
		return
	fi
	[ -n "$VMLINUZ" ] && img=(--vmlinuz "$VMLINUZ")
	[ "$BOOTS" -gt 1 ] && what=" (boot $1 of $BOOTS)"
	[ "$1" -gt "$BOOTS" ] && what=" (boot $1, up to $MAX_BOOTS)"
	progress "booting and $REPEAT runs of ${WORKLOAD[*]}$what"
	"$ROOT/scripts/testbed/vm-run.sh" --kernel "$SERIES" "${img[@]}" --initramfs "$WORK/initramfs.cpio.gz" \
		--timeout "$TIMEOUT" --append "$APPEND" --out-dir "$WORK" --console "$WORK/console.log" -- \
		/bin/sh -c 'insmod /lib/modules/latmon.ko || exit 3; exec latctl run "$@"' latctl \
		"${WORKLOAD[@]}" --repeat "$REPEAT" --quiet --json /out/step.json >>"$LOG" 2>&1 || rc=$?
	case $rc in
	0) ;;
	3) skip "boot: latmon does not load in this kernel (see $LOG)" ;;
	124) skip "timeout: the boot and runs took over $TIMEOUT s" ;;
	125) grep -q 'Kernel panic' "$WORK/console.log" 2>/dev/null &&
		skip "boot failed: the kernel panicked: $(grep -m1 'Kernel panic' "$WORK/console.log" | cut -c1-120)"
	     skip "boot failed: the guest died without a status (see $WORK/console.log)" ;;
	*) skip "the run failed in the guest (exit $rc, see $LOG)" ;;
	esac
	[ -s "$WORK/step.json" ] || skip "the run left no result"
	keep_step "$1"
	BOOT_S=$((${BOOT_S:-0} + SECONDS - start))
	say "boot and $REPEAT runs of ${WORKLOAD[*]}$what: $((SECONDS - start)) s, result $STEP"
}

# WORK/step.json as the step's result of boot $1: STEP, added to STEPS.
keep_step() {
	local n
	n=$(printf %02d $(($(ls "$RESULTS"/step-*.json 2>/dev/null | sed 's/-b[0-9]*\.json$/.json/' | sort -u | wc -l) + 1)))
	[ "$1" -gt 1 ] && n=${STEPN:-$n}
	STEPN=$n
	STEP=$RESULTS/step-$n-$COMMIT.json
	[ "$BOOTS" -gt 1 ] || [ "$1" -gt 1 ] && STEP=$RESULTS/step-$n-$COMMIT-b$1.json
	mv "$WORK/step.json" "$STEP"
	STEPS+=("$STEP")
}

phase_run() {
	local b
	STEPS=()
	if [ -n "$LAB" ]; then
		lab_boots $(seq 1 "$BOOTS")
		return
	fi
	for b in $(seq 1 "$BOOTS"); do
		boot_once "$b"
	done
}

# --record FILE: the result as FILE, or each boot's as FILE-bK.json.
record() {
	local b=0 f out=()
	for f in "${STEPS[@]}"; do
		b=$((b + 1))
		out+=("$RECORD")
		[ "$BOOTS" -gt 1 ] && out[-1]=${RECORD%.json}-b$b.json
		cp "$f" "${out[-1]}" || skip "cannot write ${out[-1]}"
	done
	say "recorded ${out[*]}"
	echo "$COMMIT record ${out[*]}" >>"$RESULTS/steps.log"
}

# The step's looks: every boot from --boots to --max-boots is one, when
# the step is judged against a baseline (not --record, --max alone or
# --improvement).
looks() {
	if [ -z "$RECORD" ] && [ "$IMPROVE" = 0 ] && [ ${#BASELINES[@]} -gt 0 ]; then
		echo $((MAX_BOOTS - BOOTS + 1))
	else
		echo 1
	fi
}

# check on every boot so far: one result alone; several as units (--pool),
# or against one baseline file as its runs are (--runs-together). The
# verdict's line in LINE, its code returned.
judge() {
	local rc=0 how=()
	if [ "$IMPROVE" = 1 ]; then
		LINE=$(check_improvement) || rc=$?
		return "$rc"
	fi
	if [ ${#STEPS[@]} -gt 1 ]; then
		how=(--pool)
		[ ${#BASELINES[@]} = 1 ] && how=(--runs-together)
	fi
	[ "$(looks)" -gt 1 ] && how+=(--looks "$(looks)")
	LINE=$("$LATCTL" check "${CHECK[@]}" "${how[@]}" "${STEPS[@]}" 2>&1) || rc=$?
	return "$rc"
}

# 0 when another boot may decide an undecided step (the reason in LINE),
# said; else 1, with why not in NOTE when the cap stopped it.
boot_again() {
	local n=${#STEPS[@]} per
	NOTE=""
	[ "$(looks)" -gt 1 ] || return 1
	case $LINE in
	*"spread too widely"*) return 1 ;;	# over 1000 runs: no boot helps
	*"neither shown within nor over"* | *"too few runs a side for a bound"*) ;;
	*"too few runs: the baseline has "*) base_enough || return 1 ;;
	*) return 1 ;;
	esac
	if [ "$n" -ge "$MAX_BOOTS" ]; then
		NOTE="; undecided after $n boots (--max-boots $MAX_BOOTS)"
		return 1
	fi
	per=$((BOOT_S / n))
	if [ $((SECONDS - STEP_START + per)) -gt "$MAX_STEP_S" ]; then
		NOTE="; no further boot: the step has run $((SECONDS - STEP_START)) s, a boot takes about $per s (--max-step-time $MAX_STEP_S)"
		return 1
	fi
	say "undecided after $n boot(s): booting again, look $((n - BOOTS + 2)) of $(looks)"
	return 0
}

# The baseline has the units a verdict needs (only the step lacks them).
base_enough() {
	local have need
	have=$(sed -n 's/.*too few runs: the baseline has \([0-9]*\),.*/\1/p' <<<"$LINE")
	need=$(sed -n 's/.*a significant difference needs \([0-9]*\) a side.*/\1/p' <<<"$LINE")
	[ -n "$have" ] && [ -n "$need" ] && [ "$have" -ge "$need" ]
}

phase_check() {
	local rc
	if [ -n "$RECORD" ]; then
		record
		return 0
	fi
	while :; do
		rc=0
		judge || rc=$?
		if [ "$rc" != "$SKIP" ] || ! boot_again; then
			break
		fi
		boot_once $((${#STEPS[@]} + 1))
	done
	case $rc in
	0 | 1 | 125) ;;
	*) rc=$SKIP ;;
	esac
	say "check: $LINE$NOTE$(facts)"
	echo "$COMMIT $rc ${LINE#latctl check: }$NOTE$(facts)" >>"$RESULTS/steps.log"
	return "$rc"
}

# --improvement: the roles of check swapped (the step's results are the
# baseline, the slow baseline is judged): "bad" there means the step is
# significantly faster (new term, exit 1), "good" that it is not (old
# term, exit 0).
check_improvement() {
	local args=() f rc=0 line
	for f in "${STEPS[@]}"; do args+=(--baseline "$f"); done
	for ((f = 0; f < ${#CHECK[@]}; f += 2)); do
		[ "${CHECK[f]}" = --baseline ] || args+=("${CHECK[f]}" "${CHECK[f + 1]}")
	done
	[ ${#BASELINES[@]} -gt 0 ] || { echo "improvement: give --baseline SLOW.json"; return "$SKIP"; }
	line=$("$LATCTL" check "${args[@]}" --pool "${BASELINES[@]}" 2>&1) || rc=$?
	case $rc in
	1) echo "fast: the baseline is significantly slower than this step (${line#latctl check: })" ;;
	0) echo "slow: the baseline is not slower than this step (${line#latctl check: })" ;;
	*) echo "${line#latctl check: }" ;;
	esac
	return "$rc"
}

# The check's arguments, before anything is built: a typo ("count:fualt",
# a --baseline that is not there) would skip every commit, so it stops
# git bisect run instead (exit 128).
check_args() {
	local line
	# a --record step judges nothing: its check options are for later steps
	[ ${#CHECK[@]} -gt 0 ] && [ -z "$RECORD" ] || return 0
	line=$("$LATCTL" check --dry-run "${CHECK[@]}" 2>&1) && return 0
	echo "bisect-step: ${line#latctl check: cannot tell (125): }: every step would be skipped; stopping git bisect run" >&2
	exit 128
}

main() {
	parse "$@"
	check_args
	if [ -n "$LAB" ]; then
		# shellcheck source=scripts/bisect/bisect-lab.sh
		. "$ROOT/scripts/bisect/bisect-lab.sh"
		lab_check
	fi
	COMMIT=$(git -C "$TREE" rev-parse --short=12 HEAD 2>/dev/null) || COMMIT=unknown
	mkdir -p "$RESULTS" || exit "$SKIP"
	RESULTS=$(cd "$RESULTS" && pwd)
	: "${BUILD:=$RESULTS/build}"
	LOG=$RESULTS/step-$COMMIT.log
	: >"$LOG"
	WORK=$(mktemp -d "$RESULTS/.work.XXXXXX") || exit "$SKIP"
	trap 'progress_end; rm -rf "$WORK"' EXIT
	STEP_START=$SECONDS NOTE=""
	phase_build
	phase_run
	phase_check
}

main "$@"
rc=$?
case $rc in 0 | 1 | 125 | 128) exit "$rc" ;; *) exit "$SKIP" ;; esac
