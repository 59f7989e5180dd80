# SPDX-License-Identifier: MIT
# make check-lava: LAVA's own dispatcher (lava-run, in a Debian chroot made
# by scripts/testbed/chroot.sh lava) runs the job of tests/lava/ on the
# QEMU device type under TCG: it boots Debian's LAVA_KERNEL with latmon,
# runs the test definition tests/lava/latctl/latctl.yaml from this
# repository's HEAD, and scripts/lava/check-lava.sh checks LAVA's results.
# Not in make check: see tests/lava/README.md for its time.
LAVA_KERNEL ?= 6.12
LAVA_WORK ?= $(CURDIR)/build/lava

.PHONY: check-lava lava-ramdisk
lava-ramdisk: vm-progs user ## the ramdisk a LAVA job boots
	scripts/lava/lava-ramdisk.sh --kernel $(LAVA_KERNEL)

check-lava: vm-progs user ## a LAVA job run by LAVA's own dispatcher in a Debian chroot
	scripts/deps.sh vm
	prove --exec '' --timer -v scripts/lava/check-lava.sh :: $(LAVA_KERNEL) $(LAVA_WORK)

# make check-lab: a real LAVA lab (scripts/lava/lab-up.sh: lava-server,
# PostgreSQL, two workers with a QEMU device each, in a Debian chroot)
# bisects a planted history with two commits a round, again with a worker
# killed during a job, then lab-down (scripts/lava/check-lab.sh). Not in
# make check: about half an hour (tests/BENCHMARKS.md).
LAB_WORK ?= $(CURDIR)/build/check-lab
.PHONY: check-lab
check-lab: vm-progs user ## bisect on a real LAVA lab of two devices, one killed mid-job
	scripts/deps.sh vm
	prove --exec '' --timer -v scripts/lava/check-lab.sh :: $(LAB_WORK)
