#!/bin/bash
# SPDX-License-Identifier: MIT
# Every command's usage: 'latctl CMD --help', 'latctl help CMD' and, for
# latmon, 'latctl latmon help' print it on stdout and exit 0; 'latctl help'
# with an unknown command or too many is refused with one line, exit 2.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
cmds=$("$L" --help | awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on { print $1 }')
ok "latctl --help lists commands" test -n "$cmds"
for c in $cmds; do
	[ "$c" = help ] && continue
	check "latctl $c --help: usage on stdout, exit 0" "'$L' $c --help" 0 "^usage: latctl $c"
	ok "latctl $c --help: nothing on stderr" test -z "$ERR"
	want=$OUT
	check "latctl help $c: exit 0" "'$L' help $c" 0 "^usage: latctl $c"
	ok "latctl help $c prints what latctl $c --help prints" test "$OUT" = "$want"
done
check "latctl latmon help: usage, exit 0" "'$L' latmon help" 0 '^usage: latctl latmon'
ok "latctl latmon help prints what latctl latmon --help prints" \
	test "$OUT" = "$("$L" latmon --help)"
ok "latctl latmon --help names its help subcommand" bash -c "'$L' latmon --help | grep -Eq '^  help +this text'"
check "latctl help: the command list, exit 0" "'$L' help" 0 '^usage: latctl COMMAND'
ok "latctl help prints what latctl --help prints" test "$OUT" = "$("$L" --help)"
check_err "latctl help with an unknown command" "'$L' help nosuch" 2 "unknown command 'nosuch'"
check_err "latctl help with two commands" "'$L' help run list" 2 'at most one command'
check_err "latctl latmon with an unknown subcommand" "'$L' latmon nosuch" 2 \
	'give info, stats, record or help'
done_testing
