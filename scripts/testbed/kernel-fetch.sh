#!/bin/bash
# SPDX-License-Identifier: MIT
# Fetch a Debian kernel image and its headers for the QEMU test bed.
#
#   scripts/testbed/kernel-fetch.sh [--image|--release|--env] 6.1|6.12|7.3|7.3-rt
#
# 6.1 comes from bookworm, 6.12 from bookworm-backports, 7.3 and its
# PREEMPT_RT flavour 7.3-rt from trixie-backports. From 7.x on, Debian's
# linux-image-KREL is a meta package: the image is in linux-binary-KREL, at
# /usr/lib/modules/KREL/vmlinuz, and its kbuild tools need trixie's glibc
# and gcc-14 (TOOLCHAIN=trixie in kernel.env: scripts/testbed/vm-module.sh builds
# there in scripts/testbed/chroot.sh trixie). Packages are
# downloaded with Debian's own apt-get through a private sources list, state
# directory and cache under .cache/kernels/ (the host's apt configuration is
# never read for sources nor changed), extracted with dpkg-deb -x, and the
# headers are patched so that `make -C KDIR M=... modules` works from there.
# Prints the KDIR (default), the vmlinuz path (--image), the kernel release
# (--release) or all three as shell assignments (--env). Cached: a second
# run prints from the cache without touching the network.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${LATMON_KERNEL_CACHE:-$ROOT/.cache/kernels}
APTDIR=$CACHE/apt
# shellcheck source=scripts/testbed/apt-private.sh
. "$ROOT/scripts/testbed/apt-private.sh"

die() { echo "kernel-fetch: $*" >&2; exit 1; }

usage() {
	echo "usage: $0 [--image|--release|--env] $SERIES_LIST" >&2
	exit 2
}

# Per series: the suite, the flavour of linux-image-FLAVOUR and
# linux-headers-FLAVOUR, and the user space its kbuild tools need.
declare -A SUITE=([6.1]=bookworm [6.12]=bookworm-backports
	[7.3]=trixie-backports [7.3-rt]=trixie-backports)
declare -A FLAVOUR=([6.1]=amd64 [6.12]=amd64 [7.3]=amd64 [7.3-rt]=rt-amd64)
declare -A TOOLCHAIN=([6.1]=host [6.12]=host [7.3]=trixie [7.3-rt]=trixie)
SERIES_LIST="6.1|6.12|7.3|7.3-rt"

# The suite that provides series $1.
suite_of() {
	[ -n "${SUITE[$1]:-}" ] || die "unknown kernel series '$1': use ${SERIES_LIST//|/, }"
	echo "${SUITE[$1]}"
}

# Print the Depends of package $2 (candidate from suite $1) matching regex $3.
deps_matching() {
	apt_private apt-cache -t "$1" depends "$2" 2>/dev/null |
		sed -n 's/^ *|\?Depends: //p' | grep -E "$3" | head -n1
}

# Download and extract the image, headers, -common and kbuild of one series.
fetch_series() {
	local series=$1 suite flavour dir image binary headers common kbuild
	suite=$(suite_of "$series")
	flavour=${FLAVOUR[$series]}
	dir=$CACHE/$series
	apt_setup
	apt_update
	image=$(deps_matching "$suite" "linux-image-$flavour" '^linux-image-')
	headers=$(deps_matching "$suite" "linux-headers-$flavour" '^linux-headers-')
	[ -n "$image" ] && [ -n "$headers" ] ||
		die "cannot resolve linux-image-$flavour/linux-headers-$flavour in $suite"
	case ${headers#linux-headers-} in
	"${series%-rt}".*) ;;
	*) die "$suite now ships ${headers#linux-headers-}, not $series: update SUITE in $0" ;;
	esac
	# 7.x: the image proper is the linux-binary-KREL the meta package pulls in
	binary=$(deps_matching "$suite" "$image" '^linux-binary-' || true)
	[ -z "$binary" ] || image=$binary
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
	fix_headers "$dir" "${headers#linux-headers-}" "${TOOLCHAIN[$series]}"
}

# Point the headers' absolute /usr/src include into the extracted tree and
# record KDIR, VMLINUZ, KREL and TOOLCHAIN (host or trixie) in kernel.env.
fix_headers() {
	local dir=$1 krel=$2 toolchain=$3 kdir mk common image
	kdir=$dir/root/usr/src/linux-headers-$krel
	mk=$kdir/Makefile
	[ -f "$mk" ] || die "$mk missing after extraction"
	common=$(sed -n 's|^include /usr/src/\([^/]*\)/Makefile$|\1|p' "$mk")
	if [ -n "$common" ]; then
		sed -i "s|^include /usr/src/$common/Makefile\$|include \$(abspath \$(dir \$(lastword \$(MAKEFILE_LIST)))../$common/Makefile)|" "$mk"
	fi
	# 7.x's Makefile names its output directory: the extracted tree
	sed -i "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$dir/root/usr/src/|" "$mk"
	[ -e "$kdir/scripts/basic/fixdep" ] || die "$kdir/scripts: kbuild tools missing"
	if [ -d "$dir/root/lib/modules/$krel" ]; then
		ln -sfn "../../../usr/src/linux-headers-$krel" "$dir/root/lib/modules/$krel/build"
	fi
	image=$dir/root/boot/vmlinuz-$krel
	[ -f "$image" ] || image=$dir/root/usr/lib/modules/$krel/vmlinuz
	[ -f "$image" ] || die "vmlinuz of $krel missing (neither /boot nor /usr/lib/modules)"
	printf 'KDIR=%s\nVMLINUZ=%s\nKREL=%s\nTOOLCHAIN=%s\n' "$kdir" "$image" "$krel" \
		"$toolchain" >"$dir/kernel.env"
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
