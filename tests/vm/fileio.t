#!/bin/bash
# SPDX-License-Identifier: MIT
# make check-fileio: the file workload's faults read from storage in the
# test bed (whose initramfs has no disk, so make check's VM suites see
# page-cache faults of tmpfs only). For each kernel of VM_KERNELS (or the
# arguments): the test bed's initramfs with the virtio disk and ext4
# modules (scripts/lava/lava-ramdisk.sh --init scripts/testbed/vm-init.sh),
# a 256 MiB ext4 image made here as /dev/vda, mounted at /mnt; latctl run
# file --mode cold and --mode warm there, with latmon: cold reads from the
# disk (file-io faults) and finds what readahead brought (file), warm only
# finds the page cache (file). Each boot about a minute under TCG.
. "$(dirname "$0")/../cli/engine.sh"

ROOT=$TESTS_DIR
KERNELS=${*:-$(sed -n 's/^VM_KERNELS ?= //p' "$ROOT/scripts/mk/vm.mk")}
GUEST='set -e
while read -r m; do insmod "/lib/modules/extra/$m"; done </lib/modules/extra.order
insmod /lib/modules/latmon.ko
for _ in $(seq 50); do [ -b /dev/vda ] && break; sleep 0.1; done	# the driver probes after insmod
mkdir -p /mnt && mount -t ext4 /dev/vda /mnt
for mode in cold warm; do
	LATCTL_FILE_DIR=/mnt latctl run file --mode $mode --iters 20000 --slow p90 --quiet --json /out/file-$mode.json
done'

# kinds FILE: "kind=count ..." of a result's loop.
kinds() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
		my $k = $d->{causes}{fault_kinds} || {};
		print join(" ", map { "$_=$k->{$_}{count}" } sort keys %$k), "\n";' "$1"
}
count() {	# FILE KIND: how many faults of KIND, 0 for none
	local v
	v=$(kinds "$1" | tr ' ' '\n' | sed -n "s/^$2=//p")
	echo "${v:-0}"
}

for k in $KERNELS; do
	W=$ROOT/build/vm/$k/fileio
	rm -rf "$W" && mkdir -p "$W"
	ok "$k: the initramfs with the disk's modules" \
		"$ROOT/scripts/lava/lava-ramdisk.sh" --kernel "$k" --init "$ROOT/scripts/testbed/vm-init.sh" \
		--out "$W/initramfs.cpio.gz"
	truncate -s 256M "$W/disk.img" && mkfs.ext4 -q -F "$W/disk.img"
	ok "$k: latctl run file cold and warm on an ext4 disk" \
		"$ROOT/scripts/testbed/vm-run.sh" --kernel "$k" --initramfs "$W/initramfs.cpio.gz" \
		--disk "$W/disk.img" --timeout 900 --out-dir "$W" --console "$W/console.log" -- bash -c "$GUEST"
	[ -f "$W/file-cold.json" ] && [ -f "$W/file-warm.json" ] || continue
	echo "# $k cold: $(kinds "$W/file-cold.json"); warm: $(kinds "$W/file-warm.json")"
	ok "$k: cold reads the file from the disk (file-io faults)" test "$(count "$W/file-cold.json" file-io)" -gt 0
	ok "$k: ... and finds what readahead brought in (file faults)" test "$(count "$W/file-cold.json" file)" -gt 0
	ok "$k: warm finds every page in the page cache (file, no file-io)" \
		bash -c "[ '$(count "$W/file-warm.json" file)' -gt 0 ] && [ '$(count "$W/file-warm.json" file-io)' = 0 ]"
done
done_testing
