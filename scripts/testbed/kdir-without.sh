#!/bin/bash
# SPDX-License-Identifier: MIT
# A copy of a Debian kernel's header tree (the arch part; the common part
# and kbuild linked) with some options configured off, to build latmon as
# it builds against a kernel configured without them:
#
#   scripts/testbed/kdir-without.sh KDIR OUT OPTION...    (OPTION: FUNCTION_TRACER)
#
# Drops CONFIG_OPTION from .config, include/config/auto.conf and
# include/generated/autoconf.h and prints OUT's KDIR. A build check only:
# the kernel image itself still has the options, so the module built there
# is not for loading (scripts/bisect/bisect-step.sh --tinyconfig builds and
# boots a kernel that lacks them).
set -euo pipefail

die() { echo "kdir-without: $*" >&2; exit 1; }
[ $# -ge 3 ] || { echo "usage: $0 KDIR OUT OPTION..." >&2; exit 2; }
kdir=$(cd "$1" && pwd) out=$2
shift 2
[ -f "$kdir/include/generated/autoconf.h" ] || die "$kdir has no include/generated/autoconf.h"
common=$(sed -n 's|^include .*\.\./\(linux-headers-[^/]*\)/Makefile)*$|\1|p' "$kdir/Makefile")
[ -n "$common" ] || die "$kdir/Makefile names no common header tree (not a Debian headers package?)"
rm -rf "$out" && mkdir -p "$out"
dst=$out/${kdir##*/}
cp -a "$kdir" "$dst"
ln -s "$(cd "$kdir/../$common" && pwd)" "$out/$common"
for l in scripts tools; do
	[ -L "$dst/$l" ] && ln -sfn "$(readlink -f "$kdir/$l")" "$dst/$l"
done
for opt in "$@"; do
	sed -i "/^#define CONFIG_$opt 1$/d" "$dst/include/generated/autoconf.h"
	sed -i "/^CONFIG_$opt=[ym]$/d" "$dst/include/config/auto.conf" "$dst/.config"
done
echo "$dst"
