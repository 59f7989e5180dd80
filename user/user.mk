# SPDX-License-Identifier: MIT
# latctl, the user-space controller. Included by the top Makefile.
# The layers of user/, lowest first: a file of user/LAYER/ includes headers
# of its own folder and of the folders before it only (user/main.c: any).
# tests/cli/layers.t checks it with scripts/dev/layers.pl.
USER_LAYERS := lib stats file settings system events workload join backend machine doc compare report plot export run cmd
# Libraries built beside latctl, not into it (lowest layer: include/ only).
USER_LIB_LAYERS := markers
USER_SRCS := user/main.c $(foreach d,$(USER_LAYERS),$(wildcard user/$(d)/*.c))
USER_OBJS := $(USER_SRCS:.c=.o)
USER_PKGS := libnl-genl-3.0 libcjson zlib
USER_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(USER_PKGS))
USER_LIBS = $(shell $(PKG_CONFIG) --libs $(USER_PKGS)) -lm
# LATCTL_WERROR=1 (.ci/run sets it): a warning in user/ fails the build.
USER_WERROR := $(if $(filter 1,$(LATCTL_WERROR)),-Werror)
include user/backend/bpf/bpf.mk
include user/markers/markers.mk

.PHONY: user user-clean layers

# The layer rule, the include and call circles, as tests/cli/layers.t checks them.
layers: user/latctl ## the layer rule and the include and call circles, module too (as layers.t)
	@scripts/dev/layers.pl user $(USER_LIB_LAYERS) $(USER_LAYERS) && scripts/dev/layers.pl module
	@scripts/dev/call-circles.sh $(USER_OBJS)
	@m=$$(ls -d build/vm/*/src/module 2>/dev/null | sort -V | tail -n 1); \
	if [ -n "$$m" ]; then scripts/dev/call-circles.sh $$(ls $$m/*.o $$m/sources/*.o | grep -v -e '/latmon\.o$$' -e '\.mod\.o$$'); \
	else echo "module: not built for a test-bed kernel (make vm-modules): its call circles not checked"; fi

user: user/latctl markers ## build user/latctl and the markers library

user/latctl: $(USER_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(USER_OBJS) $(USER_LIBS)
	$(BPF_SAY)

user/%.o: user/%.c
	$(CC) $(CFLAGS) $(USER_WERROR) $(USER_CFLAGS) -MMD -MP -MF $@.d -c -o $@ $<

-include $(USER_OBJS:.o=.o.d)

# The main job: grow with huge pages on, on this machine with latmon when it
# can load the module, else in the QEMU test bed (scripts/make-run.sh says
# which and why). Extra latctl options: make run RUN_ARGS='--iters 100000'.
run: ## set up what is missing, build, run the main job (README)
	@scripts/make-run.sh $(RUN_ARGS)

user-clean: ## remove user/latctl and its objects
	rm -f user/latctl user/*.o user/*.o.d user/*/*.o user/*/*.o.d user/markers/liblatctl.*
