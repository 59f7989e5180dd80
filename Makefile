# SPDX-License-Identifier: MIT
# latctl: user-space controller (user/), kernel module (module/), tests.
#
#   make            build user/latctl
#   make run        set up what is missing, build, run the main job
#   make check      set up what is missing, build, run every test
#   make help       every target, one line each (its "## " comment where
#                   it is defined: a new target adds its own line)
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

.PHONY: all user module load unload run check deps clean help
all: user ## build user/latctl (the default)

include user/user.mk
include tests/tests.mk
include scripts/mk/vm.mk
include scripts/mk/install.mk
include scripts/mk/bisect.mk
include scripts/mk/lava.mk
include scripts/mk/distro.mk
include scripts/mk/machines.mk
include scripts/mk/style.mk

module: ## build module/latmon.ko against KDIR
	@test -d $(KDIR) || { echo "make module: no kernel headers at $(KDIR): install linux-headers-$(KERNELRELEASE) (Debian), or give KDIR=; where modules cannot load, latctl uses the BPF backend or --vm" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

load: module ## insmod the module on this machine
	insmod module/latmon.ko

unload: ## rmmod the module
	rmmod latmon

deps: ## install the Debian packages the build and the tests need
	scripts/deps.sh

clean: user-clean tests-clean vm-clean ## remove what the build made
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null

# One prove run over every test, so `make check` ends with one summary line.
# deps runs first, in its own make, so pkg-config sees what it installed;
# the build uses every CPU (a fresh clone: 186 s at -j2 against 229 s).
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: ## set up what is missing, build, run every test (about 25 min)
	scripts/deps.sh
	$(MAKE) -j$(CHECK_JOBS) all $(CHECK_BUILD)
	prove --exec '' --timer $(PROVE_LANES) $(UNIT_TESTS) $(CLI_TESTS) $(FAULT_TESTS) $(VM_TESTS)

# Every target with a "## " comment on its rule line, in every makefile read.
help: ## this list: every target, one line each
	@grep -hE '^[a-z][a-z0-9-]*:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | sort | \
		awk -F'\t' '{ printf "  make %-16s %s\n", $$1, $$2 }'
