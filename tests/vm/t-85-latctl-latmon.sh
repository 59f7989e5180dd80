# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# `latctl latmon info|stats|record`, the users' view of the module, against
# lmtool's (the suite's own reader). Sourced by suite.sh.
L=/usr/bin/latctl

load
check "latctl latmon info: version, UAPI, this kernel, idle" \
	"$L latmon info" 0 "^latmon [0-9.]+ \(UAPI 1\) on $(uname -r | sed 's/[.+]/\\&/g'), tsc_khz [1-9][0-9]*, idle$"
check "latctl latmon info lists the four sources, each available" \
	"$L latmon info | grep -c -E '^  (fault|thp-clear|sched|irq) +available '" 0 '^4$'

# record: the whole command, from exec to exit, with the records saved.
$L latmon record --events rec.bin -- lmtouch --pages 1000 >rec.out 2>&1
rc=$?
sed 's/^/# /' rec.out
faults=$(sed -n 's/.* records:.* fault \([0-9]*\) .*/\1/p' rec.out)
total=$(sed -n 's/^latmon record: pid [0-9]*, \([0-9]*\) records:.*/\1/p' rec.out)
ok "record runs the command and exits with its status (0)" [ "$rc" = 0 ]
ok "record counts at least the 1000 page faults of lmtouch (${faults:-none})" [ "${faults:-0}" -ge 1000 ]
ok "record saved every record it counted (${total:-?} x 72 bytes)" \
	[ "$(stat -c %s rec.bin)" = "$(( ${total:-0} * 72 ))" ]
ok "lmtool reads the same fault count from the saved file" \
	[ "$(lmtool read --events rec.bin --count | field fault)" = "$faults" ]
check "record says nothing was lost" "cat rec.out" 0 '^lost: 0 events in 0 lost records$'
check "stats after the session: the records read equal those recorded, nothing dropped" \
	"$L latmon stats | awk '\$1 == \"all\" && \$2 == \$4 && \$3 == 0 && \$2 == $total { ok = 1 } END { exit !ok }'" 0 ''
check "stats lists a probe-miss count per source" \
	"$L latmon stats | grep -c -E '^  (fault|thp-clear|sched|irq) +[0-9]+$'" 0 '^4$'
check "record passes the command's exit status on" \
	"$L latmon record --sources fault -- sh -c 'exit 3'" 3 '^latmon record: pid [0-9]+'
check_err "record refuses an unknown source before starting" \
	"$L latmon record --sources disk -- true" 2 "unknown source 'disk'"
unload
check_err "info without the module: one line, what to do, status 1" \
	"$L latmon info" 1 "^latctl latmon: latmon is not loaded: run 'make load'"
