# SPDX-License-Identifier: MIT
# Stress tests of the VM test bed (tests/vm/s-*.sh): races under load,
# privilege matrix, leaks to user space, malformed netlink. Not part of
# `make check` yet. Included by scripts/vm.mk.
#
#   make check-stress [VM_KERNELS="6.1 6.12"] [STRESS_CYCLES=100] [STRESS_SEED=N]
#
# Boots each kernel and runs tests/vm/suite.sh over the s-*.sh groups; the
# TAP goes to stdout and build/vm/SERIES/stress.tap, the guest's kernel log
# to build/vm/SERIES/stress-console.log.

STRESS_CYCLES ?= 100
STRESS_SEED ?=
STRESS_TIMEOUT ?= 3000

.PHONY: check-stress

$(VM_BIN)/stress: tests/vm/stress.c include/latmon.h
	@mkdir -p $(VM_BIN)
	$(CC) $(VM_CFLAGS) $(shell $(PKG_CONFIG) --cflags $(VM_NL_PKGS)) -o $@ \
		tests/vm/stress.c $(shell $(PKG_CONFIG) --libs $(VM_NL_PKGS))

check-stress: $(VM_BIN)/stress
	@$(MAKE) -s vm-initramfs VM_KERNELS="$(VM_KERNELS)"
	@rc=0; for k in $(VM_KERNELS); do \
		echo "# check-stress: kernel $$k"; \
		{ scripts/vm-run.sh --kernel $$k --timeout $(STRESS_TIMEOUT) \
			--append init_on_alloc=0 --console build/vm/$$k/stress-console.log -- \
			env LATMON_STRESS_CYCLES=$(STRESS_CYCLES) LATMON_STRESS_SEED=$(STRESS_SEED) \
			/tests/suite.sh s; echo $$? >build/vm/$$k/stress.rc; } | tee build/vm/$$k/stress.tap; \
		[ "$$(cat build/vm/$$k/stress.rc)" = 0 ] || rc=1; \
	done; exit $$rc
