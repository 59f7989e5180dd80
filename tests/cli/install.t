#!/bin/bash
# SPDX-License-Identifier: MIT
# make install / uninstall into a DESTDIR: every file in its place, the
# installed latctl runs and finds its test bed; make dkms-install: the module
# source with its dkms.conf, built by DKMS itself against Debian's 6.12
# headers (a private DKMS tree), and that module loads in the 6.12 VM.
. "$(dirname "$0")/engine.sh"

D=$TMPD/root
# (a make of its own, as fuzz.t: not the jobserver of the make check that runs us)
MK="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C $TESTS_DIR"
VERSION=$(sed -n 's/^#define LATMON_MODULE_VERSION[^"]*"\(.*\)"/\1/p' "$TESTS_DIR/module/latmon.h")
check "make install DESTDIR PREFIX=/usr" "$MK install DESTDIR=$D PREFIX=/usr" 0 ''
for f in bin/latctl share/man/man8/latctl.8 share/man/man8/latctl-run.8 share/man/man8/latctl-check.8 \
	 share/man/man5/latctl-result.5 share/man/man4/latmon.4 \
	 share/man/man7/latctl-lab.7 \
	 share/bash-completion/completions/latctl lib/latctl/Makefile lib/latctl/Kbuild \
	 lib/latctl/scripts/testbed/vm-run.sh lib/latctl/module/main.c lib/latctl/include/latmon.h \
	 lib/latctl/user/main.c lib/latctl/tests/vm/suite.sh lib/latctl/tests/cli/engine.sh \
	 include/latctl.h lib/liblatctl.so.1 lib/liblatctl.a lib/pkgconfig/latctl.pc \
	 share/man/man3/latctl-markers.3 lib/latctl/include/latctl.h; do
	ok "installed: /usr/$f" test -s "$D/usr/$f"
done
ok "latctl and the scripts are executable, the pages are not" \
	bash -c "test -x '$D/usr/bin/latctl' -a -x '$D/usr/lib/latctl/scripts/testbed/vm-run.sh' -a ! -x '$D/usr/share/man/man8/latctl.8'"
ok "the man pages carry the version ($VERSION)" \
	bash -c "grep -q 'latctl $VERSION' '$D/usr/share/man/man8/latctl.8' && ! grep -rq '@VERSION@' '$D/usr/share/man'"
I=$D/usr/bin/latctl
check "the installed latctl --version" "$I --version" 0 "^latctl $VERSION \(latmon UAPI [0-9]+\)$"
check "the installed latctl runs a workload" "$I run grow --iters 20000 --slow 1us" 0 '^push \(ns\) '
check "the installed latctl finds its test bed (doctor)" "$I doctor" 0 \
	"^ok    vm +test bed at $D/usr/lib/latctl/scripts/testbed; QEMU"
if command -v man >/dev/null; then
	check "man renders the installed latctl(8)" \
		"LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l $D/usr/share/man/man8/latctl.8 2>&1" 0 '^LATCTL\(8\)'
	check "... and a command's own page, latctl-run(8)" \
		"LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l $D/usr/share/man/man8/latctl-run.8 2>&1" 0 '^LATCTL-RUN\(8\)'
fi
comp() {	# words...: what the completion offers for the last one
	PATH=$D/usr/bin:$PATH bash -c ". '$D/usr/share/bash-completion/completions/latctl'
		COMP_WORDS=($*); COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1)); _latctl; echo \${COMPREPLY[*]}"
}
ok "completion: the commands" bash -c "[[ '$(comp latctl "''")' == *'plot'*'doctor'*'latmon'* ]]"
ok "completion: the workloads of run" test "$(comp latctl run "''")" = "grow chase request alloc mmap file exec"
ok "completion: the options of run, from its table" bash -c "[[ '$(comp latctl run grow --th)' == '--thp --thp-size --threads' ]]"
ok "completion: the kernels of --kernel" test "$(comp latctl run grow --kernel "''")" = "6.1 6.12 7.3"
ok "completion: the options of compare, from its table" test "$(comp latctl compare --s)" = "--strict"
ok "completion: the options of check, from its table" test "$(comp latctl check --m)" = "--max --metric"
ok "completion: a workload's own option, from the workload's table" test "$(comp latctl run mmap --pro)" = "--procs"
ok "completion: the causes of --metric count:" \
	bash -c "[[ '$(comp latctl check --metric count:f)' == 'count:fault' ]]"
ok "completion: the subcommands of latmon, then record's options" \
	bash -c "[ '$(comp latctl latmon "''")' = 'info stats record help' ] && [ '$(comp latctl latmon record --s)' = '--sources' ]"
ok "completion: the sources of latmon record --sources" \
	bash -c "[[ '$(comp latctl latmon record --sources "''")' == 'fault thp-clear '*' wait' ]]"
ok "completion: after the workload, run's options" bash -c "[[ '$(comp latctl run grow "''")' == '--backend --cpu '* ]]"
# Your own program against the installed markers, found by pkg-config.
if command -v pkg-config > /dev/null; then
	PC="PKG_CONFIG_SYSROOT_DIR=$D PKG_CONFIG_PATH=$D/usr/lib/pkgconfig pkg-config"
	check "pkg-config knows latctl ($VERSION)" "$PC --modversion latctl" 0 "^$VERSION\$"
	check "the C example builds against the installed header and library" \
		"cc -O2 -o $TMPD/loop $TESTS_DIR/user/markers/examples/loop.c \$($PC --cflags --libs latctl) -Wl,-rpath,$D/usr/lib" 0 ''
	check "... and runs outside latctl, the markers doing nothing" "$TMPD/loop" 0 '^touched 20000 pages'
	check "... and under the installed latctl" "$I run exec -q --json $TMPD/loop.json -- $TMPD/loop" 0 '^touched 20000 pages'
	ok "... 20000 marked iterations" test "$(json_get $TMPD/loop.json run iterations)" = 20000
fi
check "make uninstall" "$MK uninstall DESTDIR=$D PREFIX=/usr" 0 ''
ok "nothing left but directories" test -z "$(find "$D" -type f -o -type l)"

S=$D/usr/src/latmon-$VERSION
check "make dkms-install DESTDIR" "$MK dkms-install DESTDIR=$D" 0 ''
for f in dkms.conf Kbuild module/Kbuild module/main.c module/compat.h include/latmon.h; do
	ok "DKMS source: /usr/src/latmon-$VERSION/$f" test -s "$S/$f"
done
ok "dkms.conf names latmon $VERSION, built in module/" \
	bash -c "grep -qx 'PACKAGE_VERSION=\"$VERSION\"' '$S/dkms.conf' && grep -qx 'BUILT_MODULE_LOCATION\[0\]=\"module/\"' '$S/dkms.conf' && grep -qx 'AUTOINSTALL=\"yes\"' '$S/dkms.conf'"
ok "no build products in the DKMS source" test -z "$(find "$S" -name '*.o' -o -name '*.ko' -o -name '*.mod.c')"

if ! command -v dkms >/dev/null; then
	skip_rest="dkms is not installed"
elif ! KDIR=$("$TESTS_DIR/scripts/testbed/kernel-fetch.sh" 6.12 2>/dev/null) ||
     ! REL=$("$TESTS_DIR/scripts/testbed/kernel-fetch.sh" --release 6.12 2>/dev/null); then
	skip_rest="Debian's 6.12 headers cannot be fetched"
fi
if [ -z "${skip_rest:-}" ]; then
	T=(--sourcetree "$D/usr/src" --dkmstree "$TMPD/dkms")
	mkdir -p "$TMPD/dkms"
	check "dkms add (private tree)" "dkms add -m latmon -v $VERSION ${T[*]}" 0 ''
	check "dkms build against Debian's $REL" \
		"dkms build -m latmon -v $VERSION -k $REL --kernelsourcedir $KDIR ${T[*]}" 0 ''
	# DKMS compresses the module where the kernel's config asks (Debian's:
	# CONFIG_MODULE_COMPRESS_XZ, on a box with that kernel installed)
	KO=$(ls "$TMPD/dkms/latmon/$VERSION/$REL/x86_64/module/"latmon.ko* 2>/dev/null | head -n1)
	ok "DKMS built latmon.ko for $REL (${KO##*/})" \
		bash -c "modinfo -F vermagic '$KO' | grep -q '^$REL ' && test \"\$(modinfo -F version '$KO')\" = '$VERSION'"
	LOAD=$KO
	case $KO in
	*.xz) LOAD=$TMPD/latmon.ko; xz -dc "$KO" > "$LOAD" ;;
	*.zst) LOAD=$TMPD/latmon.ko; zstd -qdc "$KO" > "$LOAD" ;;
	esac
	if [ -e "$TESTS_DIR/build/vm/6.12/initramfs.cpio.gz" ]; then
		check "the DKMS-built module loads in the 6.12 VM and answers latctl latmon info" \
			"LATMON_VM_APPEND= $TESTS_DIR/scripts/testbed/vm-run.sh --kernel 6.12 --timeout 300 --in $LOAD -- sh -c 'insmod /in/latmon.ko && latctl latmon info'" \
			0 "^latmon $VERSION \(UAPI 1\) on $(printf '%s' "$REL" | sed 's/[.+]/\\&/g'), tsc_khz"
	fi
else
	echo "# DKMS build not tested: $skip_rest"
fi
check "make dkms-uninstall DESTDIR" "$MK dkms-uninstall DESTDIR=$D" 0 ''
ok "the DKMS source is gone" test ! -e "$S"
done_testing
