#!/bin/bash
# SPDX-License-Identifier: MIT
# latctl export: a result as a Perfetto trace that protoc decodes against
# Perfetto's own perfetto_trace.proto (tests/export/), with one slice per
# slow iteration named by its primary cause, every kernel span nested
# inside its iteration, times equal to the result's, the clock snapshot
# and named tracks (tests/export/check_trace.py); for grow --thp always,
# chase cold and a program of 100 threads. An older result exports what it
# has and says what is missing; what is not a result: one line, exit 2,
# nothing written.
. "$(dirname "$0")/engine.sh"

command -v protoc >/dev/null || skip_all "protoc (protobuf-compiler) is not installed; scripts/deps.sh installs it"
command -v python3 >/dev/null || skip_all "python3 is not installed; scripts/deps.sh installs it"
L=$LATCTL
X=$TESTS_DIR/tests/export
B=$TESTS_DIR/tests/exec/bin
CORPUS=$TESTS_DIR/tests/fuzz/corpus/fuzz_result
BE=none
"$L" backends 2>/dev/null | grep -q 'bpf: yes' && BE=bpf
[ -e /dev/latmon ] && BE=latmon
CPU=1
[ "$(nproc)" -lt 2 ] && CPU=0
echo "# backend: $BE"

decode() {	# TRACE: protoc's text into TRACE.txt
	protoc -I"$X" --decode=perfetto.protos.Trace perfetto_trace.proto < "$1" > "$1.txt"
}

# NAME RUN-ARGS...: run, export, decode, check against the result.
exported() {
	local name=$1
	shift
	check "run $*" "cd '$TMPD' && '$L' run --json '$TMPD/$name.json' -q $*" 0 ''
	check "export of $name: one line saying what it holds" \
		"'$L' export '$TMPD/$name.json' -o '$TMPD/$name.pftrace'" 0 \
		"^latctl export: .*$name.pftrace: [0-9]+ slow iterations on [0-9]+ thread tracks, [0-9]+ kernel spans"
	ok "... protoc decodes it against Perfetto's perfetto_trace.proto" decode "$TMPD/$name.pftrace"
	check "... one slice per slow iteration, its cause, its time; spans nested; clock; tracks named" \
		"python3 '$X/check_trace.py' '$TMPD/$name.json' '$TMPD/$name.pftrace.txt'" 0 '^# [0-9]+ packets'
}

exported grow grow --thp always --iters 1000000 --cpu "$CPU" --backend "$BE"
if [ "$BE" != none ]; then
	ok "grow: kernel spans in the trace" bash -c "grep -q 'TYPE_SLICE_BEGIN' '$TMPD/grow.pftrace.txt' &&
		python3 '$X/check_trace.py' '$TMPD/grow.json' '$TMPD/grow.pftrace.txt' | grep -Eq ', [1-9][0-9]* kernel spans'"
fi
exported chase chase --mode cold --iters 300000 --cpu "$CPU" --backend "$BE"
if [ "$BE" != none ]; then
	check "chase: a slow iteration's slice says its faults' kinds, times and memory" \
		"grep -A1 'string_value: \"[a-z-]* [0-9]* (' '$TMPD/chase.pftrace.txt'" 0 \
		'(zero|anon|cow) [0-9]+ \([0-9.]+ us\) on anonymous 0x[0-9a-f]+-0x[0-9a-f]+.*|name: "fault_kinds"'
fi
exported threads exec --backend "$BE" -- "$B/markers_prog" threads 100 200
ok "threads: a thread track per thread with slow iterations (over 10)" \
	bash -c "[ \$(grep -c 'thread_name:' '$TMPD/threads.pftrace.txt') -gt 10 ]"

# A --repeat result: run 1, said.
check "run grow --repeat 2" "'$L' run grow --iters 100000 --repeat 2 --cpu $CPU --backend $BE --json '$TMPD/rep.json' -q" 0 ''
check "export of a --repeat result says it is run 1 of 2" \
	"'$L' export '$TMPD/rep.json' -o '$TMPD/rep.pftrace'" 0 'a --repeat result: its run 1 of 2'
ok "... protoc decodes it" decode "$TMPD/rep.pftrace"
check "... and it matches run 1's iterations" \
	"python3 '$X/check_trace.py' '$TMPD/rep.json' '$TMPD/rep.pftrace.txt'" 0 '^# [0-9]+ packets'

# The checker fails a trace that does not match its result.
python3 -c "
import json, sys
d = json.load(open('$TMPD/grow.json'))
it = d['slow']['iterations'][0]
it['primary'] = 'preemption' if it['primary'] != 'preemption' else 'fault'
json.dump(d, open('$TMPD/grow-other.json', 'w'))"
check "the checker refuses a trace whose slice names another cause" \
	"python3 '$X/check_trace.py' '$TMPD/grow-other.json' '$TMPD/grow.pftrace.txt'" 1 'slice .*, primary '

# An older result (no clock snapshot, no spans): exported, and said.
check "an older result exports, saying what it lacks" \
	"'$L' export '$CORPUS/valid-grow.json' -o '$TMPD/old.pftrace' 2>&1" 0 'no clock snapshot .*older latctl'
ok "... and protoc decodes it" decode "$TMPD/old.pftrace"

# A result edited by hand: a context window's arrays cut or of strings, a
# span of strings: exported all the same, never a crash.
python3 -c "
import json
d = json.load(open('$TMPD/grow.json'))
w = d['context']['windows']
w[0]['duration_ticks'] = w[0]['duration_ticks'][:5]
w[0]['tsc_begin'][1] = 'x'
if len(w) > 1: w[1]['tsc_begin'] = []
for it in d['slow']['iterations']:
    it['spans'] = [{'type': 1, 'label': None, 'begin_ns': 'a', 'end_ns': -1e30, 'cpu': 'z'}]
json.dump(d, open('$TMPD/edited.json', 'w'))"
check "a hand-edited context and spans: exported, exit 0" \
	"'$L' export '$TMPD/edited.json' -o '$TMPD/edited.pftrace'" 0 '^latctl export: '
ok "... and protoc decodes it" decode "$TMPD/edited.pftrace"

# What is not a result: one line, exit 2, nothing written.
for f in not-json.txt truncated.json crash-duplicate-key.json crash-negative-bucket.json; do
	check_err "not a result ($f): one line, exit 2" "'$L' export '$CORPUS/$f' -o '$TMPD/bad.pftrace'" 2 '.'
	ok "... nothing written" test ! -e "$TMPD/bad.pftrace"
done
check_err "a directory: one line, exit 2" "'$L' export '$TMPD' -o '$TMPD/bad.pftrace'" 2 '.'
check_err "no -o: one line naming it, exit 2" "'$L' export '$TMPD/grow.json'" 2 '-o FILE.pftrace'
ok "... nothing written" test ! -e "$TMPD/bad.pftrace"
check "--max 3: the 3 slowest, the rest counted" \
	"'$L' export '$TMPD/chase.json' --max 3 -o '$TMPD/max3.pftrace'" 0 \
	'^latctl export: .*: 3 slow iterations .*left out \(--max\)'
done_testing
