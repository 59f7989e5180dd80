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
# list and backends for scripts: --json, the same facts as the text
check "list --json: every workload, exec included, with its modes and options" \
	"$LATCTL list --json | perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<>);
		print join(\" \", map { \$_->{name} . \"/\" . scalar(@{\$_->{modes}}) . \"/\" . scalar(@{\$_->{options}}) } @{\$d->{workloads}}), \"\\n\"'" 0 \
	'^grow/3/0 chase/3/2 request/0/1 alloc/0/1 mmap/0/2 file/2/0 exec/3/2$'
check_err "list with another argument" "$LATCTL list --all" 2 "unknown argument '--all'; it takes only --json"
text=$("$LATCTL" backends)
check "backends --json says what the line says" \
	"$LATCTL backends --json | perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<>);
		print \"latmon \", (\$d->{latmon}{usable} ? \"yes\" : \"no\"), \" bpf \", (\$d->{bpf}{usable} ? \"yes\" : \"no\"), \"\\n\"'" "$([[ $text == *"latmon: yes"* || $text == *"bpf: yes"* ]] && echo 0 || echo 1)" \
	"^latmon $([[ $text == *"latmon: yes"* ]] && echo yes || echo no) bpf $([[ $text == *"bpf: yes"* ]] && echo yes || echo no)\$"
check_err "backends with another argument" "$LATCTL backends --all" 2 "unknown argument '--all'; it takes only --json"
check "list names each workload's own --slow default (mmap: 1ms)" "$LATCTL list" 0 \
	'^         default --iters [0-9]+, --slow 1ms$'
check "... which is the one a run of it uses" \
	"$LATCTL run mmap --procs 1 --iters 200 --json - | perl -MJSON::PP -e 'local \$/; print decode_json(<>)->{options}{slow}, \"\\n\"'" 0 '^1ms$'
done_testing
