# SPDX-License-Identifier: MIT
# liblatctl: the iteration markers of include/latctl.h for your own program
# (latctl run exec), as a shared library (C, and any language with a C FFI)
# and a static one. Included from user/user.mk.
MARKERS_DIR := user/markers
MARKERS_LIB := $(MARKERS_DIR)/liblatctl.so.1
MARKERS_CFLAGS := -O2 -g -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -fPIC -fvisibility=hidden

.PHONY: markers
markers: $(MARKERS_LIB) $(MARKERS_DIR)/liblatctl.so $(MARKERS_DIR)/liblatctl.a ## build the markers library (liblatctl.so)

$(MARKERS_DIR)/markers.pic.o: $(MARKERS_DIR)/markers.c include/latctl.h
	$(CC) $(MARKERS_CFLAGS) $(USER_WERROR) -c -o $@ $<

$(MARKERS_LIB): $(MARKERS_DIR)/markers.pic.o
	$(CC) -shared -Wl,-soname,liblatctl.so.1 -o $@ $< -lpthread

$(MARKERS_DIR)/liblatctl.so: $(MARKERS_LIB)
	ln -sf liblatctl.so.1 $@

$(MARKERS_DIR)/liblatctl.a: $(MARKERS_DIR)/markers.pic.o
	$(AR) rcs $@ $<
