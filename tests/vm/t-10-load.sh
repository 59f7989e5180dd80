# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Load/unload cycles and GET_INFO. Sourced by suite.sh.

load_cycles() {
	local i
	for i in $(seq 20); do
		insmod "$KO" || { echo "insmod $i failed"; return 1; }
		lmtool info >/dev/null || { echo "GET_INFO after insmod $i failed"; return 1; }
		rmmod latmon || { echo "rmmod $i failed"; return 1; }
	done
	! loaded
}
export -f load_cycles
check "load, GET_INFO and unload 20 times" "load_cycles" 0 ''

load
krel_re=$(uname -r | sed 's/[.+]/\\&/g')
check "GET_INFO names this kernel and a TSC frequency" \
	"lmtool info" 0 "^module .* uapi 1 kernel $krel_re tsc_khz [1-9][0-9]* running 0"
check "GET_INFO lists the six sources, none unavailable" \
	"lmtool info | grep -c -E '^source (fault|thp-clear|sched|irq|syscall|wait) .*state=(available|attached) .*missing=0 '" \
	0 '^6$'
check "while recording every source is attached" \
	"lmtool start --tgid \$\$ && lmtool info | grep -c 'state=attached'; lmtool stop" 0 '^6$'
