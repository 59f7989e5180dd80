# SPDX-License-Identifier: MIT
# QEMU test bed: Debian kernels, latmon.ko per kernel, test programs,
# initramfs, VM tests. Included by the top Makefile.
#
#   make vm-kernels      fetch the Debian 6.1, 6.12 and 7.3 kernels + headers
#   make vm-modules      build latmon.ko against each (build/vm/SERIES/)
#   make vm-initramfs    build each kernel's initramfs (needs the above)
#   make vm-check        run the VM test suite on every kernel
#   make vm-bench        the probe-cost benchmark (tests/bench/bench-probe-cost.sh)
#   make bench-cost [BENCH_VM=7.3]  what each latmon source adds per 4 KiB fault,
#                        2 MiB fault and system call, beside the ftrace event and the
#                        BPF backend: on this machine (needs root and a kernel that
#                        loads latmon), or in the test bed booting BENCH_VM
#   make bench-kinds [BENCH_VM=7.3]  latmon's per-fault cost of the fault kind, one boot
#   make vm-shell [VM_KERNEL=6.1] [VM_CMD="sh -c '...'"]  one command in the VM (default: insmod + lmtool info)
#
# 7.3-rt (PREEMPT_RT) is not in VM_KERNELS: make check boots it once for its
# own short groups (tests/vm/kernel-7.3-rt.t builds what it needs).

VM_KERNELS ?= 6.1 6.12 7.3
VM_CHECK_KERNELS ?= $(VM_KERNELS)
VM_NEWEST := 7.3
VM_RT_KERNEL := 7.3-rt
VM_KERNEL ?= $(VM_NEWEST)
VM_CMD ?= sh -c 'insmod /lib/modules/latmon.ko && lmtool info'
VM_BIN := tests/vm/bin
VM_PROGS := $(VM_BIN)/lmtool $(VM_BIN)/lmtouch $(VM_BIN)/spin $(VM_BIN)/jcheck $(VM_BIN)/stress \
	    $(VM_BIN)/lmmm $(VM_BIN)/lmprocs $(VM_BIN)/lmkinds
# per kernel the suite; the short stress run on the newest kernel only; the
# PREEMPT_RT boot; then the debug kernel (tests/vm/debug.t skips itself unless
# LATCTL_CHECK_DEBUG=1 asks for it and that kernel is built)
VM_TESTS := $(foreach k,$(VM_CHECK_KERNELS),tests/vm/kernel-$(k).t) \
	tests/vm/stress-$(VM_NEWEST).t tests/vm/kernel-$(VM_RT_KERNEL).t tests/vm/debug.t
# make check runs two lanes at once (prove -j2; each guest is one emulated
# CPU thread): --vm's Ctrl-C test, the newest kernel's suite, stress, 6.12
# and PREEMPT_RT groups in one (about 22 minutes), every other test in
# order in the other (about as long: host tests, fuzz, 6.1). On a fresh
# clone of c140af8 on an EPYC KVM guest: 1204 s against 1485 s, before
# the RT boot (80 s) moved into the first.
comma := ,
VM_LANE := tests/cli/interrupt_vm.t,tests/vm/kernel-$(VM_NEWEST).t,tests/vm/stress-$(VM_NEWEST).t$(if $(filter 6.12,$(VM_CHECK_KERNELS)),$(comma)tests/vm/kernel-6.12.t),tests/vm/kernel-$(VM_RT_KERNEL).t
PROVE_LANES := -j2 --rules='seq={$(VM_LANE)}' --rules='seq=**'
VM_NL_PKGS := libnl-genl-3.0
VM_CFLAGS = $(CFLAGS) -Itests/vm/prog

CHECK_BUILD += vm-initramfs

.PHONY: vm-kernels vm-modules vm-progs vm-initramfs vm-check vm-bench bench-cost bench-kinds check-fileio vm-shell vm-clean

vm-kernels: ## fetch the Debian 6.1, 6.12 and 7.3 kernels and headers
	@for k in $(VM_KERNELS); do scripts/testbed/kernel-fetch.sh $$k >/dev/null || exit 1; done

vm-modules: vm-kernels ## build latmon.ko against each VM kernel
	@for k in $(VM_KERNELS); do scripts/testbed/vm-module.sh $$k >/dev/null || exit 1; done

# the guest's programs, the exec workload's test programs among them: a
# long target (check-debug, check-lava) run alone from a fresh clone has
# not built them through make check
vm-progs: $(VM_PROGS) $(EXEC_PROGS) ## the guest's programs (the exec workload's test programs among them)

# lmtool names and prints records through the record-type descriptors
VM_EV_SRCS := user/events/evtype.c $(wildcard user/events/ev_*.c) user/lib/json.c user/lib/rdoc.c user/lib/fmt.c \
	user/system/syscalls.c user/system/memmap.c
$(VM_BIN)/lmtool: tests/vm/prog/lmtool.c user/backend/latmon_nl.c user/backend/latmon_nl.h include/latmon.h \
		$(VM_EV_SRCS) user/events/evtype.h
	@mkdir -p $(VM_BIN)
	$(CC) $(VM_CFLAGS) $(shell $(PKG_CONFIG) --cflags $(VM_NL_PKGS) libcjson) -o $@ \
		tests/vm/prog/lmtool.c user/backend/latmon_nl.c $(VM_EV_SRCS) \
		$(shell $(PKG_CONFIG) --libs $(VM_NL_PKGS) libcjson)

$(VM_BIN)/lmtouch: tests/vm/prog/lmtouch.c tests/vm/prog/sync.h user/lib/tsc.c user/stats/stats.c
	@mkdir -p $(VM_BIN)
	$(CC) $(VM_CFLAGS) -o $@ tests/vm/prog/lmtouch.c user/lib/tsc.c user/stats/stats.c -lm -pthread

$(VM_BIN)/lmprocs: tests/vm/prog/lmprocs.c tests/vm/prog/sync.h user/lib/tsc.c user/stats/stats.c
	@mkdir -p $(VM_BIN)
	$(CC) $(VM_CFLAGS) -o $@ tests/vm/prog/lmprocs.c user/lib/tsc.c user/stats/stats.c -lm -pthread

$(VM_BIN)/lmkinds: tests/vm/prog/lmkinds.c tests/vm/prog/sync.h
	@mkdir -p $(VM_BIN)
	$(CC) $(VM_CFLAGS) -o $@ tests/vm/prog/lmkinds.c

$(VM_BIN)/spin: tests/vm/prog/spin.c tests/vm/prog/sync.h
	@mkdir -p $(VM_BIN)
	$(CC) $(VM_CFLAGS) -o $@ tests/vm/prog/spin.c

# the stress groups' helper (tests/vm/s-*.sh)
$(VM_BIN)/stress: tests/vm/prog/stress.c include/latmon.h user/backend/latmon_nl.c $(VM_EV_SRCS)
	@mkdir -p $(VM_BIN)
	$(CC) $(VM_CFLAGS) $(shell $(PKG_CONFIG) --cflags $(VM_NL_PKGS) libcjson) -o $@ \
		tests/vm/prog/stress.c user/backend/latmon_nl.c $(VM_EV_SRCS) \
		$(shell $(PKG_CONFIG) --libs $(VM_NL_PKGS) libcjson)

# latctl's --fragment/--memcg/--thp-size around a plain touch (t-3x groups)
LMMM_SRCS := tests/vm/prog/lmmm.c user/system/mmenv.c user/system/fragment.c user/system/memcg.c \
	     user/system/thp_size.c user/settings/sysset.c user/settings/journal.c user/settings/setting.c user/file/safedir.c user/lib/fmt.c \
	     user/lib/cleanup.c user/system/counters.c user/system/thp.c \
	     user/lib/rdoc.c user/system/sysinfo.c
$(VM_BIN)/lmmm: $(LMMM_SRCS) tests/vm/prog/sync.h
	@mkdir -p $(VM_BIN)
	$(CC) $(VM_CFLAGS) -Iuser $(shell $(PKG_CONFIG) --cflags libcjson) -o $@ \
		$(LMMM_SRCS) $(shell $(PKG_CONFIG) --libs libcjson) -lz

# the JSON checker of the join tests (t-9x), libcjson copied into the initramfs
$(VM_BIN)/jcheck: tests/vm/prog/jcheck.c
	@mkdir -p $(VM_BIN)
	$(CC) $(VM_CFLAGS) $(shell $(PKG_CONFIG) --cflags libcjson) -o $@ \
		tests/vm/prog/jcheck.c $(shell $(PKG_CONFIG) --libs libcjson)

vm-initramfs: vm-modules vm-progs user $(EXEC_PROGS) ## build each VM kernel's initramfs
	@for k in $(VM_KERNELS); do scripts/testbed/vm-initramfs.sh --kernel $$k >/dev/null || exit 1; done

vm-check: vm-initramfs ## run the VM test suite on every kernel
	prove --exec '' $(VM_TESTS)

vm-bench: vm-initramfs ## the probe-cost benchmark (tests/bench/bench-probe-cost.sh)
	tests/bench/bench-probe-cost.sh --kernel $(VM_KERNEL)

BENCH_VM ?=
BENCH_ARGS ?= --rounds 7 --pages 20000 --huge 16 --calls 100000
bench-cost: ## what each latmon source adds per 4 KiB fault (BENCH_VM)
	tests/bench/bench-backends.sh --sources $(if $(BENCH_VM),--kernel $(BENCH_VM),--here) $(BENCH_ARGS)

# file-io faults in the test bed: the file workload on an ext4 disk of each kernel
check-fileio: vm-progs user ## file-io faults with latmon on an ext4 disk, each VM kernel (minutes)
	scripts/deps.sh vm
	prove --exec '' --timer -v tests/vm/fileio.t :: $(VM_KERNELS)

# the cost of reading a fault's kind with latmon, in one boot (BENCH_VM, default 7.3)
bench-kinds: ## latmon's per-fault cost of the fault kind, with and without, one boot
	@$(MAKE) -s vm-initramfs VM_KERNELS="$(or $(BENCH_VM),$(VM_NEWEST))"
	scripts/testbed/vm-run.sh --kernel $(or $(BENCH_VM),$(VM_NEWEST)) --timeout 1800 -- \
		bash -c 'cd /tests && export LATCTL=/usr/bin/latctl && . ./engine.sh && . ./lib.sh && \
		trap cleanup EXIT && cd "$$TMPD" && . /tests/x-30-kindcost.sh && done_testing'

vm-shell: vm-initramfs ## one command in the VM (VM_KERNEL, VM_CMD)
	scripts/testbed/vm-run.sh --kernel $(VM_KERNEL) -- $(VM_CMD)

vm-clean: ## remove the VM build tree
	rm -rf build/vm $(VM_BIN)
include scripts/mk/stress.mk
include scripts/mk/debug.mk
