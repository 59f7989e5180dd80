#!/bin/bash
# SPDX-License-Identifier: MIT
# latctl plot: the SVG renders (rsvg-convert) to a picture whose histogram
# and timeline show each cause's colour where its iterations are, and only
# there; bad input is refused with one line.
. "$(dirname "$0")/engine.sh"

command -v rsvg-convert >/dev/null || skip_all "rsvg-convert (librsvg2-bin) is not installed; scripts/deps.sh installs it"
L=$LATCTL
PNG=$(dirname "$0")/png_colours.pl
CORPUS=$(dirname "$0")/../fuzz/corpus/fuzz_result
# Plot areas (see user/cmd/cmd_plot.c): histogram and timeline, inside the axes.
HIST=92,92,729,368
TIME=92,452,729,698
# Okabe-Ito colours of user/cmd/cmd_plot.c; d9d9d9 the iterations that are not slow.
REALLOC=56B4E9 THPZERO=D55E00 FAULT=E69F00 UNATTR=999999 FAST=D9D9D9

# RESULT.json NAME: plot, render to PNG, count the colours of every query
# below in one decode into $TMPD/NAME.counts; sets SVG, NAME.
# shellcheck disable=SC2046 # one word per AREA:COLOUR query
render() {
	SVG=$TMPD/$2.svg NAME=$2
	"$L" plot "$1" -o "$SVG" && rsvg-convert "$SVG" -o "$TMPD/$2.png" &&
		"$PNG" "$TMPD/$2.png" $(for a in $HIST $TIME; do
			for c in $REALLOC $THPZERO $FAULT $UNATTR $FAST; do echo "$a:$c"; done; done) \
		>"$TMPD/$2.counts"
}
count() {	# AREA COLOUR: pixels of that colour in that area of the last render
	local i=0 a c
	for a in $HIST $TIME; do
		for c in $REALLOC $THPZERO $FAULT $UNATTR $FAST; do
			i=$((i + 1))
			[ "$a:$c" = "$1:$2" ] && sed -n "${i}p" "$TMPD/$NAME.counts"
		done
	done
}

# A saved VM run: slow iterations realloc (3) and unexplained (1).
ok "plot writes an SVG that rsvg-convert renders" render "$CORPUS/valid-vm-latmon.json" vm
ok "the picture is 1000 x 800" \
	test "$(perl -e 'open F, "<:raw", shift; read F, $h, 24; print join "x", unpack "x16NN", $h' "$TMPD/vm.png")" = 1000x800
ok "histogram: bars of iterations that are not slow (grey)" test "$(count "$HIST" $FAST)" -gt 1000
ok "histogram: the realloc part of the slow bars is drawn in its colour" test "$(count "$HIST" $REALLOC)" -gt 50
ok "timeline: realloc iterations are marked in its colour" test "$(count "$TIME" $REALLOC)" -gt 10
ok "no thp-zero colour: no iteration has that cause" test "$(count "$HIST" $THPZERO)" = 0
ok "the legend names each cause with its count" grep -q '>realloc (3)<' "$SVG"

# The same run with its realloc iterations relabelled thp-zero: the colour moves.
perl -MJSON::PP -e 'local $/; my $d = decode_json(<>);
	$_->{primary} eq "realloc" and $_->{primary} = "thp-zero" for @{$d->{slow}{iterations}};
	print encode_json($d)' "$CORPUS/valid-vm-latmon.json" > "$TMPD/thp.json"
ok "a relabelled result renders" render "$TMPD/thp.json" thp
ok "histogram: now thp-zero's colour" test "$(count "$HIST" $THPZERO)" -gt 50
ok "timeline: now thp-zero's colour" test "$(count "$TIME" $THPZERO)" -gt 10
ok "and no realloc colour left in either panel" \
	test "$(count "$HIST" $REALLOC)" = 0 -a "$(count "$TIME" $REALLOC)" = 0

# A run on this machine without kernel events (--backend none: no
# backend records) where every iteration is slow: no grey part in any bar.
check "run grow with every iteration slow" "$L run grow --iters 20000 --slow 1ns --backend none --quiet --json $TMPD/all.json" 0 ''
ok "that result renders" render "$TMPD/all.json" all
# (edge pixels of the hatched unattributed bars blend to that grey: allow 2%)
ok "histogram: no part that is not slow" test "$(count "$HIST" $FAST)" -lt "$(($(count "$HIST" $UNATTR) / 50))"
ok "histogram: unattributed (no latmon here) fills the bars" test "$(count "$HIST" $UNATTR)" -gt 1000
ok "no fault colour without the module" test "$(count "$HIST" $FAULT)" = 0
ok "plot writes to stdout without -o" bash -c "'$L' plot '$TMPD/all.json' | cmp -s - '$SVG'"

# What a reader sees: no text outside the picture, none over another,
# measured with DejaVu Sans' own metrics (svg_text_boxes.pl).
BOXES=$(dirname "$0")/svg_text_boxes.pl
for f in "$CORPUS"/valid-*.json; do
	b=$(basename "$f" .json)
	"$L" plot "$f" -o "$TMPD/$b.svg"
	ok "$b: every text inside the canvas, no two overlapping" "$BOXES" "$TMPD/$b.svg"
done
ok "the run without events: every text inside, none overlapping" "$BOXES" "$SVG"
# a command line wider than the picture, and the p50 a hair under the
# threshold (their two labels at one height)
perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); $d->{command_line} .= " --an-argument" x 20 . " é" x 3 . " last";
	$d->{summary}{p50_ns} = $d->{slow}{threshold_ns} * 0.97; print encode_json($d)' "$CORPUS/valid-host-bpf.json" > "$TMPD/wide.json"
"$L" plot "$TMPD/wide.json" -o "$TMPD/wide.svg"
ok "a long command and p50 beside the threshold: every text inside, none overlapping" "$BOXES" "$TMPD/wide.svg"
ok "... the command keeps its start and its end" grep -q '>.*latctl run .*\.\.\..* last</text>' "$TMPD/wide.svg"
ok "the notes name the backend that recorded, and its losses" \
	grep -q '>Causes from the kernel.s events, recorded by the BPF backend; 0 events lost or incomplete.<' "$TMPD/valid-host-bpf.svg"
ok "a run without a backend says it has no causes" grep -q '>No kernel events were recorded (--backend none)' "$SVG"
ok "timeline ticks at round numbers (mmap, 6000 operations: 0, 1000 .. 5000)" \
	bash -c "grep -o 'text-anchor=\"middle\">[0-9k]*<' '$TMPD/valid-mmap.svg' | tr -dc '0-9k<\n' | tr '\n' ' ' | grep -q '^0< 1000< 2000< 3000< 4000< 5000< \$'"
ok "the checker finds an overlap it is given" \
	bash -c "sed 's|</svg>|<text x=\"20\" y=\"28\" font-size=\"17\" text-anchor=\"start\">over the title</text></svg>|' '$SVG' > '$TMPD/over.svg'; ! '$BOXES' '$TMPD/over.svg' >/dev/null"

# Threads at once: one time axis, not one thread's iterations after another's
X=$TMPD/threads.json
check "exec of 4 threads at once" \
	"$L run exec --backend none --slow p90 --json $X -- $TESTS_DIR/tests/exec/bin/markers_prog threads 4 2000 >/dev/null 2>&1" 0 ''
"$L" plot "$X" -o "$TMPD/threads.svg"
ok "... its timeline is one time axis for the 4" \
	grep -q '>Timeline: the slow iterations of 4 threads on one time axis, by primary cause<' "$TMPD/threads.svg"
ok "... in time since the first iteration" grep -q '>time since the first iteration began<' "$TMPD/threads.svg"
ok "... every text inside, none overlapping" "$BOXES" "$TMPD/threads.svg"
ok "one stream stays in run order" grep -q '>Timeline: the slow iterations in run order' "$SVG"

check_err "no file given" "$L plot" 2 '^latctl plot: give one result file'
check_err "a file that does not exist" "$L plot $TMPD/none.json -o $TMPD/x.svg" 2 'none\.json'
check_err "a result without its histogram" \
	"perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<>); delete \$d->{histogram}; print encode_json(\$d)' $TMPD/all.json > $TMPD/nohist.json; $L plot $TMPD/nohist.json -o $TMPD/x.svg" \
	2 "key 'histogram' is missing or not an object"
ok "nothing written for a refused input" test ! -e "$TMPD/x.svg"
check_err "an unwritable output path" "$L plot $TMPD/all.json -o $TMPD/no/such/dir.svg" 2 '^latctl: plot -o .*/no/such/dir.svg: cannot create a file there'
check_err "-o without a file" "$L plot $TMPD/all.json -o" 2 "option '-o' needs a value"
check "plot --help" "$L plot --help" 0 '^usage: latctl plot RESULT.json'
if command -v script >/dev/null; then
	check "plot without -o on a terminal (script's pseudo-terminal): refused, no SVG" \
		"script -qec '$L plot $TMPD/all.json' /dev/null; echo rc=\$?" 0 \
		'not writing SVG onto a terminal; give -o FILE.svg'
	ok "... exit 2, nothing else written" bash -c '[ "$(printf "%s\n" "$1" | tr -d "\r" | tail -1)" = rc=2 ] && ! printf "%s" "$1" | grep -q "<svg"' _ "$OUT"
	check "... -o - writes it there all the same" "script -qec '$L plot $TMPD/all.json -o -' /dev/null" 0 '</svg>'
else
	echo "ok $((_n + 1)) # skip plot on a terminal: no script(1)"
	echo "ok $((_n + 2)) # skip ... exit 2"
	echo "ok $((_n + 3)) # skip ... -o -"
	_n=$((_n + 3))
fi
done_testing
