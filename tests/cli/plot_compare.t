#!/bin/bash
# SPDX-License-Identifier: MIT
# latctl plot of a comparison (two results, or a compare --json document):
# rendered to PNG (rsvg-convert), the base's causes are drawn in the left
# bar of each pair and the new side's in the right one, each cause's change
# in slow time points left (less) or right (more) of zero, a significant
# change of the percentiles is printed, the compare document gives the same
# picture, and without its results it is drawn without the histograms.
. "$(dirname "$0")/engine.sh"

command -v rsvg-convert >/dev/null || skip_all "rsvg-convert (librsvg2-bin) is not installed; scripts/deps.sh installs it"
L=$LATCTL
PNG=$TESTS_DIR/tests/cli/png_colours.pl
CORPUS=$TESTS_DIR/tests/fuzz/corpus
BASE=$CORPUS/fuzz_result/valid-vm-latmon.json	# slow: realloc 3, unexplained 1
REP=$CORPUS/fuzz_compare/vm-repeat-4.json	# 4 runs
# Areas of user/plot/plot_int.h and user/plot/plot_compare.c: the histograms; the
# cause bars left and right of zero; the percentile panel.
HIST=92,92,729,368
LESS=649,451,748,699
MORE=752,451,851,699
PCT=90,451,460,699
REALLOC=56B4E9 THPZERO=D55E00 FAST=D9D9D9 NEWIV=555555 NEWFAST=A3A3A3
# the cause colours at 40% over white: a change compare calls not significant
PREALLOC=BBE1F6 PTHPZERO=EEBF99
BOXES=$TESTS_DIR/tests/cli/svg_text_boxes.pl

edit() {	# IN OUT PERL: a copy of IN with perl code applied to $d
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
		eval $ARGV[2]; die $@ if $@; open my $o, ">", $ARGV[1] or die; print $o encode_json($d)' "$@"
}
# SVG: render to SVG.png and count, in one decode, the colours of every
# area below and of each column of the histograms, into SVG.m.
png() {
	local q
	rsvg-convert "$1" -o "$1.png" || return 1
	q=$(for a in $HIST $LESS $MORE $PCT; do for c in $REALLOC $THPZERO $FAST $NEWIV $NEWFAST $PREALLOC $PTHPZERO; do echo "$a:$c"; done; done
		awk -v r=$REALLOC -v t=$THPZERO 'BEGIN { for (x = 92; x <= 729; x++) print x ",92," x ",368:" r "\n" x ",92," x ",368:" t }')
	paste -d' ' <(printf '%s\n' "$q") <("$PNG" "$1.png" $q) > "$1.m"
}
count() {	# SVG AREA COLOUR: pixels of that colour in that area
	awk -v k="$2:$3" '$1 == k { print $2 }' "$1.m"
}
columns() {	# SVG COLOUR: the x of every column of the histograms with that colour
	awk -v c="$2" '{ split($1, p, /[,:]/) } p[1] == p[3] && p[2] == 92 && p[5] == c && $2 > 0 { print p[1] }' "$1.m"
}

cd "$TMPD" || exit 1
cp "$BASE" base.json
# The same run with its realloc iterations and cause relabelled thp-zero.
edit base.json thp.json '$_->{primary} eq "realloc" and $_->{primary} = "thp-zero" for @{$d->{slow}{iterations}};
	$_->{label} eq "realloc" and $_->{label} = "thp-zero" for @{$d->{causes}{causes}}'

ok "plot BASE NEW writes an SVG" "$L" plot base.json thp.json -o bt.svg
ok "it renders" png bt.svg
ok "the picture is 1000 x 800" \
	test "$(perl -e 'open F, "<:raw", shift; read F, $h, 24; print join "x", unpack "x16NN", $h' bt.svg.png)" = 1000x800
ok "histograms: both sides' iterations that are not slow (grey)" test "$(count bt.svg $HIST $FAST)" -gt 1000
ok "histograms: the base's cause (realloc) in its colour" test "$(count bt.svg $HIST $REALLOC)" -gt 20
ok "histograms: the new side's cause (thp-zero) in its colour" test "$(count bt.svg $HIST $THPZERO)" -gt 20
columns bt.svg $REALLOC > r.cols
columns bt.svg $THPZERO > t.cols
ok "no column holds both causes" bash -c "! comm -12 <(sort r.cols) <(sort t.cols) | grep -q ."
# Columns of one colour less than 4 apart (hatch lines) are one bar. From
# left to right the bars alternate realloc (base), thp-zero (new), each new
# bar at most 8 pixels right of the base bar before it.
bars() {	# R.COLS T.COLS: "x0 x1 r|t" per bar, left to right
	{ sed 's/$/ r/' "$1"; sed 's/$/ t/' "$2"; } | sort -n |
		awk '$2 != c || $1 > e + 3 { if (c != "") print s, e, c; s = $1; c = $2 } { e = $1 } END { if (c != "") print s, e, c }'
}
bars r.cols t.cols > bt.bars
ok "bars of both causes, in pairs: base realloc, then new thp-zero ($(wc -l < bt.bars) bars)" \
	awk 'NR % 2 == 1 && $3 != "r" { exit 1 } NR % 2 == 0 && ($3 != "t" || $1 > e + 8) { exit 1 }
		{ e = $2 } END { exit !(NR >= 4 && NR % 2 == 0) }' bt.bars
ok "swapped: plot NEW BASE" "$L" plot thp.json base.json -o tb.svg
ok "it renders" png tb.svg
columns tb.svg $REALLOC > r2.cols
columns tb.svg $THPZERO > t2.cols
bars r2.cols t2.cols > tb.bars
ok "swapped: the first cause bar is thp-zero's (now the base), the next realloc's" \
	awk 'NR == 1 && $3 != "t" { exit 1 } NR == 2 && $3 != "r" { exit 1 } END { exit NR < 2 }' tb.bars
ok "the same file on both sides" "$L" plot base.json base.json -o bb.svg
ok "it renders" png bb.svg
ok "no thp-zero in its histograms" test "$(count bb.svg $HIST $THPZERO)" = 0

ok "histograms: the new side's iterations that are not slow in its darker grey" test "$(count bt.svg $HIST $NEWFAST)" -gt 1000
ok "causes: realloc's bar points left of zero (less slow time)" test "$(count bt.svg $LESS $PREALLOC)" -gt 100
ok "causes: thp-zero's bar points right of zero (more)" test "$(count bt.svg $MORE $PTHPZERO)" -gt 100
ok "causes: nothing of realloc right of zero, nothing of thp-zero left" \
	test "$(count bt.svg $MORE $PREALLOC)" = 0 -a "$(count bt.svg $LESS $PTHPZERO)" = 0
ok "causes: one run a side shows no change, so both bars are pale, not in full colour" \
	test "$(count bt.svg $LESS $REALLOC)" = 0 -a "$(count bt.svg $MORE $THPZERO)" = 0
ok "the notes say what ~ and pale mean" grep -q '~ and pale: not shown.<' bt.svg
ok "the notes name each side's backend" grep -q '>Causes recorded by: base latmon (the kernel module), new latmon (the kernel module); events lost' bt.svg
ok "every text inside the canvas, none overlapping" "$BOXES" bt.svg
ok "causes: the counts base -> new (per million iterations) are written" grep -Eq '>-[0-9.]*( ~)? \([0-9]+-&gt;0\)<' bt.svg
ok "one run a side: no verdict, said per percentile" grep -q '>cannot tell<' bt.svg

# Four runs a side, the new one twice as slow: p50 ... p99.9 significantly worse.
edit "$REP" rep.json ''
edit rep.json slow2.json 'for my $r ($d, @{$d->{repeat}{per_run}}) { $_ *= 2 for values %{$r->{summary}} }'
ok "plot of two --repeat 4 results" "$L" plot rep.json slow2.json -o sig.svg
ok "it renders" png sig.svg
ok "percentiles: the new side's intervals are drawn" test "$(count sig.svg $PCT $NEWIV)" -gt 50
ok "the doubled percentiles show +100.0%, in bold" grep -q 'font-weight="bold">+100.0%<' sig.svg
ok "every text inside the canvas, none overlapping" "$BOXES" sig.svg
# The new side's threshold close to the axis: its label moves off the axis.
edit thp.json low.json '$d->{slow}{threshold_ns} = 2.1'
ok "a threshold by the y axis: plotted" "$L" plot base.json low.json -o low.svg
ok "its label lies right of its line, clear of the axis and the other texts" "$BOXES" low.svg
check "the same results against themselves: no change is significant" \
	"'$L' plot rep.json rep.json | grep -c '>no change<'" 0 '^[1-9]'
ok "and none is printed as a change" bash -c "! '$L' plot rep.json rep.json | grep -q '>[+-][0-9.]*%<'"

ok "one --repeat result alone: the legend says its grey holds the later runs' slow ones" \
	bash -c "'$L' plot rep.json | grep -q '>and the slow ones of runs 2..N<'"
ok "and the notes that the slow iterations drawn are run 1's" \
	bash -c "'$L' plot rep.json | grep -q '>Run 1 of the --repeat: [0-9]* slow iterations'"
ok "a one-run result says neither" bash -c "! '$L' plot base.json | grep -q -e 'runs 2..N' -e 'Run 1 of'"

# A comparison document gives the same picture; away from its results, none of the histograms.
"$L" compare base.json thp.json --json cmp.json >/dev/null
ok "plot COMPARISON.json: the same picture as plot BASE NEW" bash -c "'$L' plot cmp.json -o c.svg && cmp -s c.svg bt.svg"
mkdir far near
cp cmp.json far/ && cp cmp.json base.json thp.json near/
ok "run elsewhere, results next to the comparison: still the same picture" \
	bash -c "cd / && '$L' plot '$TMPD/near/cmp.json' -o '$TMPD/n.svg' && cmp -s '$TMPD/n.svg' '$TMPD/bt.svg'"
check_err "results not found: one line says so, the picture is still drawn" \
	"cd / && '$L' plot '$TMPD/far/cmp.json' -o '$TMPD/f.svg'" 0 \
	'^latctl plot: .*far/cmp.json: cannot read the base result base.json; the histograms are left out$'
ok "that picture renders" png f.svg
ok "and says why in place of the histograms" grep -q '>cannot read the base result base.json<' f.svg
# (the anti-aliased edges of the text there have some pixels of that grey)
ok "without grey bars" test "$(count f.svg $HIST $FAST)" -lt "$(($(count bt.svg $HIST $FAST) / 20))"
ok "but with the causes" test "$(count f.svg $MORE $PTHPZERO)" -gt 100

check_err "three files" "'$L' plot base.json thp.json base.json" 2 "^latctl plot: unexpected argument 'base.json'"
check_err "a new side that is not a result" "echo '{}' > e.json; '$L' plot base.json e.json -o x.svg" 2 'e\.json'
edit cmp.json nokey.json 'delete $d->{comparisons}[0]{metrics}[0]{base}{median}'
check_err "a comparison missing a key" "'$L' plot nokey.json -o x.svg" 2 \
	"^latctl plot: nokey.json: key 'median' is missing or of the wrong type$"
edit cmp.json two.json 'push @{$d->{comparisons}}, $d->{comparisons}[0]'
check_err "a comparison of three files" "'$L' plot two.json -o x.svg" 2 'holds 2 comparisons; plot one pair'
edit cmp.json v9.json '$d->{schema_version} = 9'
check_err "another schema version" "'$L' plot v9.json -o x.svg" 2 'compare schema_version 9'
ok "nothing written for a refused input" test ! -e x.svg
check "plot --help names the comparison" "'$L' plot --help" 0 '^       latctl plot BASE.json NEW.json'
done_testing
