#!/bin/bash
# SPDX-License-Identifier: MIT
# Output files as a Unix tool writes them: a device or a FIFO is written
# through, never replaced (/dev/null itself in a private mount namespace);
# a symlink is followed and its target replaced; a replaced file keeps its
# mode and owner; /dev/stdout is latctl's stdout; the temporary files of a
# dead latctl are removed by the next; a failed --json keeps the printed
# report, and a failed stdout is exit 1 with a line.
. "$(dirname "$0")/../cli/engine.sh"

L=$LATCTL
RUN="$L run grow --iters 20000 --backend none"
root=$([ "$(id -u)" = 0 ] && echo 1)
valid() { perl -MJSON::PP -e 'local $/; decode_json(<>)' "$1"; }

mkfifo "$TMPD/fifo"
(cat "$TMPD/fifo" > "$TMPD/fifo.out") &
check "--json FIFO: written to its reader" "$RUN --quiet --json $TMPD/fifo" 0 ''
wait
ok "... the FIFO is still a FIFO" test -p "$TMPD/fifo"
ok "... its reader got the whole result" valid "$TMPD/fifo.out"
(cat "$TMPD/fifo" > "$TMPD/fifo.svg") &
check "plot -o FIFO: written through" "$L plot $TMPD/fifo.out -o $TMPD/fifo" 0 ''
wait
ok "... the FIFO stays, the SVG went through it" bash -c "test -p $TMPD/fifo && grep -q '</svg>' $TMPD/fifo.svg"

if [ -n "$root" ] && command -v unshare >/dev/null; then
	check "--json /dev/null in a private mount namespace: /dev/null stays a device" \
		"unshare -m sh -c 'mknod $TMPD/devnull c 1 3 && mount --bind $TMPD/devnull /dev/null &&
			$RUN --quiet --json /dev/null && stat -c %F /dev/null'" 0 '^character special file$'
	mkdir "$TMPD/small"
	check "--json on a full tmpfs (64 KiB, in unshare -m): exit 1, the old file kept" \
		"unshare -m sh -c 'mount -t tmpfs -o size=64k none $TMPD/small && echo old > $TMPD/small/r.json &&
			$RUN --quiet --iters 200000 --json $TMPD/small/r.json; echo rc=\$? \$(cat $TMPD/small/r.json) \$(ls -A $TMPD/small)'" \
		0 '^rc=1 old r.json$'
	mknod "$TMPD/null" c 1 3
	check "--json to a device node: written through" "$RUN --quiet --json $TMPD/null; stat -c %F $TMPD/null" \
		0 '^character special file$'
fi

cp "$TMPD/fifo.out" "$TMPD/real.json"
ln -s real.json "$TMPD/link.json"
check "--json to a symlink: followed" "$RUN --quiet --json $TMPD/link.json" 0 ''
ok "... the link is still a link to real.json" test "$(readlink "$TMPD/link.json")" = real.json
ok "... real.json holds the new result" bash -c "! cmp -s $TMPD/fifo.out $TMPD/real.json && perl -MJSON::PP -e 'local \$/; decode_json(<>)' $TMPD/real.json"
ln -s new.json "$TMPD/dangling.json"
check "--json to a dangling symlink: its target is created" "$RUN --quiet --json $TMPD/dangling.json" 0 ''
ok "... new.json written, the link kept" bash -c "test -L $TMPD/dangling.json && perl -MJSON::PP -e 'local \$/; decode_json(<>)' $TMPD/new.json"

chmod 0600 "$TMPD/real.json"
[ -n "$root" ] && chown nobody:nogroup "$TMPD/real.json" 2>/dev/null
want=$(stat -c '%a %U' "$TMPD/real.json")
check "--json over a file of mode 0600" "$RUN --quiet --json $TMPD/real.json" 0 ''
ok "... it keeps its mode and owner ($want)" test "$(stat -c '%a %U' "$TMPD/real.json")" = "$want"

bash -c 'exit 0' & dead=$!
wait $dead
touch "$TMPD/.r.json.latctl-$dead.AbCdEf" "$TMPD/.r.json.latctl-$$.AbCdEf"
check "a run writing r.json" "$RUN --quiet --json $TMPD/r.json" 0 ''
ok "... removed the temporary file of a dead latctl (pid $dead)" test ! -e "$TMPD/.r.json.latctl-$dead.AbCdEf"
ok "... and kept that of a live one" test -e "$TMPD/.r.json.latctl-$$.AbCdEf"
ok "... and left none of its own" test "$(find "$TMPD" -maxdepth 1 -name '.r.json.latctl-*' | wc -l)" = 1

check "--json /dev/stdout: the result on latctl's stdout (a file here)" \
	"$RUN --quiet --json /dev/stdout > $TMPD/out.json && perl -MJSON::PP -e 'local \$/; print decode_json(<>)->{schema}' $TMPD/out.json" \
	0 '^latctl.result$'
check "--json to a full disk (/dev/full): the report is printed all the same, exit 1" \
	"$RUN --json /dev/full" 1 '^push \(ns\) '
check "... and says the file is cut short" "$RUN --json /dev/full" 1 \
	'--json: writing /dev/full failed: No space left on device'
check_err "report with stdout on a full disk: exit 1, said" "$L report $TMPD/r.json > /dev/full" 1 \
	'writing to stdout failed: No space left on device'
check "report | head: a closed pipe is no error" "$L report $TMPD/r.json | head -n 1; echo \${PIPESTATUS[0]}" 0 '^0$'
# A report over stdio's 4 KiB (mmap's, 7 KiB): the same, whatever a loaded
# box adds to a report (failed in CI when grow's came to 4 KiB).
BIG=$TESTS_DIR/tests/fuzz/corpus/fuzz_result/valid-mmap.json
check_err "a 7 KiB report on a full disk: the disk's error, said" "$L report $BIG > /dev/full" 1 \
	'writing to stdout failed: No space left on device'
check "a 7 KiB report | head: no SIGPIPE, no error" "$L report $BIG | head -n 1; echo \${PIPESTATUS[0]}" 0 '^0$'
check "a 7 KiB report | true, a reader that never reads: no error" \
	"$L report $BIG | true; echo \${PIPESTATUS[0]}" 0 '^0$'
done_testing
