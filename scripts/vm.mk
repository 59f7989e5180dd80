# SPDX-License-Identifier: MIT
# QEMU test bed: Debian kernels, latmon.ko per kernel, initramfs, VM tests.
# Included by the top Makefile.
#
#   make vm-kernels      fetch the Debian 6.1 and 6.12 kernels + headers
#   make vm-modules      build module/latmon.ko against each of them
#   make vm-check        run the VM test suite on every kernel

VM_KERNELS ?= 6.1 6.12

.PHONY: vm-kernels
vm-kernels:
	@for k in $(VM_KERNELS); do scripts/kernel-fetch.sh $$k >/dev/null || exit 1; done
