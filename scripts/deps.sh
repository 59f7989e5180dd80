#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages latctl needs to build and test, only those
# missing. Idempotent: a second run installs nothing and calls no network.
# Others append to DEPS_PACKAGES (one variable, one place).
#   scripts/deps.sh            latctl, latmon, the tests
#   scripts/deps.sh kernel     and what building a Linux tree needs (a bisect)
set -eu

DEPS_PACKAGES="gcc libc6-dev make pkg-config libnl-3-dev libnl-genl-3-dev libcjson-dev
libcmocka-dev perl qemu-system-x86 busybox-static cpio kmod zstd xz-utils
ca-certificates util-linux gcc-12 dwarves debian-archive-keyring clang libclang-rt-14-dev
debootstrap libbpf-dev bpftool zlib1g-dev librsvg2-bin groff-base man-db dkms git"
KERNEL_BUILD_PACKAGES="flex bison bc libelf-dev libssl-dev dwarves"
[ "${1:-}" = kernel ] && DEPS_PACKAGES="$DEPS_PACKAGES $KERNEL_BUILD_PACKAGES"

missing=""
for p in $DEPS_PACKAGES; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = "installed" ] || missing="$missing $p"
done

if [ -z "$missing" ]; then
	echo "deps: all $(echo $DEPS_PACKAGES | wc -w) packages present"
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
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
