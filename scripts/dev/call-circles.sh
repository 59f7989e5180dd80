#!/bin/bash
# SPDX-License-Identifier: MIT
# Pairs of object files that call each other's functions (a call circle):
# for each pair, one line "call circle: A <-> B (A calls f, B calls g)" and
# exit 1; with none, "N objects, no call circle" and exit 0. Only functions
# count (nm's T): a table of descriptors that names its entries' data is the
# registration pattern, not a circle.
#   scripts/dev/call-circles.sh OBJ...
set -eu
[ $# -gt 0 ] || { echo "usage: $0 OBJ..." >&2; exit 2; }
command -v nm >/dev/null || { echo "call-circles: nm is not installed (binutils)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for o in "$@"; do
	nm --defined-only -g "$o" | awk -v o="$o" '$2 == "T" { print $3, o }' >> "$tmp/defs"
	nm -u "$o" | awk -v o="$o" '{ print o, $NF }' >> "$tmp/uses"
done
touch "$tmp/defs" "$tmp/uses"
# caller callee function, one line per call across files
awk 'NR == FNR { def[$1] = $2; next }
     ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' "$tmp/defs" "$tmp/uses" > "$tmp/calls"
awk '{ k = $1 " " $2; if (!(k in f)) f[k] = $3 }
     END {
	n = 0
	for (k in f) {
		split(k, p, " ")
		back = p[2] " " p[1]
		if ((back in f) && p[1] < p[2]) {
			printf "call circle: %s <-> %s (%s calls %s, %s calls %s)\n",
				p[1], p[2], p[1], f[k], p[2], f[back]
			n++
		}
	}
	exit n > 0
     }' "$tmp/calls" && echo "$# objects, no call circle"
