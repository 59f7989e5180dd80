#!/bin/bash
# SPDX-License-Identifier: MIT
# The man pages render without a warning (man --warnings, groff -ww), and
# latctl(8) lists exactly the commands that --help shows, each with its
# page latctl-COMMAND(8) whose options are exactly those of its --help.
. "$(dirname "$0")/engine.sh"

command -v groff >/dev/null || skip_all "groff is not installed; scripts/deps.sh installs it"
L=$LATCTL
CMD_PAGES=$(ls "$TESTS_DIR"/user/latctl-*.8)
PAGES="$TESTS_DIR/user/latctl.8 $CMD_PAGES $TESTS_DIR/user/latctl-result.5 $TESTS_DIR/user/latctl-lab.7 $TESTS_DIR/module/latmon.4 $TESTS_DIR/user/markers/latctl-markers.3"
for p in $PAGES; do
	check "groff -ww: no warning in ${p##*/}" "groff -t -ww -man -Tutf8 -z '$p'" 0 ''
	ok "groff -ww printed nothing for ${p##*/}" test -z "$ERR"
	if command -v man >/dev/null; then
		check "man --warnings -l ${p##*/}: no warning" \
			"LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l '$p' 2>&1 >/dev/null" 0 ''
		ok "man printed no warning for ${p##*/}" test -z "$OUT"
	fi
	ok "${p##*/} has NAME, SYNOPSIS or DESCRIPTION, and SEE ALSO" \
		bash -c "grep -q '^\.SH NAME' '$p' && grep -Eq '^\.SH (SYNOPSIS|DESCRIPTION)' '$p' && grep -q '^\.SH SEE ALSO' '$p'"
done
VERSION=$(sed -n 's/^#define LATMON_MODULE_VERSION[^"]*"\(.*\)"/\1/p' "$TESTS_DIR/module/latmon.h")
for p in $PAGES; do
	ok "${p##*/} in the tree carries the version ($VERSION), not a placeholder" \
		bash -c "grep -q '^\.TH .*\"lat[a-z]* $VERSION\"' '$p' && ! grep -q '@VERSION@' '$p'"
done
M=$TESTS_DIR/user/latctl.8
for s in COMMANDS OPTIONS ENVIRONMENT "EXIT STATUS" EXAMPLES; do
	ok "latctl(8) has $s" grep -q "^\.SH $s" "$M"
done

# A page as text, then the long options of one "Options of X" subsection
# of the command's own page (latctl's in latctl(8)).
as_text() {
	groff -man -Tutf8 -P-c -rLL=200n "$1" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g'
}
as_text "$M" > "$TMPD/man.txt"
for p in $CMD_PAGES; do
	as_text "$p" >> "$TMPD/man.txt"
done
man_opts() {
	local page=$M
	[ "$1" = latctl ] || page=$TESTS_DIR/user/latctl-${1%% *}.8
	as_text "$page" |
	awk -v want="Options of $1" '/^   [A-Z]/ || /^[A-Z]/ { on = ($0 ~ "^ *" want "$") ; next }
		on && /^       (-[A-Za-z], )?--[a-z]/ { print }' |
		grep -oE -- '--[a-z][a-z-]*' | head -n 100 | sort -u
}
help_opts() {	# the option lines of a --help text
	grep -E '^ {2,}(-[A-Za-z], )?--[a-z]' | grep -oE -- '^ +(-[A-Za-z], )?--[a-z][a-z-]*' |
		grep -oE -- '--[a-z-]+' | sort -u
}
for c in latctl run compare check plot export doctor "latmon record"; do
	case $c in
	latctl) help=$("$L" --help) ;;
	"latmon record") help=$("$L" latmon --help) ;;
	*) help=$("$L" $c --help) ;;
	esac
	h=$(printf '%s\n' "$help" | help_opts | tr '\n' ' ')
	m=$(man_opts "$c" | tr '\n' ' ')
	ok "options of $c: --help and its man page agree (${h:-none})" \
		bash -c "[ -n '$h' ] && [ '$h' = '$m' ] || { echo 'help: $h'; echo 'man:  $m'; exit 1; }"
done
# Short options too: each -x of run --help appears with its long name in the page.
"$L" run --help | grep -oE '^ +-[a-z], --[a-z-]+' | sed 's/^ *//' | sort > "$TMPD/short.help"
grep -oE '^       -[a-z], --[a-z-]+' "$TMPD/man.txt" | sed 's/^ *//' | sort -u > "$TMPD/short.man"
ok "every short option of run is in the page with its long name" \
	bash -c "comm -23 '$TMPD/short.help' '$TMPD/short.man' | grep -q . && exit 1 || exit 0"
cmds_help=$("$L" --help | awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on { print $1 }' | sort | tr '\n' ' ')
cmds_man=$(as_text "$M" | awk '/^COMMANDS/ { on = 1; next } /^[A-Z]/ { on = 0 } on && /^       [a-z]/ { print $1 }' | sort -u | tr '\n' ' ')
ok "every command of --help has its entry in COMMANDS (${cmds_help})" \
	test "$cmds_help" = "$cmds_man"
for c in $cmds_help; do
	[ "$c" = help ] && continue
	p=$TESTS_DIR/user/latctl-$c.8
	ok "$c has its page latctl-$c(8), named in latctl(8) and with its synopsis" \
		bash -c "test -s '$p' && grep -qF 'latctl\\-$c (8)' '$M' &&
			sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' '$p' | grep -Eq '^\.B[IR]? \"?latctl $c'"
done

# The option tables behind --help: what --list-opts answers (the shell
# completion's only source) is what --help shows, for every command.
for c in run compare check plot export doctor report "latmon record"; do
	case $c in
	"latmon record") h=$("$L" latmon --help | help_opts | tr '\n' ' ') ;;
	*) h=$("$L" $c --help | help_opts | tr '\n' ' ') ;;
	esac
	t=$("$L" $c --list-opts | grep -oE '^--[a-z-]+' | sort -u | tr '\n' ' ')
	ok "options of $c: its table (--list-opts) and --help agree" \
		bash -c "[ -n '$t' ] && [ '$t' = '$h' ] || { echo 'table: $t'; echo 'help:  $h'; exit 1; }"
done
cmds_list=$("$L" --list-cmds | sort | tr '\n' ' ')
ok "--list-cmds names the commands of --help" test "$cmds_list" = "$cmds_help"
check "--list-opts of run: the workloads, as arguments" "$L run --list-opts" 0 '^- grow chase request alloc mmap file exec$'
check "--list-opts of run: a workload's own option, from its table" "$L run --list-opts" 0 '^--procs=$'
check "--list-opts of check: --metric's values are the metrics it takes" "$L check --list-opts" 0 \
	'^--metric= p50 .* count:fault .* own:preemption'
check "--list-opts of latmon: its subcommands" "$L latmon --list-opts" 0 '^\+ info stats record help$'
done_testing
