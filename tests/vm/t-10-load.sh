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
# alloc-zero may miss its second probe (7.3 inlines __alloc_pages_direct_compact):
# then it says what it does not see
check "GET_INFO lists the nine sources, none unavailable, anything missing named" \
	"lmtool info | grep -c -E '^source (fault|thp-clear|sched|irq|alloc-zero|compaction|reclaim|syscall|wait) .*state=(available|attached) .*(missing=0 |missing=1 .*reason=.*pages captured by compaction are not seen)'" \
	0 '^9$'
check "while recording every source is attached" \
	"lmtool start --tgid \$\$ && lmtool info | grep -c 'state=attached'; lmtool stop" 0 '^9$'
