#!/bin/bash
# SPDX-License-Identifier: MIT
# make check-machines (TAP): the host-lane tests that make real runs, inside
# a guest of Debian's 6.12 booted as machines of other kinds: the TSC marked
# unstable with the HPET as clock, THP off, init_on_alloc=0, one CPU. The
# guest's root is this host's root file system, read-only over 9p, with the
# checkout writable (scripts/testbed/machines-guest.sh): the same programs
# and tests, another kernel command line and CPU count. One test line per
# test file and machine, its failures below it; the time of each machine.
#   scripts/testbed/check-machines.sh [--only NAME] [FILE...]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERIES=6.12
FILES=(tests/cli/bpf.t tests/cli/bench.t tests/cli/causes.t tests/cli/grow.t tests/cli/wl_exec.t
       tests/cli/lab.t tests/cli/readme.t tests/fault/hostile.t tests/fault/journal.t
       tests/fault/limits.t tests/fault/outputs.t tests/fault/readers.t)
# name|kernel arguments|CPUs
MACHINES=("hpet|tsc=unstable clocksource=hpet|2"
	  "thp-never|transparent_hugepage=never|2"
	  "no-init-on-alloc|init_on_alloc=0|2"
	  "one-cpu||1")
ONLY=""
[ "${1:-}" = --only ] && { ONLY=$2; shift 2; }
[ $# -gt 0 ] && FILES=("$@")
n=0 failed=0
INITRD=$ROOT/build/vm/machines/initramfs.cpio.gz

# The test bed's initramfs with the 9p modules of Debian's kernel.
make_initrd() {
	local k rel
	k=$(sed -n 's/^KREL=//p' "${LATMON_KERNEL_CACHE:-$ROOT/.cache/kernels}/$SERIES/kernel.env") || return 1
	rel=${LATMON_KERNEL_CACHE:-$ROOT/.cache/kernels}/$SERIES/root/lib/modules/$k/kernel
	mkdir -p "$(dirname "$INITRD")"
	"$ROOT/scripts/testbed/vm-initramfs.sh" --kernel "$SERIES" --out "$INITRD" \
		--kmod "$rel/fs/netfs/netfs.ko.xz" --kmod "$rel/net/9p/9pnet.ko.xz" \
		--kmod "$rel/net/9p/9pnet_virtio.ko.xz" --kmod "$rel/fs/9p/9p.ko.xz"
}

# What the guest runs: each file, its status and its failures as lines
# the host reads ("@@FILE name status tests failed seconds").
# shellcheck disable=SC2016 # the guest's bash expands them
guest_cmd() {
	local f
	printf 'for t in'
	for f in "${FILES[@]}"; do printf ' %q' "$f"; done
	printf '; do s=$SECONDS; bash "$t" >/tmp/o 2>&1; rc=$?; '
	printf 'grep -A4 "^not ok\\|^Bail out" /tmp/o | sed "s/^/@@SAY /"; grep "# skip\\|# SKIP" /tmp/o | sed "s/^/@@SKIP /"; '
	printf 'echo "@@FILE $t $rc $(grep -c "^ok\\|^not ok" /tmp/o) $(grep -c "^not ok" /tmp/o) $((SECONDS - s))"; done'
}

report() {	# NAME: the guest's lines as TAP
	local name=$1 line f rc tests bad secs
	while IFS= read -r line; do
		case $line in
		"@@FILE "*)
			read -r f rc tests bad secs <<<"${line#@@FILE }"
			n=$((n + 1))
			if [ "$rc" = 0 ] && [ "$bad" = 0 ]; then
				echo "ok $n - $name: $f ($tests tests, $secs s)"
			else
				echo "not ok $n - $name: $f (exit $rc, $bad of $tests failed, $secs s)"
				failed=$((failed + 1))
			fi
			[ -f "$2.say" ] && sed 's/^/#   /' "$2.say"
			[ -f "$2.skip" ] && sed 's/^/#   skipped: /' "$2.skip"
			rm -f "$2.say" "$2.skip"
			echo "$n" >"$TMP/n"
			echo "$failed" >"$TMP/failed" ;;
		"@@SAY "*) printf '%s\n' "${line#@@SAY }" >>"$2.say" ;;
		"@@SKIP "*) printf '%s\n' "${line#@@SKIP }" >>"$2.skip" ;;
		*) printf '# %s\n' "$line" ;;
		esac
	done
}

make_initrd >/dev/null || { echo "Bail out! the guest's initramfs cannot be made"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
t0=$SECONDS
for m in "${MACHINES[@]}"; do
	IFS='|' read -r name args cpus <<<"$m"
	[ -n "$ONLY" ] && [ "$ONLY" != "$name" ] && continue
	t=$SECONDS
	echo "# $name: Debian $SERIES, ${args:-stock arguments}, $cpus CPU(s)"
	LATCTL_MACHINE_ARGS=$args "$ROOT/scripts/testbed/vm-run.sh" --kernel "$SERIES" --initramfs "$INITRD" \
		--memory 4G --cpus "$cpus" --timeout 5400 --append "$args" \
		--in "$ROOT/scripts/testbed/machines-guest.sh" --share /:hostroot:ro --share "$ROOT:checkout" \
		-- sh -c "LATCTL_MACHINE_ARGS='$args' sh /in/machines-guest.sh '$ROOT' '$(guest_cmd)'" \
		2>&1 | report "$name" "$TMP/$name"
	n=$(cat "$TMP/n" 2>/dev/null || echo "$n") failed=$(cat "$TMP/failed" 2>/dev/null || echo "$failed")
	echo "# $name: $((SECONDS - t)) s"
done
echo "# check-machines: $((SECONDS - t0)) s"
echo "1..$n"
[ "$failed" = 0 ] && [ "$n" -gt 0 ]
