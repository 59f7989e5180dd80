# SPDX-License-Identifier: MIT
# The BPF backend of latctl (user/backend/bpf/): latbpf.bpf.c compiled by clang into
# BPF, a libbpf skeleton generated from it by bpftool, and the user-side
# files linked into latctl. Included from user/user.mk.
#
# vmlinux.h is generated from the build machine's BTF (/sys/kernel/btf/vmlinux)
# rather than pinned in the tree: the program is CO-RE (BPF_CORE_READ, tp_btf
# arguments checked against the running kernel's BTF at load), so the header
# only has to declare the types and fields used, which every kernel with BTF
# has; generating it keeps a 3 MB file out of git and follows the build
# machine's kernel. VMLINUX_BTF= points at another BTF file (a guest kernel's).
BPF_DIR := user/backend/bpf
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
BPF_CLANG ?= clang
# Debian puts bpftool in /usr/sbin, which a user's PATH often lacks.
BPFTOOL ?= $(or $(shell command -v bpftool 2>/dev/null),$(wildcard /usr/sbin/bpftool),bpftool)
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -Wall -Iinclude -I$(BPF_DIR)

# The backend is built where its tool chain is (a clang that targets BPF,
# bpftool, libbpf, a BTF to generate vmlinux.h from); elsewhere latctl is
# built without it: latbpf_none.c says why, and so does the link, once.
# The stamp holds the choice, so that a change of it relinks latctl.
BPF_WHY := $(shell scripts/dev/bpf-toolchain.sh '$(BPF_CLANG)' '$(BPFTOOL)' '$(VMLINUX_BTF)' '$(PKG_CONFIG)')
BPF_STAMP := $(BPF_DIR)/bpf-build.stamp
$(shell echo 'without: $(BPF_WHY)' | cmp -s - $(BPF_STAMP) || echo 'without: $(BPF_WHY)' > $(BPF_STAMP))
ifeq ($(BPF_WHY),)
BPF_SRCS := $(filter-out %.bpf.c $(BPF_DIR)/latbpf_none.c,$(wildcard $(BPF_DIR)/*.c))
USER_PKGS += libbpf
BPF_SAY :=
else
BPF_SRCS := $(BPF_DIR)/latbpf_none.c
BPF_SAY = @echo "latctl: built without the BPF backend: $(BPF_WHY)"
endif
BPF_OBJS := $(BPF_SRCS:.c=.o)

USER_OBJS += $(BPF_OBJS)
USER_SRCS += $(BPF_SRCS)	# after USER_OBJS is set: for the fuzz build
user/latctl: $(BPF_STAMP)
$(BPF_DIR)/latbpf_none.o: override CFLAGS += -DLATCTL_BPF_WHY='"$(BPF_WHY)"'
$(BPF_DIR)/latbpf_none.o: $(BPF_STAMP)

$(BPF_DIR)/vmlinux.h:
	@test -r $(VMLINUX_BTF) || { echo "bpf: no BTF at $(VMLINUX_BTF): the BPF backend needs a kernel with CONFIG_DEBUG_INFO_BTF (or VMLINUX_BTF=FILE)" >&2; exit 1; }
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

$(BPF_DIR)/latbpf.bpf.o: $(BPF_DIR)/latbpf.bpf.c $(BPF_DIR)/latbpf_follow.bpf.h $(BPF_DIR)/latbpf_irq.bpf.h $(BPF_DIR)/latbpf_sys.bpf.h $(BPF_DIR)/latbpf_steal.bpf.h $(BPF_DIR)/latbpf.h \
		include/latmon.h $(BPF_DIR)/vmlinux.h
	$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BPF_DIR)/latbpf.skel.h: $(BPF_DIR)/latbpf.bpf.o
	$(BPFTOOL) gen skeleton $< name latbpf > $@.tmp && mv $@.tmp $@

$(BPF_DIR)/latbpf.o .cache/fuzz/obj/backend/bpf/latbpf.o: $(BPF_DIR)/latbpf.skel.h

$(BPF_DIR)/%.o: $(BPF_DIR)/%.c
	$(CC) $(CFLAGS) $(USER_WERROR) $(USER_CFLAGS) -I$(BPF_DIR) -MMD -MP -MF $@.d -c -o $@ $<

-include $(BPF_OBJS:.o=.o.d)

user-clean: bpf-clean
bpf-clean: ## remove the BPF program and its skeleton
	rm -f $(BPF_DIR)/*.o $(BPF_DIR)/*.o.d $(BPF_DIR)/latbpf.skel.h $(BPF_DIR)/vmlinux.h $(BPF_STAMP)
.PHONY: bpf-clean
