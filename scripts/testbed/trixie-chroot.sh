#!/bin/bash
# SPDX-License-Identifier: MIT
# A Debian trixie chroot to build modules for kernels whose kbuild tools need
# trixie's user space (Debian 7.x: modpost and objtool need glibc 2.38, the
# headers call gcc-14).
#
#   scripts/testbed/trixie-chroot.sh                      create it (once), print its path
#   scripts/testbed/trixie-chroot.sh --cached             exit 0 iff it is created
#   scripts/testbed/trixie-chroot.sh --run DIR... -- CMD  run CMD inside, DIRs at their own paths
#
# Made by debootstrap (variant minbase plus PACKAGES) from the mirror and with
# the keyring of scripts/testbed/apt-private.sh; its downloads are kept in
# CACHE/apt/debootstrap. The host's apt configuration is neither read nor
# changed. Cached in CACHE/trixie-chroot/KEY (CACHE: $LATMON_KERNEL_CACHE,
# default .cache/kernels), KEY a hash of the suite, the packages, the mirror
# and the function that makes it: reused while they are unchanged.
# --run works in a private mount namespace (unshare -m): /dev, /proc (objtool
# reads it) and each DIR are mounted into the chroot there, and nothing stays
# mounted afterwards.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${LATMON_KERNEL_CACHE:-$ROOT/.cache/kernels}
APTDIR=$CACHE/apt
SUITE=trixie
# What kbuild needs for an out-of-tree module: the compiler the headers name,
# make, objtool's libelf, sign-file's libcrypto, pahole for module BTF.
PACKAGES=gcc-14,make,libelf1t64,libssl3t64,dwarves
# shellcheck source=scripts/testbed/apt-private.sh
. "$ROOT/scripts/testbed/apt-private.sh"

die() { echo "trixie-chroot: $*" >&2; exit 1; }

usage() {
	echo "usage: $0 [--cached | --run DIR... -- COMMAND [ARG...]]" >&2
	exit 2
}

# Run debootstrap into $1 (a fresh directory), then check the compiler runs.
make_chroot() {
	local dir=$1
	mkdir -p "$APTDIR/debootstrap"
	debootstrap --variant=minbase --include="$PACKAGES" --keyring="$KEYRING" \
		--cache-dir="$APTDIR/debootstrap" "$SUITE" "$dir" "$MIRROR" >"$dir.log" 2>&1 ||
		{ tail -n 20 "$dir.log" >&2; die "debootstrap $SUITE failed, see $dir.log"; }
	chroot "$dir" x86_64-linux-gnu-gcc-14 --version >/dev/null ||
		die "gcc-14 does not run in $dir"
}

# The chroot's directory for the current inputs.
chroot_dir() {
	local key
	key=$({ echo "$SUITE $PACKAGES $MIRROR"; declare -f make_chroot; } | sha256sum | cut -c1-16)
	echo "$CACHE/trixie-chroot/$key"
}

# Create the chroot unless it is cached; print its path.
ensure_chroot() {
	local dir start=$SECONDS
	dir=$(chroot_dir)
	mkdir -p "$CACHE/trixie-chroot"
	exec 8>"$CACHE/trixie-chroot/.lock"
	flock 8
	if [ ! -f "$dir/.latmon-ready" ]; then
		command -v debootstrap >/dev/null || die "debootstrap missing: run scripts/deps.sh"
		[ -r "$KEYRING" ] || die "$KEYRING missing: install debian-archive-keyring"
		echo "trixie-chroot: creating a Debian $SUITE chroot in $dir" >&2
		rm -rf "$dir.tmp" "$dir"
		make_chroot "$dir.tmp"
		mv "$dir.tmp" "$dir"
		echo "BUILD_SECONDS=$((SECONDS - start))" >"$dir/.latmon-ready"
		echo "trixie-chroot: created in $((SECONDS - start)) s" >&2
	fi
	flock -u 8
	echo "$dir"
}

# Run "$@" (DIR... -- COMMAND...) in the chroot $1 with the DIRs bind-mounted.
run_in() {
	local dir=$1
	shift
	# shellcheck disable=SC2016
	unshare -m --propagation private bash -euc '
		dir=$1; shift
		mount --bind /dev "$dir/dev"
		mount -t proc proc "$dir/proc"
		while [ "$1" != -- ]; do
			mkdir -p "$dir$1"; mount --bind "$1" "$dir$1"; shift
		done
		shift
		exec chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LC_ALL=C.UTF-8 "$@"' trixie-chroot "$dir" "$@"
}

main() {
	local dir arg seen=0
	case ${1:-} in
	"") ensure_chroot ;;
	--cached) [ -f "$(chroot_dir)/.latmon-ready" ] ;;
	--run)
		shift
		for arg in "$@"; do
			[ "$arg" = -- ] && { seen=1; break; }
			[ "${arg#/}" != "$arg" ] && [ -d "$arg" ] ||
				die "--run $arg: not an absolute path of a directory"
		done
		[ "$seen" = 1 ] && [ "${!#}" != -- ] || usage
		dir=$(ensure_chroot)
		run_in "$dir" "$@" ;;
	*) usage ;;
	esac
}

main "$@"
