# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Malformed netlink: unknown attributes, wrong lengths, missing
# attributes, tgid 0 or beyond pid_max, unknown flag bits, trailing bytes,
# attributes on commands that take none: each rejected with an extended-ack
# message, and GET_INFO + GET_STATS are the same before and after. Run with
# the module idle and with a session running. Sourced by suite.sh s.

load
pid_max=$(cat /proc/sys/kernel/pid_max)
bg sleep 600
idle=$!

# Every malformed request of the list, then the state comparison.
malformed_round() {
	local phase=$1 what cmd attrs
	{ lmtool info && lmtool stats; } >before.txt 2>&1
	while read -r what cmd attrs; do
		check "$phase: $what is rejected with an extended-ack message" \
			"lmtool raw $cmd $attrs" 1 '^rejected: [^(]*\(-[0-9]+\): .+'
	done <<-LIST
	START-without-tgid start
	START-tgid-0 start tgid=u32:0
	START-tgid-pid_max start tgid=u32:$pid_max
	START-tgid-beyond-PID_MAX_LIMIT start tgid=u32:4194305
	START-tgid-of-no-process start tgid=u32:$((pid_max - 1))
	START-tgid-as-u8 start tgid=u8:$idle
	START-tgid-as-u16 start tgid=u16:$idle
	START-tgid-as-u64 start tgid=u64:$idle
	START-tgid-as-string start tgid=str:$idle
	START-tgid-empty start tgid=bin:
	START-tgid-5-bytes start tgid=bin:0100000000
	START-flags-bit-0 start tgid=u32:$idle flags=u32:1
	START-flags-bit-31 start tgid=u32:$idle flags=u32:0x80000000
	START-unknown-source-bits start tgid=u32:$idle mask=u32:0x80000000
	START-buffer-below-minimum start tgid=u32:$idle buffer=u32:3
	START-buffer-above-maximum start tgid=u32:$idle buffer=u32:0x200000
	START-buffer-as-u16 start tgid=u32:$idle buffer=u16:64
	START-unknown-attribute-200 start tgid=u32:$idle 200=u32:1
	START-attribute-LATMON_A_MAX+1 start tgid=u32:$idle 12=u32:1
	START-reply-only-attribute-RUNNING start tgid=u32:$idle 5=u32:1
	START-nested-SOURCES start tgid=u32:$idle 10=bin:0800010001000000
	GET_INFO-with-an-attribute info tgid=u32:$idle
	GET_STATS-with-an-unknown-attribute stats 200=u32:1
	STOP-with-an-attribute stop tgid=u32:$idle
	STOP-with-flags stop flags=u32:0
	LIST
	for cmd in 0 5 255; do	# genetlink itself refuses these, maybe without a message
		check "$phase: command $cmd is rejected" "lmtool raw $cmd" 1 '^rejected: '
	done
	check "$phase: START with 3 bytes after the last attribute is rejected with a message" \
		"stress trailing $idle" 1 'error -[0-9]+ \([^)]*\): .+'
	check "$phase: GET_INFO and GET_STATS are unchanged by all of them" \
		"{ lmtool info && lmtool stats; } 2>&1 | diff before.txt -" 0 ''
}

malformed_round idle
lmtool start --tgid "$idle"
malformed_round running
check "the session still targets the same process" "lmtool info" 0 "running 1 tgid $idle"
lmtool stop
