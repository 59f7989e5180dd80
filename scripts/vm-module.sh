#!/bin/bash
# SPDX-License-Identifier: MIT
# Build module/latmon.ko against one Debian kernel of the test bed.
#
#   scripts/vm-module.sh 6.1|6.12
#
# The sources (Kbuild, module/, include/) are mirrored into
# build/vm/SERIES/src so that the two kernels' objects never clobber each
# other nor a `make module` in the checkout. Prints the path of the .ko,
# build/vm/SERIES/latmon.ko.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "vm-module: $*" >&2; exit 1; }

# Copy the module's sources into $1, only files that changed (keeps make's
# timestamps useful), and drop sources that no longer exist.
mirror() {
	local dst=$1 f
	mkdir -p "$dst/module" "$dst/include"
	for f in Kbuild module/Kbuild module/*.[ch] include/*.h; do
		[ -f "$ROOT/$f" ] || continue
		cmp -s "$ROOT/$f" "$dst/$f" || cp "$ROOT/$f" "$dst/$f"
	done
	for f in "$dst"/module/*.[ch] "$dst"/include/*.h; do
		[ -f "$f" ] || continue
		[ -f "$ROOT/${f#"$dst"/}" ] || rm -f "$f" "${f%.c}.o"
	done
}

main() {
	local series=${1:-} kdir out
	[ -n "$series" ] || { echo "usage: $0 6.1|6.12" >&2; exit 2; }
	kdir=$("$ROOT/scripts/kernel-fetch.sh" "$series") || exit 1
	out=$ROOT/build/vm/$series
	mirror "$out/src"
	if ! make -s -C "$kdir" M="$out/src" modules >"$out/build.log" 2>&1; then
		cat "$out/build.log" >&2
		die "latmon.ko does not build against $series ($kdir)"
	fi
	grep -i 'warning' "$out/build.log" >&2 || true
	cp "$out/src/module/latmon.ko" "$out/latmon.ko.tmp"
	mv "$out/latmon.ko.tmp" "$out/latmon.ko"
	echo "$out/latmon.ko"
}

main "$@"
