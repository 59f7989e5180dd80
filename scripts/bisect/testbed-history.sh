#!/bin/bash
# SPDX-License-Identifier: MIT
# A planted history of a test-bed tree for bisect-step.sh's tests: N
# commits of testbed.conf with Debian's 6.12 whose kernel command line has
# transparent_hugepage=always, then =never from commit BAD on (grow's
# faults per push double), and commit BROKEN naming a kernel the test bed
# does not have (it does not build). Prints the commits, oldest first.
#
#   scripts/bisect/testbed-history.sh DIR N BAD BROKEN
set -euo pipefail

[ $# = 4 ] || { echo "usage: $0 DIR N BAD BROKEN" >&2; exit 2; }
T=$1 N=$2 BAD=$3 BROKEN=$4
git init -q "$T"
for i in $(seq "$N"); do
	thp=always kernel=6.12
	[ "$i" -ge "$BAD" ] && thp=never
	[ "$i" = "$BROKEN" ] && kernel=5.4
	printf '# commit %s\nkernel=%s\nappend=init_on_alloc=0 transparent_hugepage=%s\n' \
		"$i" "$kernel" "$thp" >"$T/testbed.conf"
	git -C "$T" add testbed.conf
	git -C "$T" commit -q -m "c$i: kernel $kernel, transparent_hugepage=$thp"
done
git -C "$T" rev-list --reverse HEAD
