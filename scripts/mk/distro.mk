# SPDX-License-Identifier: MIT
# make check-distro: latmon's DKMS install on a Debian box with Debian's own
# 6.12 kernel installed (a bookworm chroot made by scripts/testbed/chroot.sh
# distro), where DKMS signs and compresses the module, then that module
# loaded in the 6.12 test bed VM (scripts/testbed/distro-check.sh, TAP).
# Not in make check: the chroot takes minutes to make the first time.
.PHONY: check-distro
check-distro: vm-progs user ## latmon's DKMS install on a Debian box with Debian's own kernel
	scripts/deps.sh vm
	prove --exec '' --timer -v scripts/testbed/distro-check.sh
