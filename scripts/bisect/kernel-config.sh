#!/bin/bash
# SPDX-License-Identifier: MIT
# The configuration a bisect step builds: the distribution's, as users run
# it, trimmed to what the test bed boots.
#
#   scripts/bisect/kernel-config.sh --tree LINUX --build DIR [--config FILE]
#
# FILE (default: Debian's config of the test bed's kernel of the tree's
# series, 6.1 or 6.12, scripts/testbed/kernel-fetch.sh) goes to DIR/.config;
# then: every module off (localmodconfig against an empty module list: the
# test bed loads none but latmon, which is built outside), the signing keys
# of Debian's build (not in a source tree) emptied, a LOCALVERSION of
# "-bisect", olddefconfig. Every built-in option stays as the distribution
# sets it: init_on_alloc, the THP default, the preemption model, HZ, the
# allocator, BTF. The options changed besides the modules are listed on
# stderr and in DIR/CONFIG-CHANGES. Nothing is done when DIR/.config was
# made from the same FILE (DIR/CONFIG-BASE).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "kernel-config: $*" >&2; exit 1; }

# Debian's config of the tree's series from the test bed's kernel cache.
debian_config() {
	local series kdir
	series=$(make -s -C "$TREE" kernelversion 2>/dev/null | cut -d. -f1,2)
	case $series in
	6.1 | 6.12) ;;
	*) die "no Debian config of series '$series' in the test bed (6.1, 6.12): give --config FILE" ;;
	esac
	kdir=$("$ROOT/scripts/testbed/kernel-fetch.sh" "$series") || die "cannot fetch Debian $series"
	[ -s "$kdir/.config" ] || die "Debian $series headers have no .config ($kdir)"
	echo "$kdir/.config"
}

# The changes from $1 to $2 that are not a module turned off, nor an
# option of such a module that went with it ("-NAME VALUE").
changes() {
	"$TREE/scripts/diffconfig" "$1" "$2" | grep -Ev '^-|^ *[A-Z0-9_]+ m -> n$' | sed 's/^ *//' || true
}

main() {
	local base="" tree="" build=""
	while [ $# -gt 0 ]; do
		case $1 in
		--tree) tree=${2:?}; shift 2 ;;
		--build) build=${2:?}; shift 2 ;;
		--config) base=${2:?}; shift 2 ;;
		*) die "usage: $0 --tree LINUX --build DIR [--config FILE]" ;;
		esac
	done
	[ -n "$tree" ] && [ -n "$build" ] || die "usage: $0 --tree LINUX --build DIR [--config FILE]"
	TREE=$(cd "$tree" && pwd)
	mkdir -p "$build"
	[ -n "$base" ] || base=$(debian_config)
	[ -r "$base" ] || die "cannot read the configuration $base"
	base=$(cd "$(dirname "$base")" && pwd)/$(basename "$base")
	if [ -f "$build/.config" ] && [ "$(cat "$build/CONFIG-BASE" 2>/dev/null)" = "$base" ]; then
		return 0
	fi
	cp "$base" "$build/.config"
	"$TREE/scripts/config" --file "$build/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" --set-str LOCALVERSION "-bisect" --disable LOCALVERSION_AUTO \
		--set-str BUILD_SALT ""
	echo "Module                  Size  Used by" >"$build/lsmod.none"
	make -s -C "$TREE" O="$build" LSMOD="$build/lsmod.none" localmodconfig </dev/null >/dev/null 2>&1 ||
		die "make localmodconfig failed"
	make -s -C "$TREE" O="$build" olddefconfig >/dev/null 2>&1 || die "make olddefconfig failed"
	changes "$base" "$build/.config" >"$build/CONFIG-CHANGES"
	echo "$base" >"$build/CONFIG-BASE"
	echo "config: $base, its $(grep -c '=m$' "$base") modules off (the test bed loads none but latmon);" \
		"other options changed: $(tr '\n' ';' <"$build/CONFIG-CHANGES" | sed 's/;$//; s/;/; /g')" >&2
}

main "$@"
