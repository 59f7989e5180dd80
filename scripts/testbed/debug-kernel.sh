#!/bin/bash
# SPDX-License-Identifier: MIT
# A debug kernel for the QEMU test bed, and the VM suite run on it.
#
#   scripts/testbed/debug-kernel.sh [--env|--image|--kdir]   build (once) and print
#   scripts/testbed/debug-kernel.sh --check [t] [s] [t-57]... + run the suite on it
#                                                    (t: tests/vm/t-*, s: s-*,
#                                                    t-57: the groups t-57-*;
#                                                    LATMON_STRESS_CYCLES/SEED)
#   scripts/testbed/debug-kernel.sh --cached                 exit 0 iff already built
#
# Builds Debian's linux-source-6.1 (fetched through the private apt tree of
# scripts/testbed/apt-private.sh) with `make tinyconfig` + scripts/testbed/debug-kernel.config
# (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak, UBSAN, DEBUG_LIST), about
# 20 minutes on 2 cores. Cached in $LATCTL_CACHE/debug-kernel/KEY/ (default
# /var/cache/latctl), KEY a hash of the source version, the config fragment
# and this script's build functions; reused while they are unchanged. The tree is a KDIR for
# out-of-tree modules (vmlinux and Module.symvers are built).
#
# --check first boots a control module (tests/vm/prog/debug-ctl) whose bugs must
# all be reported, then builds latmon.ko against the kernel (build/vm/debug/),
# boots it (TCG; LATMON_DEBUG_TIMEOUT, default 7200 s: the whole suite takes
# about 2600 s quiet and 1.7 times that on a box at load 7; a boot that has not
# reached its command in LATMON_DEBUG_BOOT_TIMEOUT, 300 s, is started again,
# up to three times), runs tests/vm/suite.sh,
# then rmmod and a kmemleak scan. Any BUG:, WARNING:, KASAN, UBSAN, lockdep or
# kmemleak report in the guest's kernel log fails the run (logs:
# build/vm/debug/run.log, run-console.log).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${LATCTL_CACHE:-/var/cache/latctl}/debug-kernel
APTDIR=$CACHE/apt
FRAGMENT=$ROOT/scripts/testbed/debug-kernel.config
SRCPKG=linux-source-6.1
# Needed only to build the kernel, so not in scripts/deps.sh (make check).
BUILD_PACKAGES="gcc make flex bison bc libelf-dev libssl-dev xz-utils
debian-archive-keyring"
# A kernel log line that fails the run.
SPLAT='BUG:|WARNING:|KASAN|UBSAN|possible circular locking|inconsistent lock state|sleeping function called from invalid context|possible recursive locking|unreferenced object|Call Trace:|general protection'

# shellcheck source=scripts/testbed/apt-private.sh
. "$ROOT/scripts/testbed/apt-private.sh"

die() { echo "debug-kernel: $*" >&2; exit 1; }
say() { echo "debug-kernel: $*" >&2; }

usage() {
	echo "usage: $0 [--env|--image|--kdir|--cached|--check [t] [s] [t-NN] [s-NN]]" >&2
	exit 2
}

# Install the build packages that are missing (idempotent, like deps.sh).
build_deps() {
	local p missing=""
	for p in $BUILD_PACKAGES; do
		[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	say "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	if ! { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >&2; then
		die "cannot install$missing (run as root)"
	fi
}

# Print the candidate version of the source package (private lists, fetched once).
source_version() {
	local v
	apt_setup
	ls "$APTDIR"/state/lists/*_Packages* >/dev/null 2>&1 || apt_update
	v=$(apt_private apt-cache policy "$SRCPKG" | sed -n 's/^ *Candidate: //p')
	[ -n "$v" ] && [ "$v" != "(none)" ] && echo "$v" && return 0
	die "$SRCPKG not found in the private apt lists ($APTDIR)"
}

# The cache key: source version, config fragment and the part of this
# script that makes the tree (so editing --check does not rebuild).
cache_key() {
	{ echo "$SRCPKG $1"; cat "$FRAGMENT"; declare -f fetch_source configure build_tree; } |
		sha256sum | cut -c1-16
}

# Download the source package into $1 and unpack its tarball as $1/src.
fetch_source() {
	local dir=$1 version=$2 tarball
	mkdir -p "$dir/debs" "$dir/pkg"
	(cd "$dir/debs" && apt_private apt-get download "$SRCPKG=$version" >&2) ||
		die "download of $SRCPKG=$version failed"
	dpkg-deb -x "$dir"/debs/*.deb "$dir/pkg" || die "dpkg-deb -x failed"
	tarball=$(echo "$dir"/pkg/usr/src/linux-source-*.tar.xz)
	[ -f "$tarball" ] || die "no source tarball in $SRCPKG"
	tar -C "$dir" -xJf "$tarball" || die "cannot unpack $tarball"
	mv "$dir"/linux-source-6.1 "$dir/src"
	rm -rf "$dir/debs" "$dir/pkg"
}

# tinyconfig + the fragment, olddefconfig, then check every line survived.
configure() {
	local src=$1 line sym bad=""
	make -s -C "$src" tinyconfig >/dev/null
	(cd "$src" && scripts/kconfig/merge_config.sh -m .config "$FRAGMENT" >/dev/null)
	make -s -C "$src" olddefconfig >/dev/null
	while read -r line; do
		case $line in
		CONFIG_*) grep -qxF "$line" "$src/.config" || bad="$bad $line" ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			grep -q "^$sym=" "$src/.config" && bad="$bad $sym=n" ;;
		esac
	done <"$FRAGMENT"
	[ -z "$bad" ] || die "olddefconfig dropped:$bad (fix scripts/testbed/debug-kernel.config)"
}

# Build bzImage, vmlinux and modules (Module.symvers) with make -j2.
build_tree() {
	local dir=$1 start=$SECONDS krel
	say "building in $dir/src (log: $dir/build.log), ~20 minutes"
	make -C "$dir/src" -j2 bzImage modules >"$dir/build.log" 2>&1 ||
		{ tail -n 30 "$dir/build.log" >&2; die "kernel build failed, see $dir/build.log"; }
	[ -f "$dir/src/Module.symvers" ] || die "Module.symvers missing after the build"
	krel=$(make -s -C "$dir/src" kernelrelease)
	printf 'KDIR=%s\nVMLINUZ=%s\nKREL=%s\nBUILD_SECONDS=%s\nCONFIG_LINES=%s\n' \
		"$dir/src" "$dir/src/arch/x86/boot/bzImage" "$krel" "$((SECONDS - start))" \
		"$(grep -c '=' "$dir/src/.config")" >"$dir/kernel.env.tmp"
}

# Build the debug kernel into $CACHE/KEY unless it is there; print KEY's dir.
ensure_kernel() {
	local version key dir
	build_deps
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
	version=$(source_version)
	key=$(cache_key "$version")
	dir=$CACHE/$key
	if [ ! -f "$dir/kernel.env" ]; then
		say "no cached kernel for $SRCPKG $version (key $key)"
		rm -rf "$dir"
		fetch_source "$dir" "$version"
		configure "$dir/src"
		build_tree "$dir"
		echo "VERSION=$version" >>"$dir/kernel.env.tmp"
		mv "$dir/kernel.env.tmp" "$dir/kernel.env"
	fi
	flock -u 9
	echo "$dir"
}

# Exit 0 iff the kernel of the current inputs is built (no network).
is_cached() {
	local version
	ls "$APTDIR"/state/lists/*_Packages* >/dev/null 2>&1 || return 1
	version=$(apt_private apt-cache policy "$SRCPKG" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	[ -n "$version" ] && [ -f "$CACHE/$(cache_key "$version")/kernel.env" ]
}

# The guest command, one line (vm-run.sh quotes it for the guest's sh):
# clear boot-time kmemleak reports, run $1, unload latmon, scan twice,
# print the kmemleak report and the kernel log between markers.
# shellcheck disable=SC2016
guest_cmd() {
	local kl=/sys/kernel/debug/kmemleak
	printf '%s; ' "echo @@BOOTED" "echo scan >$kl" "echo clear >$kl" "$1" 'rc=$?' \
		"grep -q '^latmon ' /proc/modules && rmmod latmon" \
		"sleep 6" "echo scan >$kl" "sleep 1" "echo scan >$kl" \
		"echo @@KMEMLEAK" "[ -r $kl ] || echo @@NO-KMEMLEAK" "cat $kl" "echo @@DMESG" "dmesg" "echo @@END"
	echo 'exit $rc'
}

# Boot the debug kernel with initramfs $1 running guest command $2 (see
# boot_judge), output in $3.log. Exit status that of vm-run.sh; 75 if the
# guest did not reach its command within LATMON_DEBUG_BOOT_TIMEOUT seconds
# (default 300), the boot then stopped.
boot_once() {
	local initrd=$1 cmd=$2 out=$3 pid t=0 rc=0
	setsid "$ROOT/scripts/testbed/vm-run.sh" --kernel debug --vmlinuz "$VMLINUZ" --initramfs "$initrd" \
		--timeout "${LATMON_DEBUG_TIMEOUT:-7200}" --append "${LATCTL_VM_APPEND:-} loglevel=5" \
		--console "$out-console.log" -- sh -c "$(guest_cmd "$cmd")" >"$out.log" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && ! grep -q '^@@BOOTED' "$out.log"; do
		if [ "$t" -ge "${LATMON_DEBUG_BOOT_TIMEOUT:-300}" ]; then
			kill -TERM -- "-$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
			return 75
		fi
		sleep 5
		t=$((t + 5))
	done
	wait "$pid" || rc=$?
	return "$rc"
}

# Boot the debug kernel with initramfs $1 running guest command $2; output
# in $3.log and $3-console.log. Print the kernel reports found; exit status
# that of the guest, 1 if it did not reach the kmemleak scan. Under TCG its
# early boot can stop for good (the boot CPU idle, no timer
# interrupt, after "Running RCU-tasks wait API self tests"): such a boot is
# stopped and started again, up to three times, each said on stderr.
boot_judge() {
	local initrd=$1 cmd=$2 out=$3 rc=75 try
	for try in 1 2 3; do
		[ "$rc" = 75 ] || break
		[ "$try" = 1 ] || say "the debug kernel did not reach its command in ${LATMON_DEBUG_BOOT_TIMEOUT:-300} s (${out##*/}-console.log ends: $(tail -n1 "$out-console.log")); booting again ($try of 3)"
		rc=0
		boot_once "$initrd" "$cmd" "$out" || rc=$?
	done
	[ "$rc" = 75 ] && say "the debug kernel did not boot in 3 attempts"
	sed -n '/^@@KMEMLEAK/,/^@@END/p' "$out.log" | cat - "$out-console.log" |
		grep -E "$SPLAT" | sed 's/^\[ *[0-9.]*\] //' | sort -u || true
	grep -q '^@@END' "$out.log" || { say "the guest did not reach the kmemleak scan ($out.log)"; rc=1; }
	grep -q '^@@NO-KMEMLEAK' "$out.log" && { say "no /sys/kernel/debug/kmemleak in the guest"; rc=1; }
	return "$rc"
}

# Self-test: tests/vm/prog/debug-ctl/ctl.ko must raise each kind of report.
self_test() {
	local out=$1 found kind bad=""
	mkdir -p "$out/ctl"
	cp "$ROOT"/tests/vm/prog/debug-ctl/{ctl.c,Kbuild} "$out/ctl/"
	make -s -C "$KDIR" M="$out/ctl" modules >"$out/ctl/build.log" 2>&1 ||
		die "the control module does not build: $out/ctl/build.log"
	"$ROOT/scripts/testbed/vm-initramfs.sh" --kernel debug --module "$out/ctl/ctl.ko" \
		--out "$out/ctl/initramfs.cpio.gz" >/dev/null
	found=$(boot_judge "$out/ctl/initramfs.cpio.gz" \
		"insmod /lib/modules/latmon.ko && rmmod ctl" "$out/selftest") || true
	for kind in 'BUG: KASAN: slab-out-of-bounds' 'sleeping function called from invalid context' \
		'UBSAN: array-index-out-of-bounds' 'unreferenced object' \
		'possible circular locking dependency detected'; do
		grep -qF "$kind" <<<"$found" || bad="$bad '$kind'"
	done
	[ -z "$bad" ] || die "self-test: the control module's$bad not reported (see $out/selftest*.log)"
	say "self-test: KASAN, atomic sleep, UBSAN, kmemleak and lockdep reports all caught"
}

# Build latmon.ko + initramfs for the debug kernel, self-test, run, judge.
run_check() {
	local groups=${*:-t} dir out rc=0 splats g
	for g in $groups; do case $g in t|s|[ts]-[0-9][0-9]) ;; *) usage ;; esac; done
	dir=$(ensure_kernel)
	# shellcheck disable=SC1091
	. "$dir/kernel.env"	# KDIR VMLINUZ KREL
	out=$ROOT/build/vm/debug
	mkdir -p "$out"
	make -s -C "$ROOT" vm-progs user >"$out/prep.log" 2>&1 || die "make vm-progs user failed: $out/prep.log"
	self_test "$out"
	LATMON_VM_KDIR=$KDIR "$ROOT/scripts/testbed/vm-module.sh" debug >/dev/null
	"$ROOT/scripts/testbed/vm-initramfs.sh" --kernel debug >/dev/null
	splats=$(boot_judge "$out/initramfs.cpio.gz" "env LATMON_DEBUG=1 LATMON_STRESS_CYCLES=${LATMON_STRESS_CYCLES:-100} LATMON_STRESS_SEED=${LATMON_STRESS_SEED:-} /tests/suite.sh $groups" "$out/run") || rc=$?
	sed -n '1,/^@@KMEMLEAK/p' "$out/run.log" | grep -v '^@@'
	if [ -n "$splats" ]; then
		echo "$splats" >&2
		say "kernel reports on the debug kernel (see $out/run.log, $out/run-console.log)"
		rc=1
	fi
	# shellcheck disable=SC2153
	[ "$rc" = 0 ] && say "suite passed on $KREL, no BUG/WARNING/KASAN/UBSAN/lockdep/kmemleak report"
	return "$rc"
}

main() {
	local dir
	case ${1:-} in
	--check) shift; run_check "$@"; return ;;
	--cached) is_cached; return ;;
	-h|--help) usage ;;
	esac
	dir=$(ensure_kernel)
	# shellcheck disable=SC1091
	. "$dir/kernel.env"
	case ${1:---kdir} in
	--kdir) echo "$KDIR" ;;
	--image) echo "$VMLINUZ" ;;
	--env) cat "$dir/kernel.env" ;;
	*) usage ;;
	esac
}

main "$@"
