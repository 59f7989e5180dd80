#!/bin/bash
# SPDX-License-Identifier: MIT
# run --repeat, compare and check on this machine (no latmon needed):
# --repeat N makes N runs in N fresh processes in one document and report
# prints their spread; compare of two --repeat 5 results of the same
# configuration finds no significant change up to p99.9, fits 80 columns,
# marks environment differences (--strict fails on them), gives no verdict
# with too few runs, writes its own JSON schema and the 0-day format; check
# exits 0 good, 1 bad, 125 for too few runs, incomplete events, another
# environment, a failed or missing run and a bad command line.
. "$(dirname "$0")/engine.sh"
export -f json_get

L=$LATCTL
# compare and check run with AddressSanitizer and UBSan where make check
# built that latctl (tests/fuzz/fuzz.mk): a memory error fails the test
C=${LATCTL_ASAN:-$TESTS_DIR/.cache/fuzz/latctl-asan}
if [ -x "$C" ]; then
	export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0:exitcode=99}
else
	echo "# $C not built (make $(realpath --relative-to="$TESTS_DIR" "$C")): compare and check run uninstrumented"
	C=$L
fi
A=$TMPD/a.json
B=$TMPD/b.json
ONE=$TMPD/one.json
RUN="$L run grow --iters 200000 --cpu 0 --quiet --repeat 5"

# A copy of FILE with perl code applied to the decoded document $d.
edit() {	# IN OUT PERL
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
		eval $ARGV[2]; die $@ if $@; open my $o, ">", $ARGV[1] or die;
		print $o JSON::PP->new->canonical->encode($d);' "$1" "$2" "$3"
}

# Both results at once on the same CPU, so that both see the same machine:
# one after the other, a change of load between them would be a real change.
$RUN --json "$A" & pa=$!
$RUN --json "$B" & pb=$!
ok "run --repeat 5 writes one result" wait $pa
ok "a second configuration-equal result, at the same time" wait $pb
# New A and B for a retry of a claim that holds with a known chance.
pair_again() { $RUN --json "$A" & $RUN --json "$B" & wait; }
export -f pair_again
export RUN A B
# An A/A comparison flags p99.9 with the test's 5% chance (and more when
# the load of the machine changes under one side): once is said, twice fails.
AA="two runs of one configuration differ by chance"
ok "a one-run result" $L run grow --iters 200000 --cpu 0 --quiet --json "$ONE"

check "the result holds 5 runs" "perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<>);
	print scalar(@{\$d->{repeat}{per_run}}), \" runs\n\"' $A" 0 '^5 runs$'
check "each run in its own process" "perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<>);
	my %p = map { \$_->{pid} => 1 } @{\$d->{repeat}{per_run}}; print scalar(keys %p), \" pids\n\"' $A" \
	0 '^5 pids$'
check "the pooled histogram (repeat.histogram) counts every run's iterations" "perl -MJSON::PP -e 'local \$/;
	my \$d = decode_json(<>); my \$n = 0; \$n += \$_->{count} for @{\$d->{repeat}{histogram}{buckets}};
	print \"\$n\n\"' $A" 0 '^1000000$'
check "the histogram beside the table is run 1's, as the table is" "perl -MJSON::PP -e 'local \$/;
	my \$d = decode_json(<>); my \$n = 0; \$n += \$_->{count} for @{\$d->{histogram}{buckets}};
	print \"\$n \", \$d->{summary}{count}, \"\n\"' $A" 0 '^200000 200000$'
check "the report says whose table and histogram they are" "$L report $A" 0 \
	'run 1 of 5 \(every run: at the end\).*'
check "... and prints the pooled histogram at the end, said so" "$L report $A" 0 \
	'histogram of all 5 runs pooled \(1000000 iterations\) in ns:'

check "report prints the per-run spread" "$L report $A" 0 \
	'5 runs, each in a fresh process.*'
check "report: median, min and max rows of p50..max" "$L report $A | grep -A4 'Spread of each run' | grep -Ec '^  (median|min|max) +[0-9]'" 0 '^3$'
check_err "--repeat 0 is refused" "$L run grow --repeat 0" 2 "--repeat '0' is out of range"
check_err "bad input in a run is said once" "$L run grow --iters 100 --repeat 2 --cpu 1023" 2 '--cpu 1023: cannot run there'

# compare: the same configuration twice
retry "$AA" pair_again check "compare of the same configuration: no change up to p99.9 is significant" \
	"$C compare $A $B | grep -E '^p(50|90|99|99\\.9)\\*? ' | grep -Ec ' [-+][0-9.]+% +[0-9.]+ +[0-9]+\\+[0-9]+\$'" 1 '^0$'
check "compare's rows carry p and n" "$C compare $A $B" 0 '^p99\.9\* .* 5\+5$'
# characters, not bytes (a "±" is two); the wide lines go to stderr, shown
check "compare fits 80 columns" "$C compare $A $B $ONE |
	perl -CSD -lne 'if (length > 80) { \$n++; print STDERR length, \": \", \$_ } END { print \$n // 0 }'" 0 '^0$'
# 11 cause labels in every run: 33 cause rows beside the metric rows, more
# than the table's first allocation (a row array that moves as it grows)
edit "$A" "$TMPD/many.json" 'my @l = qw(fault thp-zero preemption interrupt migration realloc
	reclaim compaction blocked syscall unattributed); for my $r (@{$d->{repeat}{per_run}}) {
	my $c = $r->{causes}{causes}[0]; my $i = 0;
	$r->{causes}{causes} = [ map { { %$c, label => $_, primary => 10 + $i, present => 20 + $i++ } } @l ] }'
check "compare of runs naming 11 causes: a row for each of the 33" \
	"cp $TMPD/many.json $TMPD/many1.json && $C compare $TMPD/many.json $TMPD/many1.json | grep -Ec '^cause '" 0 '^11$'
check "check of them: judged" "cp $TMPD/many.json $TMPD/many2.json && $C check --baseline $TMPD/many.json --metric count:reclaim $TMPD/many2.json" 0 \
	'good: .*count:reclaim'
check "compare names the causes and explains the change" "$C compare $A $B" 0 \
	'the change explained by causes: slow time per million iterations'
check "the causes' points add up to the change of the slow time" "$C compare $A $B | perl -ne '
	\$t = \$1 if /^\\S+ -> \\S+ \\(([-+][0-9.]+)%\\)\$/; \$s = \$1 if /\\(sum ([-+][0-9.]+)\\)/;
	END { print defined \$t && defined \$s && abs(\$t - \$s) <= 0.15 ? \"adds up \$t \$s\\n\" : \"no: \$t \$s\\n\" }'" 0 '^adds up'
# (an interval too wide for the row is on the next line: joined back here)
check "each cause row has its interval" "$C compare $A $B | sed -n '/^the change explained/,/points:/p' |
	perl -0pe 's/([ ~])\\n +(?=[-+][0-9.]+\\.\\.)/\\1 /g'" 0 \
	'^  [a-z-]+ +[0-9]+ -> [0-9]+ .*[-+][0-9.]+[ ~] ([-+][0-9.]+\.\.[-+][0-9.]+|unbounded)$'
# every run's fault slow time 100 us against 500 us, p99.9 left as it was:
# the cause row moves clear of 0, but the primary metric did not change
fault_ns() {	# IN OUT NS
	edit "$1" "$2" 'my $i = 0; for my $r (@{$d->{repeat}{per_run}}) {
		$_->{label} eq "fault" and $_->{total_ns} = '"$3"' + $i for @{$r->{causes}{causes}}; $i++ }'
}
fault_ns "$A" "$TMPD/causebase.json" 100000
fault_ns "$A" "$TMPD/causeonly.json" 500000
# cause_flags LABEL: "apart|overlaps significant|not" of LABEL's row in the
# compare JSON on stdin
cause_flags() {
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
		my ($f) = grep { $_->{cause} eq $ARGV[0] } @{$d->{comparisons}[0]{causes}};
		printf "%s %s\n", $f->{interval_excludes_0} ? "apart" : "overlaps",
			$f->{significant} ? "significant" : "not significant"' "$1"
}
export -f cause_flags
check "a cause row is never significant when the primary metric did not change" \
	"$C compare --json - $TMPD/causebase.json $TMPD/causeonly.json | cause_flags fault" 0 '^apart not significant$'
check "... and the text says why" "$C compare $TMPD/causebase.json $TMPD/causeonly.json" 0 \
	'~: not significant \(the primary metric did not$'
check "the same environment: nothing marked" "$C compare $A $B | sed -n '/^environment/,/^\$/p' | grep -c '^\\*'" 1 '^0$'
check "too few runs: no verdict, a line says how many" "$C compare $ONE $A" 0 \
	'no verdict: base has 1 run, new 5; a difference can be significant$'
check "too few runs: how many are needed" "$C compare $ONE $A" 0 \
	'^only with at least 4 runs a side \(run --repeat 4\)$'
check "too few runs: 'cannot tell' instead of a change" "$C compare $ONE $A | grep -E '^p99\\.9'" 0 ' cannot tell +- +1\+5$'
check "... no note of 0% confidence from the side of one run, but that it has no interval" \
	"echo \$($C compare $ONE $A | grep -c '0\\.0% confidence') \$($C compare $ONE $A | grep -c 'a side of one unit has no interval')" 0 '^0 1$'

# synthetic: invocations as units. Eight copies of A whose p99.9 runs are
# 1000 + 3i ns or 1500 + 3i ns: each invocation's runs agree, invocations
# differ by 50% (a drift between boots). One against one, the drift looks
# like a change; four against four, alternating, it is no change at all.
inv() {	# OUT BASE_NS
	edit "$A" "$1" 'my $i = 0; $_->{summary}{p99_9_ns} = '"$2"' + 3 * $i++ for @{$d->{repeat}{per_run}}'
}
for k in 1 2 3 4; do
	inv "$TMPD/inv_b$k.json" $((k % 2 ? 1000 : 1500))
	inv "$TMPD/inv_n$k.json" $((k % 2 ? 1500 : 1000))
	inv "$TMPD/inv_x$k.json" $((k % 2 ? 3000 : 4500))
done
IB="--baseline $TMPD/inv_b1.json --baseline $TMPD/inv_b2.json --baseline $TMPD/inv_b3.json --baseline $TMPD/inv_b4.json"
IN="$TMPD/inv_n1.json $TMPD/inv_n2.json $TMPD/inv_n3.json $TMPD/inv_n4.json"
IX="$TMPD/inv_x1.json $TMPD/inv_x2.json $TMPD/inv_x3.json $TMPD/inv_x4.json"
# synthetic: the two files above, p99.9 only 1000+3i against 1500+3i
check "one invocation a side: the drift between two is called a change" \
	"$C compare $TMPD/inv_b1.json $TMPD/inv_n1.json | grep -E '^p99\\.9'" 0 ' \+49\.[0-9]% +0\.008 +5\+5$'
check "... and the table says a drift cannot be told from a change there" \
	"$C compare $TMPD/inv_b1.json $TMPD/inv_n1.json" 0 '^  drift between invocations cannot be told from a change here; 4$'
check "four invocations a side, pooled: the same drift is no change" \
	"$C compare $IB --pool $IN | grep -E '^p99\\.9'" 0 ' (no change|cannot tell) +1\.000 +4\+4$'
check "... the units and the ICC of the primary metric are said" \
	"$C compare $IB --pool $IN" 0 '^  ICC of p99\.9 within an invocation: base 1\.00, new 1\.00$'
# synthetic: 4+4 invocation medians, every new one above every base one
check "... a real change over invocations is significant" \
	"$C compare $IB --pool $IX | grep -E '^p99\\.9'" 0 ' \+[0-9.]+% +0\.029 +4\+4$'
check "... the JSON counts invocations as units, with their ICC" \
	"$C compare --json - $IB --pool $IN | perl -MJSON::PP -e 'local \$/; my \$c = decode_json(<STDIN>)->{comparisons}[0];
	printf \"%s %d %d %d %.2f %d\n\", \$c->{unit}, \$c->{units_base}, \$c->{invocations_new}, \$c->{runs_new}, \$c->{icc_base}, scalar @{\$c->{new_files}}'" \
	0 '^invocation 4 4 20 1\.00 4$'
check "without --pool, each file is compared with the base side, said mixed" \
	"$C compare $IB $TMPD/inv_n1.json $TMPD/inv_n2.json" 0 '^  mixed units: the new side is one invocation'"'"'s runs, whose spread lacks$'
check "... a head line per comparison names both sides" \
	"$C compare $IB $TMPD/inv_n1.json $TMPD/inv_n2.json | grep -c 'inv_b1.json (+3 more) -> '" 0 '^2$'
check_err "--pool without --baseline is refused" "$C compare --pool $IN" 2 '^latctl compare: --pool needs the base side as --baseline files$'
check_err "a file on both sides is refused: its runs would count twice" \
	"$C compare $IB --pool $TMPD/inv_n1.json $TMPD/inv_b2.json" 2 'inv_b2\.json and .*inv_b2\.json are one file, given twice: its runs would count twice$'
check_err "--baseline needs a file to compare with it" "$C compare $IB" 2 '^latctl compare: give 1 to 60 results to compare with the --baseline files$'

# B with a THP mode other than A's (another run on the box may have changed
# the mode between the two) and a microcode no machine has: two rows differ.
athp=$(perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{environment}{thp_enabled}' < "$A")
edit "$B" "$TMPD/thp.json" 'my $e = $d->{environment}; $e->{microcode} = "0xnone";
	$e->{thp_enabled} = "'"$athp"'" eq "never" ? "always" : "never"'
check "a different environment is marked" "$C compare $A $TMPD/thp.json" 0 '^\* thp +madvise|^\* thp +always|^\* thp +never'
check "the marked rows are the different ones" "$C compare $A $TMPD/thp.json | grep -c '^\\*'" 0 '^2$'
check_err "--strict: a difference of the machine is an error" "$C compare --strict $A $TMPD/thp.json >/dev/null" 1 \
	'--strict: the machines or runs differ in 1 row'
ok "--strict: the same environment is fine" $C compare --strict "$A" "$B"
edit "$B" "$TMPD/kernel.json" '$d->{environment}{kernel_release} = "7.3.0-other"; $d->{environment}{thp_enabled} = "never"'
ok "--strict: another kernel is a kernel A/B, not an error" $C compare --strict "$A" "$TMPD/kernel.json"
edit "$B" "$TMPD/events.json" '$d->{options}{events} = 4096; $d->{options}{threads} = 3; $d->{backend}{name} = "none"'
check "every option of the run is compared: --events" "$C compare $A $TMPD/events.json | grep '^\\*'" 0 '^\* --events +default +4096'
check "... and a workload's own" "$C compare $A $TMPD/events.json | grep '^\\*'" 0 '^\* wl options +none +threads=3'
check "the backend that recorded is compared" "$C compare $A $TMPD/events.json | grep '^\\* backend'" 0 'none'
check_err "check: another option than the baseline: 125" "$C check --baseline $A $TMPD/events.json" 125 \
	'environment differs from the baseline: --events is'
check "the TSC frequency and latctl's version are in the environment" "$C compare $A $B" 0 '^  tsc .*GHz'
check "latctl's version row" "$C compare $A $B" 0 '^  latctl +[0-9]' 

ok "--json writes the comparison" $C compare --json "$TMPD/cmp.json" "$A" "$B"
check "its own schema" "json_get $TMPD/cmp.json schema" 0 '^latctl\.compare$'
check "its p99.9 row" "perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<>);
	my (\$r) = grep { \$_->{metric} eq \"p99.9\" } @{\$d->{comparisons}[0]{metrics}};
	print \"n=\$r->{base}{n}+\$r->{new}{n} verdict=\", (\$r->{verdict} ? 1 : 0), \"\n\"' $TMPD/cmp.json" \
	0 '^n=5\+5 verdict=1$'
check "--format lkp: the 0-day table" "$C compare --format lkp $A $B" 0 'latctl\.grow\.grow\.p99\.9_ns$'
check "--format lkp: its header" "$C compare --format lkp $A $B" 0 '%stddev +%change +%stddev'
check_err "compare needs two files" "$C compare $A" 2 'give a base and 1 to'
check_err "compare: an unknown --format" "$C compare --format csv $A $B" 2 "--format 'csv' is not valid"
edit "$A" "$TMPD/damaged.json" 'delete $d->{repeat}{per_run}[3]{summary}{p99_9_ns}'
check_err "compare: a damaged run is named" "$C compare $TMPD/damaged.json $B" 2 \
	'run 4: key "p99_9_ns" is missing'

# check
check "check: within an absolute limit: good (0)" "$C check --max p99.9=1s $A" 0 '^latctl check: good: .*p99\.9 .* <= 1s'
check "check: over an absolute limit: bad (1)" "$C check --max p50=1ns $A" 1 '^latctl check: bad: .*p50 .* > 1ns \(median of 5 runs\)'
check_err "check: a time limit without its unit: cannot tell (125), never read as ns" \
	"$C check --max p99.9=20 $A" 125 "limit '20' of p99.9 is not valid; give a time with its unit"
check_err "check: --regression without %: cannot tell (125)" \
	"$C check --baseline $B --regression 10 $A" 125 "--regression '10' is not valid; give a percentage"
check "check: a share limit" "$C check --max share:realloc=100% $A" 0 'good'
check "check: a count limit" "$C check --max count:realloc=0 $A" 1 'bad: .*count:realloc [1-9]'
# One configuration against itself is never bad; good when 5 runs a side
# show it within 10%, else 125 ("cannot tell", with the runs that would)
retry "$AA" pair_again check "check: the same configuration as the baseline: good (0) or cannot tell (125), never bad" \
	"$C check --baseline $A $B 2>&1; echo rc=\$?" 0 \
	'^rc=(0|125)$'
check "check: a result against itself: never bad" "$C check --baseline $A $A 2>&1; echo rc=\$?" 0 '^rc=(0|125)$'
# synthetic: every new run three times the slowest base run and more: the
# two sides never overlap, so p is the exact 2/252 of 5+5 runs apart,
# whatever the runs of this machine were.
edit "$A" "$TMPD/slow.json" 'my @r = @{$d->{repeat}{per_run}}; my ($m) = sort { $b <=> $a } map { $_->{summary}{p99_9_ns} } @r;
	my $i = 0; $_->{summary}{p99_9_ns} = 3 * $m * (1 + $i++ / 100) for @r'
check "check: p99.9 three times the baseline's: bad (1)" "$C check --baseline $A $TMPD/slow.json" 1 \
	'bad: .*p99\.9 .*\(\+[0-9.]+%, at least \+[0-9.]+% with 95% confidence, p=0\.008, n=5\+5\) over --regression 10%'
# synthetic: p50 of 1000..1004 ns against 1005..1009 and 1100..1104 ns
edit "$A" "$TMPD/p50a.json" 'my $i = 0; $_->{summary}{p50_ns} = 1000 + $i++ for @{$d->{repeat}{per_run}}'
edit "$A" "$TMPD/p50n.json" 'my $i = 0; $_->{summary}{p50_ns} = 1005 + $i++ for @{$d->{repeat}{per_run}}'
edit "$A" "$TMPD/p50s.json" 'my $i = 0; $_->{summary}{p50_ns} = 1100 + $i++ for @{$d->{repeat}{per_run}}'
check "compare: runs apart by 0.5% (p=0.008) are within noise: no change" \
	"$C compare --metric p50 $TMPD/p50a.json $TMPD/p50n.json | grep -E '^p50'" 0 '^p50\* .* no change +0\.008 +5\+5$'
# synthetic: the p50 files above
check "compare: runs apart by 10% are a change of the primary metric" \
	"$C compare --metric p50 $TMPD/p50a.json $TMPD/p50s.json | grep -E '^p50'" 0 '\+10\.0% +0\.008 +5\+5$'
# synthetic: the p50 files above
check "compare: the same 10% in an exploratory row is Holm-corrected: cannot tell" \
	"$C compare $TMPD/p50a.json $TMPD/p50s.json | grep -E '^p50 '" 0 ' cannot tell +0\.008 +5\+5$'
# synthetic: the p50 files above
check "compare: the primary line says its interval" "$C compare --metric p50 $TMPD/p50a.json $TMPD/p50s.json" 0 \
	'change \+10\.0%, 95% interval \+9\.[0-9]% \.\. \+10\.[0-9]%'
check_err "compare: --metric must be a metric" "$C compare --metric p42 $A $B" 2 "--metric: unknown metric 'p42'"
check_err "compare: --metric names a cause the join gives" "$C compare --metric count:fualt $A $B" 2 \
	"--metric: unknown cause 'fualt' in count:fualt; the causes are fault thp-zero "
# check decides on the one-sided 95% bounds of the change
edit "$A" "$TMPD/mid_base.json" 'my $i = 0; $_->{summary}{p99_9_ns} = 1000 + $i++ for @{$d->{repeat}{per_run}}'
edit "$A" "$TMPD/mid.json" 'my $i = 0; $_->{summary}{p99_9_ns} = (1000 + $i) * (1.06, 1.18, 0.97, 1.25, 1.12)[$i++] for @{$d->{repeat}{per_run}}'
check_err "check: a change neither shown within nor over --regression: 125, how many runs would settle it" \
	"$C check --baseline $TMPD/mid_base.json $TMPD/mid.json" 125 'neither shown within nor over --regression 10%; (about [0-9]+ runs a side|the change sits)'
# synthetic: the runs of mid.json spread over a factor of 27: no number of
# runs a reviewer would wait for settles it, and check says so
edit "$A" "$TMPD/wide.json" 'my $i = 0; $_->{summary}{p99_9_ns} = (1000 + $i) * (0.3, 3.5, 0.9, 8, 0.5)[$i++] for @{$d->{repeat}{per_run}}'
check_err "check: runs spread too widely: 125, said so, not 'the change sits at the limit'" \
	"$C check --baseline $TMPD/mid_base.json $TMPD/wide.json" 125 \
	'neither shown within nor over --regression 10%; the runs spread too widely: over 1000 runs a side'
# synthetic: a baseline whose p99.9 is 0 in every run: a rise from 0 has
# no ratio, and the line says "from 0", not "+0.0%"
edit "$A" "$TMPD/zero_base.json" '$_->{summary}{p99_9_ns} = 0 for @{$d->{repeat}{per_run}}'
check "check: a rise from 0 is bad and said to be from 0" \
	"$C check --baseline $TMPD/zero_base.json $TMPD/mid_base.json" 1 '0ns -> [0-9.]+us \(from 0, at least \+inf%'
# synthetic: tol_base.json and tol_new.json below, 1000..1004 against
# 3000..3004 ns; at one of K looks each bound is at 5%/K (Bonferroni)
edit "$A" "$TMPD/tol_base.json" 'my $i = 0; $_->{summary}{p99_9_ns} = 1000 + $i++ for @{$d->{repeat}{per_run}}'
edit "$A" "$TMPD/tol_new.json" 'my $i = 0; $_->{summary}{p99_9_ns} = 3000 + $i++ for @{$d->{repeat}{per_run}}'
check "check --looks 3: a look of a sequential driver, bounds over the 3 looks" \
	"$C check --baseline $TMPD/tol_base.json --looks 3 $TMPD/tol_new.json" 1 \
	'bad: .*at least \+[0-9.]+% with 95% confidence over the 3 looks, .*n=5\+5\) over --regression 10%'
check_err "check --looks 20: 5 runs a side cannot reach a bound at 5%/20: 125, said why" \
	"$C check --baseline $TMPD/tol_base.json --looks 20 $TMPD/tol_new.json" 125 \
	'too few runs a side for a bound at this confidence'
check_err "check --looks 0: refused" "$C check --baseline $TMPD/tol_base.json --looks 0 $TMPD/tol_new.json" 125 \
	"--looks '0' is not valid; give a whole number from 1 to 100"
edit "$TMPD/tol_new.json" "$TMPD/tol_new3.json" 'splice @{$d->{repeat}{per_run}}, 3'
edit "$TMPD/tol_new.json" "$TMPD/tol_new2.json" 'splice @{$d->{repeat}{per_run}}, 0, 3'
check_err "check: two boots of 3 and 2 runs, each alone: too few runs" \
	"$C check --baseline $TMPD/tol_base.json $TMPD/tol_new3.json $TMPD/tol_new2.json" 125 'too few runs: the baseline has 5, .*tol_new3.json has 3'
check "check --runs-together: their 5 runs judged as one side's runs" \
	"$C check --baseline $TMPD/tol_base.json --runs-together $TMPD/tol_new3.json $TMPD/tol_new2.json" 1 \
	'bad: .*tol_new3\.json \(\+1 more, their runs together\): p99\.9 .*n=5\+5\) over --regression 10%'
edit "$A" "$TMPD/nothp.json" '$_->{counters}{thp_fault_alloc} = undef for @{$d->{repeat}{per_run}}'
check_err "check: a metric without values (a kernel without THP): 125, never good" \
	"$C check --baseline $A --metric 'huge pages' $TMPD/nothp.json" 125 'huge pages has no value'
check_err "check --max on a metric without values: 125" "$C check --max 'huge pages=0' $TMPD/nothp.json" 125 \
	'huge pages has no value'
edit "$A" "$TMPD/hp0.json" 'my $i = 0; $_->{counters}{thp_fault_alloc} = 100 + $i++ for @{$d->{repeat}{per_run}}'
edit "$A" "$TMPD/hp1.json" 'my $i = 0; $_->{counters}{thp_fault_alloc} = 10 + $i++ for @{$d->{repeat}{per_run}}'
check "check: fewer huge pages are worse (lower is worse for that metric)" \
	"$C check --baseline $TMPD/hp0.json --metric 'huge pages' $TMPD/hp1.json" 1 'bad: .*huge pages .*worse by'
check "check: more huge pages are not a regression" \
	"$C check --baseline $TMPD/hp1.json --metric 'huge pages' $TMPD/hp0.json" 0 'good: .*huge pages'
# Invocations as units: several files a side, each its median
for k in 1 2 3 4; do
	edit "$A" "$TMPD/g$k.json" "\$_->{summary}{p99_9_ns} *= (1, 1.04, 0.97, 1.02)[$k - 1] for @{\$d->{repeat}{per_run}}"
	edit "$A" "$TMPD/n$k.json" "\$_->{summary}{p99_9_ns} *= 2 * (1.01, 0.98, 1.03, 0.99)[$k - 1] for @{\$d->{repeat}{per_run}}"
done
G="--baseline $TMPD/g1.json --baseline $TMPD/g2.json --baseline $TMPD/g3.json --baseline $TMPD/g4.json"
check "check --pool: four invocations a side, twice as slow: bad, invocations the units" \
	"$C check $G --pool $TMPD/n1.json $TMPD/n2.json $TMPD/n3.json $TMPD/n4.json" 1 \
	'bad: .*n1\.json \(\+3 more\): p99\.9 .*units: invocations, base 4, new 4; ICC of the runs in one invocation'
check "check --pool: the same kernel's invocations: never bad" \
	"$C check $G --pool $TMPD/g1.json $TMPD/g2.json $TMPD/g3.json $TMPD/g4.json; echo rc=\$?" 0 'rc=(0|125)$'
check_err "check --pool: two invocations a side are too few units: 125" \
	"$C check --baseline $TMPD/g1.json --baseline $TMPD/g2.json --pool $TMPD/n1.json $TMPD/n2.json" 125 \
	'too few runs: the baseline has 2, .* has 2; .*or 4 invocations\)'
edit "$TMPD/tol_base.json" "$TMPD/tol_two.json" 'splice @{$d->{repeat}{per_run}}, 2'
check "compare --json: too few runs for an interval: its bounds are null, not -100%" \
	"$C compare --json - $TMPD/tol_base.json $TMPD/tol_two.json | perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<STDIN>);
		my (\$m) = grep { \$_->{metric} eq \"p99.9\" } @{\$d->{comparisons}[0]{metrics}};
		print defined \$m->{change_lo_pct} ? \"lo \$m->{change_lo_pct}\" : \"lo null\", \"\\n\"'" 0 '^lo null$'
edit "$B" "$TMPD/noexit.json" 'delete $d->{exit_code}'
check_err "check: a result without its exit code: 125, said (not 'exit code -nan')" \
	"$C check --max p99.9=1s $TMPD/noexit.json" 125 'noexit\.json: the result has no exit code'
edit "$B" "$TMPD/runfail.json" '$d->{repeat}{per_run}[2]{exit_code} = 1'
check_err "check: a run of the series failed: 125" "$C check --baseline $A $TMPD/runfail.json" 125 \
	'run 3 of 5 failed \(exit code 1\)'
# tol_base.json and tol_new.json (above): +200% by construction
check "check: a large --regression tolerates it" "$C check --baseline $TMPD/tol_base.json --regression 500% $TMPD/tol_new.json" 0 'within --regression 500%'
check_err "check: too few runs: 125" "$C check --baseline $A $ONE" 125 'too few runs: the baseline has 5, .* has 1'
edit "$B" "$TMPD/lost.json" '$d->{repeat}{per_run}[2]{latmon}{lost_by_latmon} = 7'
check_err "check: lost events: 125" "$C check --max p99.9=1s $TMPD/lost.json" 125 'incomplete: run 3 of 5 lost 7 events'
edit "$B" "$TMPD/cpu.json" '$d->{environment}{cpu_model} = "Other CPU"'
check_err "check: another machine than the baseline: 125" "$C check --baseline $A $TMPD/cpu.json" 125 \
	"environment differs from the baseline: cpu is '.*' there, 'Other CPU' here"
# The TSC is calibrated at each boot (a bisect boots every step): 0.5%
# apart is one machine, 5% apart another.
edit "$B" "$TMPD/tsc_near.json" '$d->{environment}{tsc_hz} *= 1.005'
check "check: a TSC 0.5% apart (another boot) is the same machine" \
	"$C check --baseline $A --regression 500% $TMPD/tsc_near.json" 0 'within --regression 500%'
check "compare: ... and not marked" "$C compare $A $TMPD/tsc_near.json | grep -c '^\\* tsc'" 1 '^0$'
edit "$B" "$TMPD/tsc_far.json" '$d->{environment}{tsc_hz} *= 1.05'
check_err "check: a TSC 5% apart is another machine: 125" "$C check --baseline $A $TMPD/tsc_far.json" 125 \
	"environment differs from the baseline: tsc is '.* GHz' there, '.* GHz' here"
edit "$B" "$TMPD/touched.json" '$d->{run}{mode} = "touched"'
check_err "check: another run than the baseline: 125" "$C check --baseline $A $TMPD/touched.json" 125 \
	"environment differs .*mode is 'grow' there, 'touched' here"
edit "$B" "$TMPD/kernel.json" '$d->{environment}{kernel_release} = "6.99.0-bisect"'
check "check: another kernel is what a bisect changes: judged (good, or 125 on the change itself)" \
	"$C check --baseline $A $TMPD/kernel.json 2>&1; echo rc=\$?" 0 '(good|cannot tell \(125\)): .*kernel\.json: p99\.9 '
# The machine's facts (environment.facts): a kernel-side one that differs
# is named after the verdict and under compare's table; another hypervisor
# is another machine.
edit "$B" "$TMPD/zp.json" '$d->{environment}{facts}{zero_page} = $d->{environment}{facts}{zero_page} ? JSON::PP::false : JSON::PP::true'
check "check: a zero page on one side only: judged, and the verdict names it" \
	"$C check --baseline $A $TMPD/zp.json 2>&1; echo rc=\$?" 0 '\[the machines differ in zero page\]'
check "compare: ... the row marked and one line naming it" \
	"$C compare $A $TMPD/zp.json" 0 '(^\* zero page .*|the machines differ in zero page \(marked \*\): a difference below may be the machine.s)'
ok "compare: ... both" bash -c "$C compare $A $TMPD/zp.json | grep -c -e '^\* zero page' -e '^the machines differ in zero page' | grep -qx 2"
edit "$B" "$TMPD/hv.json" '$d->{environment}{facts}{hypervisor} = "Xen"'
check_err "check: another hypervisor than the baseline's: 125" "$C check --baseline $A $TMPD/hv.json" 125 \
	"environment differs from the baseline: hypervisor is '.*' there, 'Xen' here"
edit "$B" "$TMPD/failed.json" '$d->{exit_code} = 1'
check_err "check: a failed run: 125" "$C check --max p99.9=1s $TMPD/failed.json" 125 'the run failed \(exit code 1\)'
check_err "check: no result (timeout): 125" "$C check --max p99.9=1s $TMPD/none.json" 125 'no result in .*none.json'
check_err "check: a --baseline that is not there: said so, 125" "$C check --baseline $TMPD/nosuch.json $A" 125 \
	'--baseline .*nosuch.json: No such file or directory$'
check_err "check: a bad command line is 125, never 2" "$C check --max p99.9=fast $A" 125 "limit 'fast' of p99.9 is not valid"
check_err "check: nothing to check: 125" "$C check $A" 125 'nothing to check'
check "check --dry-run: valid options and a usable baseline: 0, nothing judged" \
	"$C check --dry-run --baseline $A --metric fault:p50 --regression 20%" 0 'the options are valid and every --baseline is usable'
check_err "check --dry-run: a typo is 125 with the reason" "$C check --dry-run --baseline $A --metric share:fualt" 125 \
	"unknown cause 'fualt'"
check_err "check: a cause label that does not exist: 125, never good" \
	"$C check --baseline $A --metric count:nosuch $TMPD/tol_new.json" 125 "--metric: unknown cause 'nosuch' in count:nosuch"
check_err "check: ... in --max as well" "$C check --max share:fualt=20% $A" 125 "--max: unknown cause 'fualt'"
edit "$B" "$TMPD/gap.json" 'delete $d->{repeat}{per_run}[2]{causes}{fault_ns}'
check_err "check: a metric missing in one run of five: 125, naming the run" \
	"$C check --baseline $A --metric fault:p50 $TMPD/gap.json" 125 \
	'fault:p50 has no value in run 3 of 5 of .*gap.json, and a value in 4 other runs'
# p50 +10% exactly (at the limit: 125 on its own), p99.9 x3 (bad on its own)
edit "$A" "$TMPD/two_base.json" 'my $i = 0; for (@{$d->{repeat}{per_run}}) {
	$_->{summary}{p50_ns} = 1000 + $i; $_->{summary}{p99_9_ns} = 1000 + $i++ }'
edit "$A" "$TMPD/two_new.json" 'my $i = 0; for (@{$d->{repeat}{per_run}}) {
	$_->{summary}{p50_ns} = 1100 + $i; $_->{summary}{p99_9_ns} = 3000 + $i++ }'
check_err "check: p50 alone sits at the limit: 125" \
	"$C check --baseline $TMPD/two_base.json --metric p50 $TMPD/two_new.json" 125 'p50 .*neither shown'
check "check: p50 and p99.9 together: bad, p99.9 over at 95% across both" \
	"$C check --baseline $TMPD/two_base.json --metric p50 --metric p99.9 $TMPD/two_new.json" 1 \
	'bad: .*p99\.9 .*with 95% confidence over the 2 metrics'
check "check: ... and the same in the other order" \
	"$C check --baseline $TMPD/two_base.json --metric p99.9 --metric p50 $TMPD/two_new.json" 1 \
	'bad: .*p99\.9 .*over the 2 metrics'
check_err "check: one file as baseline and result: 125" "$C check --baseline $A $A" 125 \
	'are one file, given twice \(as --baseline and as a result\)'
for i in 1 2 3 4; do cp "$A" "$TMPD/inv$i.json"; done
check "check: four baseline invocations against one file's runs: the mixed units said" \
	"$C check --baseline $TMPD/inv1.json --baseline $TMPD/inv2.json --baseline $TMPD/inv3.json --baseline $TMPD/inv4.json --max p99.9=1s $B 2>&1; true" \
	0 'units: invocations, base 4, runs, new 5; .*mixed units'

done_testing
