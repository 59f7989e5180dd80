# SPDX-License-Identifier: MIT
# Installation. Included by the top Makefile.
#
#   make install [PREFIX=/usr/local] [DESTDIR=]    latctl, man pages, bash
#        completion, the QEMU test bed (PREFIX/lib/latctl) for --vm, and the
#        markers for your own program: latctl.h, liblatctl, latctl.pc
#   make uninstall                                 removes exactly those
#   make dkms-install [DESTDIR=]   the module source in /usr/src/latmon-VERSION
#        with its dkms.conf; without DESTDIR also `dkms add`, so DKMS builds
#        latmon for every kernel installed from now on
#   make dkms-uninstall            `dkms remove` and the source
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
COMPDIR ?= $(PREFIX)/share/bash-completion/completions
INCDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
PCDIR ?= $(LIBDIR)/pkgconfig
# The test bed is built from this copy of the sources (make -C it
# vm-initramfs): latctl --vm finds it at ../lib/latctl from its binary.
TESTBEDDIR ?= $(PREFIX)/lib/latctl
DKMSDIR ?= /usr/src/latmon-$(VERSION)
INSTALL ?= install

MAN_PAGES := user/latctl.8 $(wildcard user/latctl-*.8) user/latctl-result.5 user/latctl-lab.7 module/latmon.4 \
	user/markers/latctl-markers.3
MODULE_SRC := Kbuild module/Kbuild $(filter-out %.mod.c,$(wildcard module/*.[ch] module/sources/*.[ch])) \
	$(filter-out include/latctl.h,$(wildcard include/*.h))
TESTBED_SRC := Makefile LICENSE $(MODULE_SRC) include/latctl.h user/user.mk user/markers/markers.mk \
	$(wildcard user/*.[ch] user/*/*.[ch]) \
	user/backend/bpf/bpf.mk $(filter-out %/vmlinux.h %/latbpf.skel.h,$(wildcard user/backend/bpf/*.[ch])) \
	tests/tests.mk tests/fuzz/fuzz.mk $(wildcard tests/vm/prog/*.[ch] tests/vm/*.sh tests/vm/*.t) \
	$(wildcard tests/vm/prog/debug-ctl/*) tests/cli/engine.sh $(wildcard scripts/*.sh scripts/*/*) \
	$(wildcard tests/bench/guest/*.sh)

.PHONY: install uninstall dkms-install dkms-uninstall

install: user/latctl markers ## latctl, man pages, completion, test bed (PREFIX, DESTDIR)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man4 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(COMPDIR) \
		$(DESTDIR)$(INCDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR)
	$(INSTALL) -m 755 user/latctl $(DESTDIR)$(BINDIR)/latctl
	@for m in $(MAN_PAGES); do \
		d=$(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; \
		echo "  MAN $$d"; sed 's/@VERSION@/$(VERSION)/' $$m > $$d && chmod 644 $$d || exit 1; \
	done
	$(INSTALL) -m 644 user/latctl.bash-completion $(DESTDIR)$(COMPDIR)/latctl
	$(INSTALL) -m 644 include/latctl.h $(DESTDIR)$(INCDIR)/latctl.h
	$(INSTALL) -m 755 $(MARKERS_LIB) $(DESTDIR)$(LIBDIR)/liblatctl.so.1
	ln -sf liblatctl.so.1 $(DESTDIR)$(LIBDIR)/liblatctl.so
	$(INSTALL) -m 644 $(MARKERS_DIR)/liblatctl.a $(DESTDIR)$(LIBDIR)/liblatctl.a
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@INCDIR@|$(INCDIR)|; s|@LIBDIR@|$(LIBDIR)|; s|@VERSION@|$(VERSION)|' \
		$(MARKERS_DIR)/latctl.pc.in > $(DESTDIR)$(PCDIR)/latctl.pc
	-[ -n "$(DESTDIR)" ] || ldconfig
	@for f in $(TESTBED_SRC); do \
		$(INSTALL) -D -m $$(test -x $$f && echo 755 || echo 644) $$f $(DESTDIR)$(TESTBEDDIR)/$$f || exit 1; \
	done

uninstall: ## remove exactly what install put there
	rm -f $(DESTDIR)$(BINDIR)/latctl $(DESTDIR)$(MANDIR)/man8/latctl.8 \
		$(patsubst user/%,$(DESTDIR)$(MANDIR)/man8/%,$(wildcard user/latctl-*.8)) \
		$(DESTDIR)$(MANDIR)/man5/latctl-result.5 $(DESTDIR)$(MANDIR)/man4/latmon.4 \
		$(DESTDIR)$(MANDIR)/man7/latctl-lab.7 $(DESTDIR)$(COMPDIR)/latctl $(DESTDIR)$(MANDIR)/man3/latctl-markers.3 \
		$(DESTDIR)$(INCDIR)/latctl.h $(DESTDIR)$(LIBDIR)/liblatctl.so.1 $(DESTDIR)$(LIBDIR)/liblatctl.so \
		$(DESTDIR)$(LIBDIR)/liblatctl.a $(DESTDIR)$(PCDIR)/latctl.pc
	rm -rf $(DESTDIR)$(TESTBEDDIR)

dkms-install: ## the module source in /usr/src/latmon-VERSION, built by DKMS
	@for f in $(MODULE_SRC); do \
		$(INSTALL) -D -m 644 $$f $(DESTDIR)$(DKMSDIR)/$$f || exit 1; \
	done
	sed 's/@VERSION@/$(VERSION)/' scripts/mk/dkms.conf.in > $(DESTDIR)$(DKMSDIR)/dkms.conf
	@if [ -z "$(DESTDIR)" ]; then \
		echo "dkms add -m latmon -v $(VERSION)"; dkms add -m latmon -v $(VERSION) || exit 1; \
	fi

dkms-uninstall: ## dkms remove and the source
	-[ -n "$(DESTDIR)" ] || dkms remove -m latmon -v $(VERSION) --all
	rm -rf $(DESTDIR)$(DKMSDIR)
