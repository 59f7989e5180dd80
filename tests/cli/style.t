#!/bin/bash
# SPDX-License-Identifier: MIT
# make style's checks on this tree (shellcheck on the scripts, checkpatch
# --strict on module/, .clang-format on the lines of user/ a change
# touches), each a skip with its reason where its tool is missing; and each
# check fails on a small tree that breaks it, and skips, not fails, when
# its tool is missing.
. "$(dirname "$0")/engine.sh"

S=$TESTS_DIR/scripts/dev/style.sh

# NAME: the check on this tree; a skip (77) is a TAP skip with the reason.
on_tree() {
	local out rc
	out=$("$S" "$1" 2>&1)
	rc=$?
	if [ $rc = 77 ]; then
		_n=$((_n + 1))
		echo "ok $_n - $1 on this tree # SKIP $(printf '%s\n' "$out" | tail -n1)"
		return
	fi
	_report "$([ $rc = 0 ] && echo 1 || echo 0)" "$1 on this tree: $(printf '%s\n' "$out" | tail -n1)" \
		"exit $rc" "$(printf '%s\n' "$out" | tail -n 20)"
}
for c in shellcheck checkpatch clang-format; do
	on_tree "$c"
done

# A small git tree for each check to fail on.
T=$TMPD/tree
mkdir -p "$T/user" "$T/module" "$T/.ci"
cp "$TESTS_DIR/.clang-format" "$T/"
printf '#!/bin/bash\nfor i in 1 2; do echo hi; done\n' > "$T/bad.sh"
printf 'int f(void)\n{\n\treturn 0;\n}\n' > "$T/user/a.c"
printf '// SPDX-License-Identifier: GPL-2.0\nint g(void)\n{\n\treturn 0;\n}\n' > "$T/module/m.c"
git -C "$T" init -q && git -C "$T" add -A &&
	git -C "$T" -c user.name=t -c user.email=t@example.org commit -qm tree
export STYLE_ROOT=$T
if command -v shellcheck >/dev/null; then
	check "shellcheck: an unused loop variable fails" "'$S' shellcheck" 1 \
		'^bad.sh:2:1: warning: i appears unused'
else
	ok "shellcheck: an unused loop variable fails # SKIP shellcheck is not installed" true
fi
if command -v clang-format-diff >/dev/null || command -v clang-format-diff-14 >/dev/null; then
	check "clang-format: an unchanged tree passes" "'$S' clang-format" 0 '0 changed lines of user/'
	printf 'int f(void)\n{\n\treturn 0;\n}\nint  h( int x ){ return x; }\n' > "$T/user/a.c"
	check "clang-format: a changed line out of style fails" "'$S' clang-format" 1 \
		'^\+int h\(int x\)$'
	git -C "$T" checkout -q user/a.c
else
	ok "clang-format: a changed line out of style fails # SKIP clang-format is not installed" true
fi
if cp=$("$TESTS_DIR/scripts/dev/checkpatch-get.sh" 2>/dev/null); then
	printf 'int g(void)\n{\n\tif (1) { return 0; }\n\treturn 0;\n}\n' > "$T/module/m.c"
	check "checkpatch: a module file without SPDX and with braces fails" \
		"CHECKPATCH='$cp' '$S' checkpatch" 1 'module/m.c:1: WARNING:SPDX_LICENSE_TAG'
else
	ok "checkpatch: a bad module file fails # SKIP no checkpatch.pl to be had" true
fi
check "a missing tool skips with its reason, it does not fail" \
	"PATH=/nonexistent /bin/bash '$S' shellcheck" 77 'style: shellcheck: skipped: shellcheck is not installed'
check_err "an unknown check is refused" "'$S' lint" 2 "style: unknown check 'lint'"
done_testing
