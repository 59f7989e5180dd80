# SPDX-License-Identifier: MIT
# The debug-kernel run (issue 5 §1). Included by scripts/vm.mk.
#
#   make debug-kernel   build (once, ~20 min, cached outside the checkout in
#                       $LATCTL_CACHE/debug-kernel) the KASAN/lockdep/kmemleak/
#                       UBSAN 6.1 kernel; prints its KDIR
#   make check-debug    build latmon.ko against it and run the whole VM suite
#                       there, then rmmod + kmemleak scan; any kernel report fails
#
# Not part of `make check` yet. Next step: run it from `make check` when
# `scripts/debug-kernel.sh --cached` succeeds (the kernel is already built),
# and print that it was skipped otherwise.

.PHONY: debug-kernel check-debug

debug-kernel:
	scripts/debug-kernel.sh --kdir

check-debug: vm-progs user
	scripts/debug-kernel.sh --check
