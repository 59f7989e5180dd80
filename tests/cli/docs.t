#!/bin/bash
# SPDX-License-Identifier: MIT
# The maps follow the code: every source file of user/ is named in
# user/README.md with its folder, every file of module/ in module/README.md,
# every folder of tests/ in tests/README.md's layout; the precedence chain
# in the join's header names every event label the descriptors declare.
. "$(dirname "$0")/engine.sh"

R=$TESTS_DIR
for f in $(cd "$R/user" && find . -mindepth 2 -name '*.[ch]' ! -name '*.skel.h' ! -name vmlinux.h | sort); do
	f=${f#./}; dir=${f%%/*}; name=${f#*/}
	ok "user/README.md names $f" bash -c "grep -q '^### $dir/' '$R/user/README.md' &&
		awk -v d='### $dir/' '\$0 == d { on = 1; next } /^### / { on = 0 } on' '$R/user/README.md' | grep -qF '\`$name\`'"
done
ok "user/README.md names main.c" grep -qF '`main.c`' "$R/user/README.md"
for f in $(cd "$R/module" && find . -type f ! -name '*.o' ! -name '*.ko' ! -name '*.mod*' ! -name '.*' ! -name 'modules.order' ! -name 'Module.symvers' | sort); do
	f=${f#./}
	[ "$f" = README.md ] && continue
	ok "module/README.md names $f" grep -qF "\`$f\`" "$R/module/README.md"
done
for d in $(cd "$R" && find tests -mindepth 1 -maxdepth 2 -type d ! -path '*/corpus*' ! -path '*/bin' ! -path '*/debug-ctl' | sort); do
	ok "tests/README.md's layout names $d/" grep -Eq "^    $d/ " "$R/tests/README.md"
done
chain=$(sed -n '/^ \* Net time:/,/under "incomplete" only/p' "$R/user/join/join.h")
for l in $(cd "$R/user/events" && grep -ho '\.id = JOIN_[A-Z_]*, \.name = "[a-z-]*"' ev_*.c label.c | cut -d'"' -f2 | sort -u); do
	ok "the join's header names label $l in its precedence" \
		bash -c "printf '%s\n' \"\$1\" | grep -Eq '(^|[^a-z-])$l([^a-z-]|\$)'" _ "$chain"
done
# a file renamed or moved leaves no old name in a comment
ok "no comment names a .c or .h file the tree does not have" bash -c "cd '$R' && scripts/dev/stale-names.pl"
# make help: every target a makefile declares, one line each
help=$(make -s -C "$R" --no-print-directory help)
for t in $(cd "$R" && grep -h '^\.PHONY:' Makefile scripts/mk/*.mk tests/tests.mk tests/fuzz/fuzz.mk \
		user/user.mk user/markers/markers.mk user/backend/bpf/bpf.mk | sed 's/^\.PHONY://' | tr ' ' '\n' | sort -u); do
	ok "make help lists $t" bash -c "printf '%s\n' \"\$1\" | grep -Eq '^  make $t +[^ ]'" _ "$help"
done
done_testing
