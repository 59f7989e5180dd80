# SPDX-License-Identifier: MIT
# Unit tests (cmocka, TAP output) and command-line tests (TAP shell scripts).
# Each unit test links the latctl objects it needs from an archive.
# The BPF backend's own tests need it built in (user/backend/bpf/bpf.mk).
UNIT_SRCS := $(filter-out $(if $(BPF_WHY),tests/unit/test_bpf_%),$(wildcard tests/unit/test_*.c))
UNIT_TESTS := $(UNIT_SRCS:.c=)
CLI_TESTS := $(sort $(wildcard tests/cli/*.t))
FAULT_TESTS := $(sort $(wildcard tests/fault/*.t))
CHECK_BUILD := $(UNIT_TESTS)
include tests/fuzz/fuzz.mk

# named test_* so that .gitignore covers it
UNIT_LIB := tests/unit/test_liblatctl.a

.PHONY: tests tests-clean
tests: $(UNIT_TESTS) ## build the unit tests

$(UNIT_LIB): $(filter-out user/main.o,$(USER_OBJS))
	rm -f $@
	$(AR) rcs $@ $^

tests/unit/test_%: tests/unit/test_%.c $(UNIT_LIB)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -o $@ $< $(UNIT_LIB) $(USER_LIBS) -lcmocka

tests-clean: ## remove the unit tests
	rm -f $(UNIT_TESTS) $(UNIT_LIB)
	rm -rf tests/exec/bin

# Programs the exec workload's tests run (tests/exec/), built against the
# markers library of this tree.
EXEC_PROGS := tests/exec/bin/markers_prog tests/exec/bin/calls
CHECK_BUILD += $(EXEC_PROGS)

tests/exec/bin/markers_prog: tests/exec/markers_prog.c include/latctl.h $(MARKERS_LIB) $(MARKERS_DIR)/liblatctl.so
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Iinclude -o $@ $< -L$(MARKERS_DIR) -llatctl -lpthread -Wl,-rpath,'$$ORIGIN/../../../$(MARKERS_DIR)'

tests/exec/bin/calls: tests/exec/calls.c
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -o $@ $<

# The tests that judge real runs, SOAK_N times beside a busy loop per core
# (scripts/dev/soak.sh): about 3 minutes a pass on 2 cores.
SOAK_N ?= 20
.PHONY: check-soak
check-soak: user $(EXEC_PROGS) ## the tests that judge real runs, SOAK_N times beside a busy loop
	scripts/dev/soak.sh -n $(SOAK_N)
