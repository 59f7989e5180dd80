#!/bin/bash
# SPDX-License-Identifier: MIT
# Debian chroots for what the host's user space cannot do itself:
#   trixie  build modules for kernels whose kbuild tools need trixie's user
#           space (Debian 7.x: modpost and objtool need glibc 2.38, the
#           headers call gcc-14);
#   lava    run LAVA's dispatcher (lava-run) with the QEMU it drives
#           (make check-lava), without installing LAVA on the host;
#   lab     a LAVA lab: lava-server, PostgreSQL and lava-dispatcher's
#           lava-worker with the QEMU it drives (scripts/lava/lab-up.sh
#           copies it and starts the daemons; lava-server's postinst skips
#           the database while PostgreSQL is not running);
#   distro  a Debian bookworm box with Debian's 6.12 kernel (the test bed's,
#           from bookworm-backports) installed, its headers and DKMS: DKMS
#           there signs and compresses the modules it builds, as on a user's
#           machine (make check-distro).
#
#   scripts/testbed/chroot.sh PROFILE                      create it (once), print its path
#   scripts/testbed/chroot.sh PROFILE --cached             exit 0 iff it is created
#   scripts/testbed/chroot.sh PROFILE --run DIR... -- CMD  run CMD inside, DIRs at their own paths
#
# Made by debootstrap (variant minbase plus the profile's packages) from the
# mirror and with the keyring of scripts/testbed/apt-private.sh, then the
# profile's other packages installed with the chroot's own apt-get (services
# are not started: policy-rc.d); its downloads are kept in CACHE/apt/debootstrap.
# The host's apt configuration is neither read nor changed. Cached in
# CACHE/PROFILE-chroot/KEY (CACHE: $LATMON_KERNEL_CACHE, default
# .cache/kernels), KEY a hash of the suite, the packages, the mirror and the
# function that makes it: reused while they are unchanged.
# --run works in a private mount namespace (unshare -m): /dev, /proc (objtool
# reads it), /sys and each DIR are mounted into the chroot there, and nothing
# stays mounted afterwards.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${LATMON_KERNEL_CACHE:-$ROOT/.cache/kernels}
APTDIR=$CACHE/apt
PROFILE=${1:-}
case $PROFILE in
trixie)
	SUITE=trixie
	# What kbuild needs for an out-of-tree module: the compiler the headers
	# name, make, objtool's libelf, sign-file's libcrypto, pahole for BTF.
	PACKAGES=gcc-14,make,libelf1t64,libssl3t64,dwarves
	INSTALL=""
	PROBE="x86_64-linux-gnu-gcc-14 --version" ;;
lava)
	SUITE=bookworm
	PACKAGES=ca-certificates
	# The dispatcher, the QEMU it starts, a kernel for libguestfs's
	# appliance (it writes the test overlay's disk) and git for test
	# definitions "from: git".
	INSTALL="lava-dispatcher qemu-system-x86 qemu-utils linux-image-amd64 git python3-jinja2"
	PROBE="lava-run --help" ;;
lab)
	SUITE=bookworm
	PACKAGES=ca-certificates
	INSTALL="postgresql lava-server lava-dispatcher qemu-system-x86 qemu-utils python3-jinja2"
	PROBE="lava-worker --help" ;;
distro)
	SUITE=bookworm
	PACKAGES=ca-certificates
	REL=$("$ROOT/scripts/testbed/kernel-fetch.sh" --release 6.12)
	BACKPORTS=1
	INSTALL="linux-image-$REL linux-headers-$REL dkms make gcc xz-utils kmod openssl mokutil"
	PROBE="dkms --version" ;;
*)
	echo "usage: $0 trixie|lava|lab|distro [--cached | --run DIR... -- COMMAND [ARG...]]" >&2
	exit 2 ;;
esac
shift
# shellcheck source=scripts/testbed/apt-private.sh
. "$ROOT/scripts/testbed/apt-private.sh"

die() { echo "chroot $PROFILE: $*" >&2; exit 1; }

usage() {
	echo "usage: $0 $PROFILE [--cached | --run DIR... -- COMMAND [ARG...]]" >&2
	exit 2
}

# Run debootstrap into $1 (a fresh directory), install the rest with the
# chroot's apt-get, then check the profile's program runs.
make_chroot() {
	local dir=$1
	mkdir -p "$APTDIR/debootstrap"
	debootstrap --variant=minbase --include="$PACKAGES" --keyring="$KEYRING" \
		--cache-dir="$APTDIR/debootstrap" "$SUITE" "$dir" "$MIRROR" >"$dir.log" 2>&1 ||
		{ tail -n 20 "$dir.log" >&2; die "debootstrap $SUITE failed, see $dir.log"; }
	if [ "${BACKPORTS:-0}" = 1 ]; then	# the chroot's own sources, not the host's
		echo "deb $MIRROR $SUITE-backports main" >"$dir/etc/apt/sources.list.d/backports.list"
	fi
	if [ -n "$INSTALL" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
		chmod 0755 "$dir/usr/sbin/policy-rc.d"
		# shellcheck disable=SC2086
		run_in "$dir" -- sh -c "apt-get -q update && DEBIAN_FRONTEND=noninteractive \
			apt-get -q install -y --no-install-recommends $INSTALL" >>"$dir.log" 2>&1 ||
			{ tail -n 20 "$dir.log" >&2; die "apt-get install in the $SUITE chroot failed, see $dir.log"; }
	fi
	# shellcheck disable=SC2086
	chroot "$dir" $PROBE >/dev/null || die "'$PROBE' does not run in $dir"
}

# The chroot's directory for the current inputs.
chroot_dir() {
	local key
	key=$({ echo "$SUITE $PACKAGES $MIRROR"; [ -z "$INSTALL" ] || echo "$INSTALL"; declare -f make_chroot; } |
		sha256sum | cut -c1-16)
	echo "$CACHE/$PROFILE-chroot/$key"
}

# Create the chroot unless it is cached; print its path.
ensure_chroot() {
	local dir start=$SECONDS
	dir=$(chroot_dir)
	mkdir -p "$CACHE/$PROFILE-chroot"
	exec 8>"$CACHE/$PROFILE-chroot/.lock"
	flock 8
	if [ ! -f "$dir/.latmon-ready" ]; then
		command -v debootstrap >/dev/null || die "debootstrap missing: run scripts/deps.sh"
		[ -r "$KEYRING" ] || die "$KEYRING missing: install debian-archive-keyring"
		echo "chroot $PROFILE: creating a Debian $SUITE chroot in $dir" >&2
		rm -rf "$dir.tmp" "$dir"
		make_chroot "$dir.tmp"
		mv "$dir.tmp" "$dir"
		echo "BUILD_SECONDS=$((SECONDS - start))" >"$dir/.latmon-ready"
		echo "chroot $PROFILE: created in $((SECONDS - start)) s" >&2
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
		mount --rbind /dev "$dir/dev"
		mount -t proc proc "$dir/proc"
		mount --rbind /sys "$dir/sys"
		while [ "$1" != -- ]; do
			mkdir -p "$dir$1"; mount --bind "$1" "$dir$1"; shift
		done
		shift
		exec chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LC_ALL=C.UTF-8 "$@"' "chroot-$PROFILE" "$dir" "$@"
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
