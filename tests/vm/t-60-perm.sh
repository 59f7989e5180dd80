# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# As uid nobody, /dev/latmon and every netlink operation are refused.
# Sourced by suite.sh.

load
as_nobody() { su -s /bin/sh nobody -c "$*"; }
export -f as_nobody
check "nobody really runs as uid 65534" "as_nobody id -u" 0 '^65534$'
check "nobody cannot open /dev/latmon" \
	"as_nobody lmtool read --nonblock" 1 'Permission denied|Operation not permitted'
for op in info stop stats "start --tgid 1"; do
	check "nobody is refused ${op%% *}" "as_nobody lmtool $op" 1 'Operation not permitted'
done
check "nobody is refused a raw GET_STATS" "as_nobody lmtool raw stats" 1 '^rejected: Operation not permitted'
check "the module still answers root" "lmtool info" 0 'running 0'
