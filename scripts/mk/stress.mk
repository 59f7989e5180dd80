# SPDX-License-Identifier: MIT
# Stress tests of the VM test bed (tests/vm/s-*.sh): races under load,
# privilege matrix, leaks to user space, malformed netlink. `make check`
# runs a short version on the newest kernel (tests/vm/stress-7.3.t: 10
# cycles, seed 4242).
# Included by scripts/mk/vm.mk.
#
#   make check-stress [VM_KERNELS="6.1 6.12 7.3"] [STRESS_CYCLES=100] [STRESS_SEED=N]
#
# Boots each kernel and runs tests/vm/suite.sh over the s-*.sh groups
# (scripts/testbed/vm-test.sh SERIES s); the TAP goes to stdout and
# build/vm/SERIES/stress.tap, the guest's kernel log to
# build/vm/SERIES/stress-console.log.

STRESS_CYCLES ?= 100
STRESS_SEED ?=
STRESS_TIMEOUT ?= 3000

.PHONY: check-stress

check-stress: ## the stress groups in the VM (STRESS_CYCLES, STRESS_SEED)
	@rc=0; for k in $(VM_KERNELS); do \
		echo "# check-stress: kernel $$k"; mkdir -p build/vm/$$k; \
		{ LATMON_STRESS_CYCLES=$(STRESS_CYCLES) LATMON_STRESS_SEED=$(STRESS_SEED) \
			LATMON_STRESS_TIMEOUT=$(STRESS_TIMEOUT) scripts/testbed/vm-test.sh $$k s; \
			echo $$? >build/vm/$$k/stress.rc; } | tee build/vm/$$k/stress.tap; \
		[ "$$(cat build/vm/$$k/stress.rc)" = 0 ] || rc=1; \
	done; exit $$rc
