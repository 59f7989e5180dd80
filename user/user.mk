# SPDX-License-Identifier: MIT
# latctl, the user-space controller. Included by the top Makefile.
USER_SRCS := $(wildcard user/*.c)
USER_OBJS := $(USER_SRCS:.c=.o)
USER_PKGS := libnl-genl-3.0 libcjson
USER_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(USER_PKGS))
USER_LIBS = $(shell $(PKG_CONFIG) --libs $(USER_PKGS)) -lm

.PHONY: user user-clean

user: user/latctl

user/latctl: $(USER_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(USER_LIBS)

user/%.o: user/%.c
	$(CC) $(CFLAGS) $(USER_CFLAGS) -MMD -MP -MF $@.d -c -o $@ $<

-include $(USER_OBJS:.o=.o.d)

# The main job for now: grow with huge pages on (root), on the host.
run: user/latctl
	user/latctl run grow --thp always

user-clean:
	rm -f user/latctl user/*.o user/*.o.d
