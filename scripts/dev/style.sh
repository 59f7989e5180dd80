#!/bin/bash
# SPDX-License-Identifier: MIT
# The style checks of make style, one per argument (all three without):
#   - shellcheck: shellcheck -S warning on the scripts and test scripts
#   - checkpatch: the kernel's checkpatch.pl --strict on module/
#   - clang-format: .clang-format on the lines of user/ a change touches
#     (against STYLE_BASE: the upstream branch, else HEAD)
# Each says what it checked; exit 0 clean, 1 with notes (printed), 77 when
# its tool is missing or cannot be had (the line says why): a missing tool
# skips, it never fails.
#   scripts/dev/style.sh [shellcheck|checkpatch|clang-format]...
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# STYLE_ROOT: another tree to check (the tests give a small one)
ROOT=${STYLE_ROOT:-$(cd "$HERE/../.." && pwd)}
SKIP=77

skip() { echo "style: $1: skipped: $2"; return $SKIP; }

# The shell scripts git knows: *.sh, the *.t tests, .ci/run.
sh_files() { git -C "$ROOT" ls-files | grep -E '\.sh$|\.t$|^\.ci/run$'; }

check_shellcheck() {
	local n out
	command -v shellcheck >/dev/null || { skip shellcheck "shellcheck is not installed (scripts/deps.sh installs it)"; return; }
	n=$(sh_files | wc -l)
	out=$(cd "$ROOT" && sh_files | xargs shellcheck -S warning -f gcc 2>&1)
	[ -z "$out" ] && { echo "style: shellcheck: $n scripts, no warning"; return 0; }
	printf '%s\n' "$out"
	echo "style: shellcheck: $(printf '%s\n' "$out" | wc -l) notes in $n scripts"
	return 1
}

check_checkpatch() {
	local cp out files
	command -v perl >/dev/null || { skip checkpatch "perl is not installed"; return; }
	cp=$("$HERE/checkpatch-get.sh" 2>&1) || { skip checkpatch "${cp#checkpatch-get: }"; return; }
	files=$(cd "$ROOT" && git ls-files 'module/*.c' 'module/*.h')
	# shellcheck disable=SC2086 # file names without spaces, one word each
	out=$(cd "$ROOT" && perl "$cp" --no-tree --strict --terse --show-types -q -f $files 2>&1 |
		grep -v '^total: ')
	[ -z "$out" ] && { echo "style: checkpatch --strict: $(echo "$files" | wc -w) files of module/, clean"; return 0; }
	printf '%s\n' "$out"
	echo "style: checkpatch --strict: $(printf '%s\n' "$out" | wc -l) notes in module/"
	return 1
}

style_base() {
	[ -n "${STYLE_BASE:-}" ] && { echo "$STYLE_BASE"; return; }
	git -C "$ROOT" rev-parse -q --verify '@{upstream}' >/dev/null 2>&1 &&
		{ git -C "$ROOT" merge-base HEAD '@{upstream}'; return; }
	echo HEAD
}

check_clang_format() {
	local fmt base out lines
	fmt=$(command -v clang-format-diff || command -v clang-format-diff-14 || true)
	[ -n "$fmt" ] && command -v clang-format >/dev/null ||
		{ skip clang-format "clang-format is not installed (scripts/deps.sh installs it)"; return; }
	base=$(style_base)
	lines=$(git -C "$ROOT" diff -U0 --no-color "$base" -- 'user/*.c' 'user/*.h' | grep -c '^+[^+]' || true)
	out=$(cd "$ROOT" && git diff -U0 --no-color "$base" -- 'user/*.c' 'user/*.h' | "$fmt" -p1 2>&1)
	[ -z "$out" ] && { echo "style: clang-format: $lines changed lines of user/ since $base, as .clang-format has them"; return 0; }
	printf '%s\n' "$out"
	echo "style: clang-format: changed lines of user/ since $base differ from .clang-format (git clang-format $base fixes them)"
	return 1
}

rc=0
for c in "${@:-shellcheck checkpatch clang-format}"; do
	for one in $c; do
		case $one in
		shellcheck) check_shellcheck ;;
		checkpatch) check_checkpatch ;;
		clang-format) check_clang_format ;;
		*) echo "style: unknown check '$one': give shellcheck, checkpatch or clang-format" >&2; exit 2 ;;
		esac
		r=$?
		[ $r = 1 ] && rc=1
		[ $r = $SKIP ] && [ $# -gt 0 ] && [ $rc = 0 ] && rc=$SKIP
	done
done
exit $rc
