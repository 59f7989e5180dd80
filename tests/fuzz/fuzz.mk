# SPDX-License-Identifier: MIT
# libFuzzer targets (clang, ASan, UBSan), one per parser of untrusted input:
#   fuzz_result  the JSON result reader of `latctl report`
#   fuzz_events  latmon's event records through the join (lat_causes_add)
#   fuzz_nl      the GET_INFO / GET_STATS reply handlers of latmon_nl
#   fuzz_opts    the count, duration and threshold parsers, lat_opts_parse
#   fuzz_plot    the result reader and SVG drawer of `latctl plot`
#   fuzz_compare the run reader of compare and check (lat_runs_read) and their printers
# Built with their own instrumented copy of the latctl objects under
# .cache/fuzz/. `make fuzz` runs each for FUZZ_SECONDS, one at a time, each
# one process (no -jobs: -jobs=1 only adds a child and a fuzz-0.log in the
# working directory), on its seed corpus tests/fuzz/corpus/<target>/; new inputs and
# crash reproducers go to .cache/fuzz/. tests/fuzz/fuzz.t (in `make check`)
# runs each briefly.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_OUT := .cache/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -g -O1 -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -Iuser $(FUZZ_SAN)
FUZZ_NAMES := fuzz_result fuzz_events fuzz_nl fuzz_opts fuzz_plot fuzz_compare
FUZZ_BINS := $(addprefix $(FUZZ_OUT)/,$(FUZZ_NAMES))
FUZZ_OBJS := $(patsubst user/%.c,$(FUZZ_OUT)/obj/%.o,$(filter-out user/main.c,$(USER_SRCS)))
FUZZ_LIB := $(FUZZ_OUT)/liblatctl-fuzz.a

CLI_TESTS += tests/fuzz/fuzz.t
CHECK_BUILD += $(FUZZ_BINS)

.PHONY: fuzz fuzz-build fuzz-clean
fuzz-build: $(FUZZ_BINS) ## build the fuzzers

$(FUZZ_OUT)/obj/%.o: user/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(USER_CFLAGS) -MMD -MP -MF $@.d -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_OUT)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) tests/unit/key_delete.h $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(USER_CFLAGS) -o $@ $< $(FUZZ_LIB) $(USER_LIBS)

-include $(FUZZ_OBJS:.o=.o.d)

# latctl itself from the same instrumented objects: tests/cli/compare.t runs
# its compare and check commands with it (LATCTL_ASAN), so that a memory
# error there fails make check.
LATCTL_ASAN := $(FUZZ_OUT)/latctl-asan
CHECK_BUILD += $(LATCTL_ASAN)
$(LATCTL_ASAN): user/main.c $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DLATCTL_VERSION='"$(VERSION)"' $(USER_CFLAGS) -o $@ user/main.c \
		$(FUZZ_LIB) $(USER_LIBS)

# One fuzzer at a time, FUZZ_SECONDS each; the line "fuzz_x: N executions"
# per target is what the README quotes.
fuzz: $(FUZZ_BINS) ## each fuzzer FUZZ_SECONDS (libFuzzer)
	@for t in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_OUT)/new/$$t $(FUZZ_OUT)/crash/$$t || exit 1; \
		$(FUZZ_OUT)/$$t -max_total_time=$(FUZZ_SECONDS) \
			-close_fd_mask=3 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_OUT)/crash/$$t/ \
			$(FUZZ_OUT)/new/$$t tests/fuzz/corpus/$$t \
			>$(FUZZ_OUT)/$$t.log 2>&1; rc=$$?; \
		echo "$$t: $$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_OUT)/$$t.log) executions in $(FUZZ_SECONDS) s, exit $$rc"; \
		[ $$rc -eq 0 ] || { tail -40 $(FUZZ_OUT)/$$t.log; exit 1; }; \
	done

fuzz-clean: ## remove the fuzzers
	rm -rf $(FUZZ_OUT)/obj $(FUZZ_LIB) $(FUZZ_BINS)

clean: fuzz-clean
