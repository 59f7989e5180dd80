# SPDX-License-Identifier: MIT
# latctl: user-space controller (user/), kernel module (module/), tests.
#
#   make            build user/latctl
#   make module     build module/latmon.ko against KDIR
#   make load       insmod the module on this machine
#   make run        set up what is missing, build, run the main job
#   make check      set up what is missing, build, run every test
#   make check-bisect   bisect a real Linux tree end to end (about an hour)
#   make style      shellcheck, checkpatch on module/, clang-format on changed lines
#   make install    latctl, man pages, completion, test bed (scripts/mk/install.mk)
#
KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build

CC ?= cc
CFLAGS ?= -O2 -g
override CFLAGS += -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -Iuser
# One version for latctl, latmon and the DKMS package: the module's.
VERSION := $(shell sed -n 's/^\#define LATMON_MODULE_VERSION[^"]*"\(.*\)"/\1/p' module/latmon.h)
override CFLAGS += -DLATCTL_VERSION='"$(VERSION)"'
PKG_CONFIG ?= pkg-config

.PHONY: all user module load unload run check deps clean
all: user

include user/user.mk
include tests/tests.mk
include scripts/mk/vm.mk
include scripts/mk/install.mk
include scripts/mk/bisect.mk
include scripts/mk/lava.mk
include scripts/mk/distro.mk
include scripts/mk/style.mk

module:
	@test -d $(KDIR) || { echo "make module: no kernel headers at $(KDIR): install linux-headers-$(KERNELRELEASE) (Debian), or give KDIR=; where modules cannot load, latctl uses the BPF backend or --vm" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

load: module
	insmod module/latmon.ko

unload:
	rmmod latmon

deps:
	scripts/deps.sh

clean: user-clean tests-clean vm-clean
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null

# One prove run over every test, so `make check` ends with one summary line.
# deps runs first, in its own make, so pkg-config sees what it installed;
# the build uses every CPU (a fresh clone: 186 s at -j2 against 229 s).
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check:
	scripts/deps.sh
	$(MAKE) -j$(CHECK_JOBS) all $(CHECK_BUILD)
	prove --exec '' --timer $(PROVE_LANES) $(UNIT_TESTS) $(CLI_TESTS) $(FAULT_TESTS) $(VM_TESTS)
