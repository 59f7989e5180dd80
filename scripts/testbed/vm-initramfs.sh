#!/bin/bash
# SPDX-License-Identifier: MIT
# Build the initramfs of the QEMU test bed for one kernel.
#
#   scripts/testbed/vm-initramfs.sh --kernel 6.1|6.12|7.3|7.3-rt [--module KO] [--out FILE]
#                                   [--init FILE] [--kmod KO]...
#
# Contents: busybox-static with its applets, mawk as awk, /lib/guest-mounts.sh, /init (scripts/testbed/vm-init.sh,
# or --init FILE), the kernel modules --kmod names (decompressed, in
# /lib/modules/extra, their names in load order in /lib/modules/extra.order),
# latmon.ko built for that kernel (/lib/modules/latmon.ko), user/latctl and
# the test programs of tests/vm/bin and bash with their shared libraries
# and the loader, the TAP scripts of tests/vm and tests/bench/guest and
# tests/cli/engine.sh
# (/tests), /etc/passwd with root and nobody. Written as a gzip'd cpio (newc); prints its path.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUSYBOX=${BUSYBOX:-/bin/busybox}

die() { echo "vm-initramfs: $*" >&2; exit 1; }

usage() {
	echo "usage: $0 --kernel 6.1|6.12|7.3|7.3-rt [--module KO] [--out FILE] [--init FILE] [--kmod KO]..." >&2
	exit 2
}

# Copy $1 to the same path under the staging root $2.
put() {
	mkdir -p "$2$(dirname "$1")"
	cp -L "$1" "$2$1"
}

# Copy executable $1 to $2/$3 with every shared library it needs.
put_program() {
	local bin=$1 stage=$2 dest=$3 lib
	install -D -m 0755 "$bin" "$stage$dest"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ -e "$stage$lib" ] || put "$lib" "$stage"
	done
}

# busybox, its applet links, the directory skeleton and the user database.
put_base() {
	local stage=$1 applet
	[ -x "$BUSYBOX" ] || die "$BUSYBOX missing: install busybox-static"
	ldd "$BUSYBOX" >/dev/null 2>&1 &&
		die "$BUSYBOX is dynamically linked: install busybox-static"
	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,root,run,lib/modules,tests,out,in}
	install -m 0755 "$BUSYBOX" "$stage/bin/busybox"
	for applet in $("$BUSYBOX" --list); do
		[ "$applet" = busybox ] || ln -sf busybox "$stage/bin/$applet"
	done
	install -m 0755 "$INIT" "$stage/init"
	install -m 0644 "$ROOT/scripts/testbed/guest-mounts.sh" "$stage/lib/guest-mounts.sh"
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' \
		>"$stage/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
	chmod 1777 "$stage/tmp"
}

# liblatctl (the markers of run exec) beside the guest's libc, where the
# dynamic linker looks without a path.
put_markers() {
	local stage=$1 lib=$ROOT/user/markers/liblatctl.so.1 libc
	[ -f "$lib" ] || return 0
	libc=$(ldd "$ROOT/user/latctl" 2>/dev/null | grep -o '/[^ ]*/libc\.so\.6' | head -n 1)
	[ -n "$libc" ] || return 0
	install -D -m 0755 "$lib" "$stage$(dirname "$libc")/liblatctl.so.1"
}

# latctl, the test programs and the TAP scripts, when they are built.
put_payload() {
	local stage=$1 module=$2 f
	[ -f "$module" ] && install -m 0644 "$module" "$stage/lib/modules/latmon.ko"
	[ -x "$ROOT/user/latctl" ] && put_program "$ROOT/user/latctl" "$stage" /usr/bin/latctl
	for f in "$ROOT"/tests/vm/bin/* "$ROOT"/tests/exec/bin/*; do
		[ -x "$f" ] && put_program "$f" "$stage" "/usr/bin/$(basename "$f")"
	done
	put_markers "$stage"
	for f in "$ROOT"/tests/vm/*.sh "$ROOT"/tests/bench/guest/*.sh; do
		[ -f "$f" ] && install -m 0755 "$f" "$stage/tests/$(basename "$f")"
	done
	# The TAP helpers of the command-line tests, shared; they need bash.
	install -m 0644 "$ROOT/tests/cli/engine.sh" "$stage/tests/engine.sh"
	put_program "$(command -v bash)" "$stage" /bin/bash
	put_awk "$stage"
	return 0
}

# mawk as the guest's awk: the suites decode tens of thousands of event
# records with awk, which busybox's awk runs about 7 times slower (30000
# records, one key=value split each: 1.5 s against 0.22 s on the host).
put_awk() {
	local stage=$1 awk
	awk=$(command -v mawk) || return 0
	put_program "$awk" "$stage" /usr/bin/mawk
	ln -sf /usr/bin/mawk "$stage/bin/awk"
	ln -sf /usr/bin/mawk "$stage/usr/bin/awk"
	return 0
}

# The modules of --kmod, decompressed, and the order to load them in.
put_kmods() {
	local stage=$1 ko name
	shift
	[ $# -gt 0 ] || return 0
	mkdir -p "$stage/lib/modules/extra"
	for ko in "$@"; do
		name=$(basename "$ko")
		name=${name%.xz}
		name=${name%.zst}
		case $ko in
		*.xz) xz -dc "$ko" ;;
		*.zst) zstd -qdc "$ko" ;;
		*) cat "$ko" ;;
		esac >"$stage/lib/modules/extra/$name" || die "cannot read $ko"
		echo "$name" >>"$stage/lib/modules/extra.order"
	done
}

main() {
	local series="" module="" out="" kmods=()
	INIT=$ROOT/scripts/testbed/vm-init.sh
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) series=${2:?}; shift 2 ;;
		--module) module=${2:?}; shift 2 ;;
		--out) out=${2:?}; shift 2 ;;
		--init) INIT=${2:?}; shift 2 ;;
		--kmod) kmods+=("${2:?}"); shift 2 ;;
		*) usage ;;
		esac
	done
	[ -n "$series" ] || usage
	: "${module:=$ROOT/build/vm/$series/latmon.ko}"
	: "${out:=$ROOT/build/vm/$series/initramfs.cpio.gz}"
	STAGE=$(mktemp -d /tmp/latmon-initramfs.XXXXXX)
	chmod 0755 "$STAGE"
	trap 'rm -rf "$STAGE"' EXIT
	put_base "$STAGE"
	put_payload "$STAGE" "$module"
	put_kmods "$STAGE" "${kmods[@]}"
	mkdir -p "$(dirname "$out")"
	(cd "$STAGE" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 >"$out.$$.tmp"
	mv "$out.$$.tmp" "$out"
	echo "$out"
}

main "$@"
