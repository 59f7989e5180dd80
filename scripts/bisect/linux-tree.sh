#!/bin/bash
# SPDX-License-Identifier: MIT
# A real Linux tree to bisect: Debian's linux-source of a series (the
# newest 6.12 by default, from bookworm-backports), downloaded through the
# private apt tree, unpacked once into the cache and made a git repository
# with one commit ("Debian's linux-source VERSION").
#
#   scripts/bisect/linux-tree.sh [--series 6.12] [--cache DIR]
#
# Prints the tree's path (CACHE/linux-VERSION). Debian's .gitignore at the
# top ignores every file of the tarball's top level (it is written for a
# tree managed another way): those lines are dropped, else `git add` takes
# nothing. A second run prints the cached tree without the network.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERIES=6.12
CACHE=$ROOT/.cache/bisect
die() { echo "linux-tree: $*" >&2; exit 1; }
declare -A SUITE=([6.1]=bookworm [6.12]=bookworm-backports)

while [ $# -gt 0 ]; do
	case $1 in
	--series) SERIES=${2:?}; shift 2 ;;
	--cache) CACHE=${2:?}; shift 2 ;;
	*) echo "usage: $0 [--series 6.1|6.12] [--cache DIR]" >&2; exit 2 ;;
	esac
done
[ -n "${SUITE[$SERIES]:-}" ] || die "no linux-source for '$SERIES' here: use 6.1 or 6.12"
APTDIR=$CACHE/apt
# shellcheck source=scripts/testbed/apt-private.sh
. "$ROOT/scripts/testbed/apt-private.sh"

# The .deb of linux-source-SERIES in the cache (downloaded once).
fetch_deb() {
	local deb
	deb=$(ls "$CACHE"/debs/linux-source-"$SERIES"_*.deb 2>/dev/null | tail -n1 || true)
	if [ -z "$deb" ]; then
		apt_setup
		apt_update
		mkdir -p "$CACHE/debs"
		(cd "$CACHE/debs" && apt_private apt-get -t "${SUITE[$SERIES]}" download "linux-source-$SERIES") \
			>"$CACHE/download.log" 2>&1 || { cat "$CACHE/download.log" >&2; die "cannot download linux-source-$SERIES"; }
		deb=$(ls "$CACHE"/debs/linux-source-"$SERIES"_*.deb | tail -n1)
	fi
	echo "$deb"
}

# Unpack the tarball the .deb holds into $2 and commit it.
make_repo() {
	local deb=$1 tree=$2 version=$3 tmp
	tmp=$(mktemp -d "$CACHE/.unpack.XXXXXX")
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './usr/src/linux-source-*.tar.xz'
	mkdir -p "$tmp/tree"
	tar -xJf "$tmp"/usr/src/linux-source-*.tar.xz -C "$tmp/tree" --strip-components=1
	# Debian's top-level .gitignore ignores the tarball's own files
	sed -i '/^\/\*$/d; /^!\//d' "$tmp/tree/.gitignore" 2>/dev/null || true
	git -C "$tmp/tree" init -q
	git -C "$tmp/tree" add -A
	# fixed names and dates: the same source makes the same commit on every
	# machine, so a work directory made from another clone's tree stays warm
	GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
		git -C "$tmp/tree" -c user.name=latctl -c user.email=latctl@example.org \
		commit -q -m "Debian's linux-source $version"
	[ "$(git -C "$tmp/tree" ls-files | wc -l)" -gt 10000 ] ||
		die "the tree's first commit holds almost nothing: check its .gitignore"
	mv "$tmp/tree" "$tree"
	rm -rf "$tmp"
}

main() {
	local deb version tree
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
	deb=$(fetch_deb)
	version=$(dpkg-deb -f "$deb" Version)
	tree=$CACHE/linux-$version
	[ -d "$tree/.git" ] || make_repo "$deb" "$tree" "$version"
	echo "$tree"
}

main "$@"
