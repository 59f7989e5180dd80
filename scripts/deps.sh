#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages latctl needs, only those missing, for what is
# about to happen. Idempotent: a second run installs nothing and calls no
# network.
#
#   scripts/deps.sh [SET...]      default: check (everything make check needs)
#
# Sets (one place for every package list):
#   build    latctl and its BPF backend: what `make` needs
#   module   latmon on this machine: the build and kmod
#   vm       the QEMU test bed of --vm: QEMU, busybox, the kernel fetch
#   check    build, module, vm and the tests' tools
#   kernel   a Linux tree's build (a bisect step)
#
# A package "installed" with its triggers pending counts as installed. When
# another package manager holds the lock, apt waits for it up to
# LATCTL_APT_LOCK_WAIT seconds (default 300), said once. LATCTL_NO_INSTALL=1
# installs nothing: it names what is missing and exits 0 (1 if a build tool
# is missing). Without apt it names the packages and goes on.
set -eu

BUILD="gcc libc6-dev make pkg-config libnl-3-dev libnl-genl-3-dev libcjson-dev
libbpf-dev bpftool clang zlib1g-dev"
MODULE="$BUILD kmod"
VM="$BUILD qemu-system-x86 busybox-static mawk cpio kmod zstd xz-utils ca-certificates util-linux
gcc-12 dwarves debian-archive-keyring debootstrap curl iproute2 python3"
CHECK="$MODULE $VM libclang-rt-14-dev libcmocka-dev perl python3 protobuf-compiler librsvg2-bin fonts-dejavu-core groff-base man-db dkms git shellcheck clang-format"
KERNEL="flex bison bc libelf-dev libssl-dev dwarves"

packages=""
for set in "${@:-check}"; do
	case $set in
	build) packages="$packages $BUILD" ;;
	module) packages="$packages $MODULE" ;;
	vm) packages="$packages $VM" ;;
	check) packages="$packages $CHECK" ;;
	kernel) packages="$packages $KERNEL" ;;
	*) echo "deps: unknown set '$set': give build, module, vm, check or kernel" >&2; exit 2 ;;
	esac
done
packages=$(printf '%s\n' $packages | sort -u)

installed() {
	case $(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true) in
	installed | triggers-pending | triggers-awaited) return 0 ;;
	*) return 1 ;;
	esac
}

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: no apt here: install these with your package manager if missing:" $packages >&2
	exit 0
fi
missing=""
for p in $packages; do
	installed "$p" || missing="$missing $p"
done
n=$(echo $packages | wc -w)
if [ -z "$missing" ]; then
	echo "deps: all $n packages present"
	exit 0
fi
if [ "${LATCTL_NO_INSTALL:-0}" = 1 ]; then
	echo "deps: LATCTL_NO_INSTALL=1: not installing the missing:$missing" >&2
	for t in gcc make pkg-config; do
		command -v "$t" >/dev/null 2>&1 || exit 1
	done
	exit 0
fi

echo "deps: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "deps: missing packages:$missing; run as root or install sudo" >&2
		exit 1
	}
	SUDO="sudo"
fi
WAIT=${LATCTL_APT_LOCK_WAIT:-300}
export DEBIAN_FRONTEND=noninteractive

# apt-get ARGS, again every 5 s while another package manager holds a lock
# (said once), for up to WAIT s.
apt_waiting() {
	start=$(date +%s) said=0 log=$(mktemp)
	while :; do
		# shellcheck disable=SC2086
		if $SUDO apt-get -o DPkg::Lock::Timeout="$WAIT" "$@" >"$log" 2>&1; then
			cat "$log"; rm -f "$log"; return 0
		fi
		if ! grep -q 'Could not get lock\|Unable to acquire the dpkg frontend lock\|Unable to lock' "$log" ||
		   [ $(($(date +%s) - start)) -ge "$WAIT" ]; then
			cat "$log" >&2; rm -f "$log"; return 1
		fi
		[ "$said" = 1 ] || echo "deps: another package manager holds the lock: waiting for it (up to $WAIT s)" >&2
		said=1
		sleep "${LATCTL_APT_RETRY:-5}"
	done
}
apt_waiting update -q
# shellcheck disable=SC2086
apt_waiting install -y -q --no-install-recommends $missing
