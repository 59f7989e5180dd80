#!/bin/bash
# SPDX-License-Identifier: MIT
# `make run`: install what is missing, build, and run the main job,
#
#   latctl run grow --thp always [EXTRA ARGS...]
#
# on this machine with latmon loaded when its kernel can load the module
# (root, module support, headers at KDIR, the module builds and loads), else
# on this machine with the BPF backend when the kernel allows it (`latctl
# backends`: root, kernel BTF, tp_btf programs; fault ends and huge-page
# zeroing estimated), else in the QEMU test bed (latctl run ... --vm) on
# Debian's newest kernel, which also gives the module's exact view when
# asked for with --vm. One line says which and why. Exit status: latctl's.
# It installs what that path needs only (scripts/deps.sh build, then module
# or vm); LATCTL_NO_INSTALL=1 only says what is missing.
#
#   scripts/make-run.sh [--vm|--host] [EXTRA LATCTL ARGS...]
#   make run [RUN_ARGS='--iters 500000 --json r.json']
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KERNELRELEASE=${KERNELRELEASE:-$(uname -r)}
KDIR=${KDIR:-/lib/modules/$KERNELRELEASE/build}
LOG=$ROOT/build/make-run-module.log
JOB=(run grow --thp always)

say() { echo "make run: $*" >&2; }
# The packages of one path (scripts/deps.sh SET).
deps() { "$ROOT/scripts/deps.sh" "$1" >&2 || { say "installing the packages of '$1' failed"; exit 1; }; }

# WHY: why this machine cannot run latmon itself; empty when it can. Builds
# and loads the module when it gets that far (then LOADED_HERE=1).
host_blocker() {
	WHY=""
	if [ "$(id -u)" -ne 0 ]; then
		WHY="not root (loading latmon and --thp need root)"
	elif [ ! -e /proc/modules ]; then
		WHY="this kernel ($KERNELRELEASE) cannot load modules (no /proc/modules)"
	elif [ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" = 1 ]; then
		WHY="module loading is disabled (kernel.modules_disabled = 1)"
	elif grep -qE '\[(integrity|confidentiality)\]' /sys/kernel/security/lockdown 2>/dev/null; then
		WHY="kernel lockdown refuses unsigned modules"
	elif grep -q '^latmon ' /proc/modules; then
		return 0
	elif [ ! -d "$KDIR" ]; then
		WHY="no headers for $KERNELRELEASE at $KDIR (apt-get install linux-headers-$KERNELRELEASE)"
	elif ! deps module; then
		WHY="the module's packages did not install"
	elif ! { mkdir -p "$(dirname "$LOG")" && make -s -C "$ROOT" module KDIR="$KDIR" >"$LOG" 2>&1; }; then
		WHY="latmon does not build against $KDIR (see $LOG)"
	elif ! insmod "$ROOT/module/latmon.ko" 2>>"$LOG"; then
		WHY="insmod latmon.ko failed: $(tail -n1 "$LOG")"
	else
		LOADED_HERE=1
	fi
}

main() {
	local where=auto rc
	case ${1:-} in
	--vm) where=vm; shift ;;
	--host) where=host; shift ;;
	esac
	deps build
	make -s -C "$ROOT" all || { say "the build failed"; exit 1; }
	LOADED_HERE=0
	WHY="--vm was asked for"
	[ "$where" = vm ] || host_blocker
	if [ -n "$WHY" ] && [ "$where" != vm ] &&
		caps=$("$ROOT/user/latctl" backends) && [[ $caps == *"bpf: yes"* ]]; then
		say "latmon cannot load here: $WHY; running on this machine ($KERNELRELEASE) at real speed with the BPF backend (static tracepoints; fault ends and huge-page zeroing estimated; --vm gives latmon's view)"
		exec "$ROOT/user/latctl" "${JOB[@]}" --backend bpf "$@"
	fi
	if [ -n "$WHY" ] && [ "$where" = host ]; then
		say "cannot run on this machine: $WHY"
		exit 1
	fi
	if [ -n "$WHY" ]; then
		say "$WHY: running in a QEMU VM with Debian 7.3"
		deps vm
		exec "$ROOT/user/latctl" "${JOB[@]}" --vm "$@"
	fi
	say "running on this machine ($KERNELRELEASE) with latmon loaded"
	"$ROOT/user/latctl" "${JOB[@]}" --backend latmon "$@"
	rc=$?
	[ "$LOADED_HERE" = 1 ] && rmmod latmon
	exit "$rc"
}

main "$@"
