# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Malformed START requests are rejected and the module keeps working.
# Sourced by suite.sh.

load
me=$$
while read -r what attrs; do
	check "START rejects $what" "lmtool raw start $attrs" 1 '^rejected: '
	lmtool stop >/dev/null 2>&1	# in case it was accepted: keep the next independent
done <<-LIST
	no-tgid
	tgid-0 tgid=u32:0
	tgid-beyond-pid_max tgid=u32:4000000
	tgid-as-u8 tgid=u8:$me
	tgid-as-u64 tgid=u64:$me
	tgid-as-string tgid=str:$me
	unknown-flags tgid=u32:$me flags=u32:1
	unknown-source-bits tgid=u32:$me mask=u32:0x80000000
	buffer-as-u16 tgid=u32:$me buffer=u16:64
	unknown-attribute tgid=u32:$me 200=u32:1
	tgid-empty tgid=bin:
LIST
check "an unknown command is rejected" "lmtool raw 77" 1 '^rejected: '
check "GET_INFO still works and nothing runs" "lmtool info" 0 'running 0 tgid 0'
lmtool record --events after.bin -- lmtouch --pages 100 >after.out 2>&1
check "a normal session still records faults" \
	"lmtool read --events after.bin --type fault --count" 0 'fault=[1-9][0-9]* '
