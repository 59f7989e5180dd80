# SPDX-License-Identifier: MIT
# The debug-kernel run. Included by scripts/mk/vm.mk.
#
#   make debug-kernel   build (once, ~20 min, cached outside the checkout in
#                       $LATCTL_CACHE/debug-kernel) the KASAN/lockdep/kmemleak/
#                       UBSAN 6.1 kernel; prints its KDIR
#   make check-debug [STRESS_CYCLES=100] [STRESS_SEED=N]
#                       build latmon.ko against it and run the whole VM suite
#                       and the stress groups there, then rmmod + kmemleak
#                       scan; any kernel report fails
#
# `make check` runs the same with 10 race cycles (tests/vm/debug.t) only with
# LATCTL_CHECK_DEBUG=1 and the kernel built (about an hour under TCG), and
# says it skipped it otherwise.

.PHONY: debug-kernel check-debug

debug-kernel: ## build the debug kernel once (about 20 min, cached outside the checkout)
	scripts/testbed/debug-kernel.sh --kdir

check-debug: vm-progs user ## the VM suites on the debug kernel (KASAN, lockdep)
	LATMON_STRESS_CYCLES=$(STRESS_CYCLES) LATMON_STRESS_SEED=$(STRESS_SEED) \
		scripts/testbed/debug-kernel.sh --check t s
