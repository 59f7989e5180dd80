#!/bin/bash
# SPDX-License-Identifier: MIT
# The layering of user/ and module/ as the READMEs state it: a folder of
# user/ includes only its own headers and those of the layers below it (the
# order in user/user.mk), no include circle between files, no two files
# calling each other's functions, every function
# declared in the folder that defines it, no .c file directly in user/ but
# main.c; and the checker itself refuses a tree that breaks each rule. A
# folder over 20 files or a file over 600 lines is a warning (a '#' line).
. "$(dirname "$0")/engine.sh"

command -v perl >/dev/null || skip_all "perl is not installed; scripts/deps.sh installs it"
R=$TESTS_DIR
CHK=$R/scripts/dev/layers.pl
LAYERS="$(sed -n 's/^USER_LIB_LAYERS := //p' "$R/user/user.mk") $(sed -n 's/^USER_LAYERS := //p' "$R/user/user.mk")"
ok "user/user.mk names the layers" test -n "$LAYERS"
check "user/: no include upward, no circle, functions where declared" \
	"cd '$R' && '$CHK' user $LAYERS" 0 '^user: [0-9]+ files, no include circle'
check "module/: no include circle" "cd '$R' && '$CHK' module" 0 '^module: [0-9]+ files, no include circle'
for d in "$R"/user/*/; do
	name=${d%/}; name=${name##*/}
	ok "user/$name is a layer of the rule" bash -c "printf '%s\n' $LAYERS | grep -qx '$name'"
done
ok "no .c file directly in user/ but main.c" \
	bash -c "[ \"\$(cd '$R/user' && ls *.c)\" = main.c ]"
for d in $(cd "$R" && find user module -type d); do
	n=$(find "$R/$d" -maxdepth 1 -type f -name '*.[ch]' ! -name '*.skel.h' ! -name vmlinux.h ! -name '*.mod.c' | wc -l)
	# a warning, not a failure: a folder is split at a seam, not by count
	[ "$n" -le 20 ] || echo "# warning: $d holds $n source files (over 20: look for a seam)"
done
(cd "$R" && find user module include -name '*.[ch]' ! -name '*.skel.h' ! -name vmlinux.h ! -name '*.mod.c' \
	-exec awk 'END { if (NR > 600) print "# warning: " FILENAME ": " NR " lines (over 600)" }' {} \;)

# No two objects of latctl call each other's functions (split at a seam).
CALLS=$R/scripts/dev/call-circles.sh
if [ -x "$R/user/latctl" ]; then
	check "user/: no two files call each other" \
		"cd '$R' && '$CALLS' \$(find user -name '*.o' ! -path 'user/markers/*')" 0 'objects, no call circle'
else
	ok "user/: no two files call each other # SKIP user/latctl is not built" true
fi
# ... nor two of latmon's (the objects of the newest test-bed kernel's build).
MOD=$(ls -d "$R"/build/vm/*/src/module 2>/dev/null | sort -V | tail -n 1)
if [ -n "$MOD" ] && ls "$MOD"/*.o >/dev/null 2>&1; then
	check "module/: no two files call each other (${MOD#"$R"/})" \
		"'$CALLS' \$(ls '$MOD'/*.o '$MOD'/sources/*.o | grep -v -e '/latmon\.o\$' -e '\.mod\.o\$')" 0 'objects, no call circle'
else
	ok "module/: no two files call each other # SKIP latmon is not built for a test-bed kernel (make vm-modules)" true
fi
mkdir -p "$TMPD/calls"
printf 'int g(void);\nint f(void)\n{\n\treturn g();\n}\n' > "$TMPD/calls/f.c"
printf 'int f(void);\nint g(void)\n{\n\treturn 0;\n}\nint h(void)\n{\n\treturn f();\n}\n' > "$TMPD/calls/g.c"
(cd "$TMPD/calls" && cc -c f.c g.c)
check "two files calling each other fail" "cd '$TMPD/calls' && '$CALLS' f.o g.o" 1 \
	'call circle: f.o <-> g.o \(f.o calls g, g.o calls f\)'

# The checker fails on each fault, so the checks above can fail.
fake() {	# dir files... : a tiny user tree
	rm -rf "${TMPD:?}/$1"; mkdir -p "$TMPD/$1/lo" "$TMPD/$1/hi"
	printf '#include "lo/a.h"\nint b(void);\n' > "$TMPD/$1/hi/b.h"
	printf 'int a(void);\n' > "$TMPD/$1/lo/a.h"
	printf '#include "lo/a.h"\nint a(void)\n{\n\treturn 0;\n}\n' > "$TMPD/$1/lo/a.c"
	printf '#include "hi/b.h"\nint b(void)\n{\n\treturn a();\n}\n' > "$TMPD/$1/hi/b.c"
}
fake good
check "a tree that keeps the rule passes" "cd '$TMPD' && '$CHK' good lo hi" 0 'no include circle'
fake up
printf '#include "hi/b.h"\nint a(void);\n' > "$TMPD/up/lo/a.h"
check "an include of a higher layer fails" "cd '$TMPD' && '$CHK' up lo hi" 1 "layer 'lo' may not include 'hi'"
fake circle
printf '#include "lo/c.h"\nint a(void);\n' > "$TMPD/circle/lo/a.h"
printf '#include "lo/a.h"\nint c(void);\n' > "$TMPD/circle/lo/c.h"
check "a circle of two files fails" "cd '$TMPD' && '$CHK' circle lo hi" 1 'include circle: lo/a -> lo/c -> lo/a'
fake decl
printf 'int a(void);\nint b(void);\n' > "$TMPD/decl/lo/a.h"
check "a header declaring another folder's function fails" "cd '$TMPD' && '$CHK' decl lo hi" 1 \
	'lo/a.h declares b, defined in decl/hi/b.c'
done_testing
