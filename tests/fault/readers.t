#!/bin/bash
# SPDX-License-Identifier: MIT
# Readers a file cannot make hang or eat memory: a FIFO, a device or a
# directory is refused at once (one line, exit 2); a file over 256 MiB, a
# binary file and one of too many values are refused before parsing;
# times that are not times (1.7e308, 1e999, negative) are refused by
# report, compare and plot alike, so no plot can run away. Each command
# runs under `timeout` and a memory limit: a hang or a blow-up fails it.
. "$(dirname "$0")/../cli/engine.sh"

L=$LATCTL
R=$TMPD/r.json
$L run grow --iters 20000 --backend none --json "$R" >/dev/null 2>&1 || echo "Bail out! a grow run failed"
# Every reader below: 20 s and 1 GiB of address space at most.
lim() { echo "ulimit -v 1048576; timeout 20 $*"; }

mkfifo "$TMPD/fifo"
check_err "report of a FIFO: refused at once, not waited on" "$(lim "$L report $TMPD/fifo")" 2 \
	'fifo is a FIFO, not a result file'
check_err "compare with a FIFO: refused" "$(lim "$L compare $R $TMPD/fifo")" 2 'fifo is a FIFO'
check_err "report /dev/zero: refused (a device), not read for ever" "$(lim "$L report /dev/zero")" 2 \
	'/dev/zero is a character device'
check_err "report /dev/urandom: refused" "$(lim "$L report /dev/urandom")" 2 'is a character device'
check_err "report of a directory: refused" "$(lim "$L report $TMPD")" 2 'is a directory'
truncate -s 300M "$TMPD/big.json"
check_err "a 300 MiB file: refused by its size" "$(lim "$L report $TMPD/big.json")" 2 \
	'larger than 256 MiB, more than any result latctl writes'
perl -e 'print "[", "0," x 9000000, "0]"' > "$TMPD/many.json"
check_err "an array of 9 M values (18 MB, over 4 M): refused before parsing" "$(lim "$L report $TMPD/many.json")" 2 \
	'holds more than 4194304 JSON values'
head -c 4096 /dev/urandom > "$TMPD/bin.json"
check_err "a binary file: said so, not \"truncated\"" \
	"$(lim "$L report $TMPD/bin.json")" 2 '(binary file|not valid JSON)'
printf '{"schema": "latctl.result",\0 }' > "$TMPD/nul.json"
check_err "a file with a NUL byte: binary" "$(lim "$L report $TMPD/nul.json")" 2 'is a binary file'
check "stdin with -: read like a file" "$(lim "$L report - < $R")" 0 '^push \(ns\) '

perl -pe 's/"max_ns":\s*[0-9.e+]+/"max_ns": 1.7e308/' "$R" > "$TMPD/huge.json"
perl -pe 's/"max_ns":\s*[0-9.e+]+/"max_ns": 1e999/' "$R" > "$TMPD/inf.json"
perl -pe 's/"p50_ns":\s*[0-9.e+]+/"p50_ns": -5/' "$R" > "$TMPD/neg.json"
check_err "plot of max_ns 1.7e308: refused, no endless SVG" \
	"$(lim "$L plot $TMPD/huge.json -o $TMPD/h.svg")" 2 'summary.max_ns is 1.7e\+308, not a time'
ok "... and no SVG or temporary file left" bash -c "! ls $TMPD/h.svg $TMPD/.h.svg* $TMPD/h.svg.* 2>/dev/null | grep -q ."
check_err "compare with max_ns 1e999 (inf): refused" "$(lim "$L compare $R $TMPD/inf.json")" 2 \
	'summary.max_ns is inf, not a time'
check_err "report of a negative p50: refused" "$(lim "$L report $TMPD/neg.json")" 2 \
	'summary.p50_ns is -5, not a time'
done_testing
