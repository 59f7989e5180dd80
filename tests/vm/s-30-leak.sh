# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# No leaks to user space: records read into 0xAA-filled
# buffers have every reserved, padding and unused-union byte zero, no u64
# but the TSCs holds a kernel address, read() writes nothing past what it
# returns; the GET_INFO and GET_STATS replies have zero padding. A flipped
# reserved byte in saved records shows the record checks can fail.
# Sourced by suite.sh s.

load
# Session on a command that starts 1 s after START (same tgid after exec).
leak_session() {
	local name=$1 want=$2
	shift 2
	sh -c "sleep 1; exec $*" >/dev/null 2>&1 &
	local target=$!
	lmtool start --tgid "$target" $LEAK_START_OPTS
	wait "$target"
	lmtool stop
	check "$name: every record read into 0xAA has zero reserved bytes, no kernel address" \
		"stress leak" 0 '^records=[1-9][0-9]* .*failures=0$'
	echo "# $name: $OUT"
	check "$name: the records include $want" "echo '$OUT'" 0 "$want"
}
LEAK_START_OPTS="--buffer 4" leak_session "fault storm in a 4-slot ring" \
	'lost=[1-9]' lmtouch --pages 2000	# its 3 slots may hold irq records only
set_thp always	# zeroing: thp-clear records, or alloc-zero where init_on_alloc zeroes
LEAK_START_OPTS="" leak_session "huge pages" 'fault=[1-9].* zeroing=[1-9]' lmtouch --huge 4
LEAK_START_OPTS="" leak_session "CPU hopper" \
	'sched=[1-9].* irq=[1-9].* migrate=[1-9]' stress bounce 3
# Negative control: the same checks on saved records, which a test can
# alter; one reserved byte set must be reported, else the checks above
# could pass whatever the module wrote.
lmtool record --mask fault --events leak.bin -- lmtouch --pages 50 >leak.out 2>&1
check "control: the saved records pass the leak check" "stress leak --events leak.bin" 0 \
	'^records=[1-9][0-9]* .*failures=0$'
cp leak.bin leak-bad.bin
printf '\132' | dd of=leak-bad.bin bs=1 seek=6 conv=notrunc 2>/dev/null	# 1st reserved
check "control: 0x5a in the first record's reserved field is one failure" \
	"stress leak --events leak-bad.bin" 1 '^records=[1-9][0-9]* .*failures=1$'
echo "# control: $(printf '%s' "$OUT" | head -n1)"
check "idle: GET_INFO and GET_STATS replies have zero padding" "stress nlpad" 0 'failures=0$'
bg sleep 600
lmtool start --tgid "$!"
check "running: GET_INFO and GET_STATS replies have zero padding" "stress nlpad" 0 'failures=0$'
lmtool stop
