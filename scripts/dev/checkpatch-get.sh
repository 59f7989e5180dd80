#!/bin/bash
# SPDX-License-Identifier: MIT
# The path of a kernel's scripts/checkpatch.pl, for make style: $CHECKPATCH
# if set; else the bisect tree's (.cache/bisect/linux-*); else the one
# unpacked before into .cache/checkpatch; else it is taken from Debian's
# linux-source-6.12 (the .deb lands in .cache/bisect/debs, where
# scripts/bisect/linux-tree.sh finds it, so check-bisect does not fetch it
# again). With no network and none of these: one line on stderr, exit 77.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=$ROOT/.cache
OUT=$CACHE/checkpatch
SERIES=6.12
die() { echo "checkpatch-get: $*" >&2; exit 77; }

found() { [ -x "$1" ] || [ -f "$1" ] && { echo "$1"; exit 0; }; }
[ -z "${CHECKPATCH:-}" ] || { [ -f "$CHECKPATCH" ] || die "CHECKPATCH=$CHECKPATCH does not exist"; echo "$CHECKPATCH"; exit 0; }
for t in "$CACHE"/bisect/linux-*/scripts/checkpatch.pl "$OUT/scripts/checkpatch.pl"; do
	[ -f "$t" ] && found "$t"
done
command -v apt-get >/dev/null || die "no kernel tree with scripts/checkpatch.pl and no apt-get to fetch one (give CHECKPATCH=)"
# shellcheck disable=SC2034 # read by apt-private.sh
APTDIR=$CACHE/bisect/apt
# shellcheck source=scripts/testbed/apt-private.sh
. "$ROOT/scripts/testbed/apt-private.sh"
deb=$(ls "$CACHE"/bisect/debs/linux-source-"$SERIES"_*.deb 2>/dev/null | tail -n1 || true)
if [ -z "$deb" ]; then
	mkdir -p "$CACHE/bisect/debs"
	(apt_setup && apt_update && cd "$CACHE/bisect/debs" &&
		apt_private apt-get -t bookworm-backports download "linux-source-$SERIES") \
		>"$CACHE/bisect/checkpatch-download.log" 2>&1 ||
		die "cannot download linux-source-$SERIES (no network?): see $CACHE/bisect/checkpatch-download.log"
	deb=$(ls "$CACHE"/bisect/debs/linux-source-"$SERIES"_*.deb | tail -n1)
fi
tmp=$(mktemp -d "$CACHE/.checkpatch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './usr/src/linux-source-*.tar.xz'
tar -xJf "$tmp"/usr/src/linux-source-*.tar.xz -C "$tmp" --strip-components=1 --wildcards \
	'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch'
rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp" && mv "$tmp/scripts" "$OUT.tmp/" && rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
echo "$OUT/scripts/checkpatch.pl"
