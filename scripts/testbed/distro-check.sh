#!/bin/bash
# SPDX-License-Identifier: MIT
# make check-distro (TAP): latmon's install path on a Debian box with
# Debian's own kernel installed, where DKMS signs and compresses the module
# it builds. In the chroot of scripts/testbed/chroot.sh distro (bookworm,
# linux-image and linux-headers of the test bed's 6.12 from
# bookworm-backports, dkms): make dkms-install, dkms install for that
# kernel, the module checked where DKMS put it (latmon.ko.xz, signed by
# DKMS's key, vermagic and version), then loaded in the 6.12 test bed VM
# (the same kernel, booted) where latctl latmon info answers; make
# dkms-uninstall leaves nothing behind. A second run reuses the chroot.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/cli/engine.sh"

CHROOT=$ROOT/scripts/testbed/chroot.sh
REL=$("$ROOT/scripts/testbed/kernel-fetch.sh" --release 6.12) || { echo "Bail out! cannot resolve Debian's 6.12"; exit 1; }
RELRE=$(printf '%s' "$REL" | sed 's/[.+]/\\&/g')	# REL in a regular expression
VERSION=$(sed -n 's/^#define LATMON_MODULE_VERSION[^"]*"\(.*\)"/\1/p' "$ROOT/module/latmon.h")
t0=$SECONDS
DIR=$("$CHROOT" distro) || { echo "Bail out! the distro chroot cannot be made"; exit 1; }
echo "# chroot $DIR ready after $((SECONDS - t0)) s"

# The tree as a clean copy (git's files, with the working tree's changes).
SRC=$TMPD/src
mkdir -p "$SRC"
(cd "$ROOT" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$SRC" 2>/dev/null)
in_chroot() { "$CHROOT" distro --run "$TMPD" -- bash -c "$1"; }
export -f in_chroot
export CHROOT TMPD

ok "Debian's $REL is installed in the chroot, with its headers" \
	in_chroot "dpkg -s linux-image-$REL linux-headers-$REL >/dev/null && test -e /lib/modules/$REL/build/Makefile"
ok "that kernel's config asks for xz-compressed modules" \
	in_chroot "grep -qx CONFIG_MODULE_COMPRESS_XZ=y /boot/config-$REL"
check "make dkms-install (dkms add)" "in_chroot 'cd $SRC && make -s dkms-install 2>&1'" 0 "dkms add -m latmon -v $VERSION"
t1=$SECONDS
check "dkms install -m latmon -v $VERSION -k $REL" \
	"in_chroot 'dkms install -m latmon -v $VERSION -k $REL 2>&1'" 0 ''
echo "# dkms install: $((SECONDS - t1)) s"
KO=/lib/modules/$REL/updates/dkms/latmon.ko.xz
ok "DKMS put latmon.ko.xz under /lib/modules/$REL/updates/dkms" in_chroot "test -s $KO"
check "dkms status: installed for $REL" "in_chroot 'dkms status latmon'" 0 "^latmon/$VERSION, $RELRE, x86_64: installed"
in_chroot "modinfo $KO" > "$TMPD/modinfo" 2>&1
sed 's/^/# /' "$TMPD/modinfo" | grep -E 'version|vermagic|signer|sig_' | head -8
ok "modinfo reads the compressed module: vermagic $REL" grep -Eq "^vermagic: +$RELRE " "$TMPD/modinfo"
ok "version $VERSION" grep -Eq "^version: +$VERSION\$" "$TMPD/modinfo"
ok "DKMS signed it (signer and PKCS#7 signature)" \
	bash -c "grep -Eq '^signer: +.' '$TMPD/modinfo' && grep -Eq '^sig_id: +PKCS#7' '$TMPD/modinfo'"
ok "modprobe finds it for $REL (depmod ran)" in_chroot "modprobe -S $REL --show-depends latmon | grep -q 'latmon.ko.xz'"

# The module DKMS installed, in the booted kernel: the test bed's 6.12.
in_chroot "xz -dc $KO > $TMPD/latmon.ko"
if make -s -C "$ROOT" vm-initramfs VM_KERNELS=6.12 >"$TMPD/vm-build.log" 2>&1; then
	check "the DKMS-installed module loads in the 6.12 VM and answers latctl latmon info" \
		"'$ROOT/scripts/testbed/vm-run.sh' --kernel 6.12 --timeout 300 --in '$TMPD/latmon.ko' -- sh -c 'insmod /in/latmon.ko && latctl latmon info'" \
		0 "^latmon $VERSION \(UAPI 1\) on $RELRE, tsc_khz"
else
	sed 's/^/# /' "$TMPD/vm-build.log" | tail -5
	ok "the 6.12 test bed builds" false
fi

check "make dkms-uninstall (dkms remove --all)" "in_chroot 'cd $SRC && make -s dkms-uninstall 2>&1'" 0 ''
ok "no latmon module left for $REL" in_chroot "! ls /lib/modules/$REL/updates/dkms/latmon.ko* 2>/dev/null"
ok "no DKMS source left" in_chroot "test ! -e /usr/src/latmon-$VERSION && ! dkms status latmon | grep -q ."
echo "# check-distro: $((SECONDS - t0)) s"
done_testing
