#!/bin/bash
# SPDX-License-Identifier: MIT
# Fetch a Debian kernel image and its headers for the QEMU test bed.
#
#   scripts/kernel-fetch.sh [--image|--release|--env] 6.1|6.12
#
# 6.1 comes from bookworm, 6.12 from bookworm-backports. Packages are
# downloaded with Debian's own apt-get through a private sources list, state
# directory and cache under .cache/kernels/ (the host's apt configuration is
# never read for sources nor changed), extracted with dpkg-deb -x, and the
# headers are patched so that `make -C KDIR M=... modules` works from there.
# Prints the KDIR (default), the vmlinuz path (--image), the kernel release
# (--release) or all three as shell assignments (--env). Cached: a second
# run prints from the cache without touching the network.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${LATMON_KERNEL_CACHE:-$ROOT/.cache/kernels}
APTDIR=$CACHE/apt
# shellcheck source=scripts/apt-private.sh
. "$ROOT/scripts/apt-private.sh"

die() { echo "kernel-fetch: $*" >&2; exit 1; }

usage() {
	echo "usage: $0 [--image|--release|--env] 6.1|6.12" >&2
	exit 2
}

# The suite that provides each supported series.
suite_of() {
	case $1 in
	6.1) echo bookworm ;;
	6.12) echo bookworm-backports ;;
	*) die "unknown kernel series '$1': use 6.1 or 6.12" ;;
	esac
}

# Print the Depends of package $2 (candidate from suite $1) matching regex $3.
deps_matching() {
	apt_private apt-cache -t "$1" depends "$2" 2>/dev/null |
		sed -n 's/^ *|\?Depends: //p' | grep -E "$3" | head -n1
}

# Download and extract the image, headers, -common and kbuild of one series.
fetch_series() {
	local series=$1 suite dir image headers common kbuild
	suite=$(suite_of "$series")
	dir=$CACHE/$series
	apt_setup
	apt_update
	image=$(deps_matching "$suite" linux-image-amd64 '^linux-image-')
	headers=$(deps_matching "$suite" linux-headers-amd64 '^linux-headers-')
	[ -n "$image" ] && [ -n "$headers" ] ||
		die "cannot resolve linux-image-amd64/linux-headers-amd64 in $suite"
	common=$(deps_matching "$suite" "$headers" '^linux-headers-.*-common')
	kbuild=$(deps_matching "$suite" "$headers" '^linux-kbuild-')
	[ -n "$common" ] && [ -n "$kbuild" ] || die "cannot resolve the deps of $headers"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/debs" "$dir.tmp/root"
	(cd "$dir.tmp/debs" &&
		apt_private apt-get -t "$suite" download "$image" "$headers" "$common" "$kbuild") ||
		die "download of $image $headers failed"
	for deb in "$dir.tmp"/debs/*.deb; do
		dpkg-deb -x "$deb" "$dir.tmp/root" || die "dpkg-deb -x $deb failed"
	done
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	fix_headers "$dir" "${headers#linux-headers-}"
}

# Point the headers' absolute /usr/src include into the extracted tree and
# record KDIR, VMLINUZ and KREL in kernel.env.
fix_headers() {
	local dir=$1 krel=$2 kdir mk common
	kdir=$dir/root/usr/src/linux-headers-$krel
	mk=$kdir/Makefile
	[ -f "$mk" ] || die "$mk missing after extraction"
	common=$(sed -n 's|^include /usr/src/\([^/]*\)/Makefile$|\1|p' "$mk")
	if [ -n "$common" ]; then
		printf 'include $(abspath $(dir $(lastword $(MAKEFILE_LIST)))../%s/Makefile)\n' \
			"$common" >"$mk"
	fi
	[ -e "$kdir/scripts/basic/fixdep" ] || die "$kdir/scripts: kbuild tools missing"
	ln -sfn "../../../usr/src/linux-headers-$krel" "$dir/root/lib/modules/$krel/build"
	[ -f "$dir/root/boot/vmlinuz-$krel" ] || die "vmlinuz-$krel missing"
	printf 'KDIR=%s\nVMLINUZ=%s\nKREL=%s\n' "$kdir" \
		"$dir/root/boot/vmlinuz-$krel" "$krel" >"$dir/kernel.env"
}

main() {
	local what="kdir" series dir
	case ${1:-} in
	--image) what=image; shift ;;
	--release) what=release; shift ;;
	--env) what="env"; shift ;;
	-h|--help) usage ;;
	esac
	[ $# -eq 1 ] || usage
	series=$1
	suite_of "$series" >/dev/null
	dir=$CACHE/$series
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
	if [ ! -f "$dir/kernel.env" ]; then
		echo "kernel-fetch: fetching Debian kernel $series into $dir" >&2
		fetch_series "$series" >&2
	fi
	flock -u 9
	# shellcheck disable=SC1091
	. "$dir/kernel.env"
	case $what in
	kdir) echo "$KDIR" ;;
	image) echo "$VMLINUZ" ;;
	release) echo "$KREL" ;;
	env) cat "$dir/kernel.env" ;;
	esac
}

main "$@"
