# SPDX-License-Identifier: MIT
# make check-machines: the host-lane tests that make real runs, in guests of
# Debian's 6.12 booted as other machines (the TSC unstable with the HPET as
# clock, THP off, init_on_alloc=0, one CPU), each with the host's own root
# file system read-only over 9p (scripts/testbed/check-machines.sh, TAP).
# Not in make check: a machine takes 26-36 minutes under TCG.
#   make check-machines [MACHINES_ONLY=hpet] [MACHINES_FILES="tests/cli/bpf.t ..."]
.PHONY: check-machines
MACHINES_ONLY ?=
MACHINES_FILES ?=
check-machines: user vm-kernels vm-progs tests $(EXEC_PROGS) ## host-lane tests in guests booted as other machines (about two hours)
	prove --exec '' --timer -v scripts/testbed/check-machines.sh \
		:: $(if $(MACHINES_ONLY),--only $(MACHINES_ONLY)) $(MACHINES_FILES)
