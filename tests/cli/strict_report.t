#!/bin/bash
# SPDX-License-Identifier: MIT
# `latctl report` reads a result through one strict reader: a file missing a
# key it would print is refused with one line naming the key, exit 2.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
GOOD=$TESTS_DIR/tests/fuzz/corpus/fuzz_result/valid-vm-latmon.json

# FILE: GOOD with the member "$2" of the object at path "$1" deleted
without() {
	perl -MJSON::PP -e '
		my ($in, $path, $key, $out) = @ARGV;
		open(my $f, "<", $in) or die; local $/; my $doc = decode_json(<$f>);
		my $o = $doc;
		for my $p (grep { length } split /\./, $path) {
			$o = $p =~ /^\d+$/ ? $o->[$p] : $o->{$p};
		}
		delete $o->{$key} or die "no $key";
		open(my $g, ">", $out) or die; print $g encode_json($doc);
	' "$GOOD" "$1" "$2" "$3"
}

check "the whole result renders" "$L report $GOOD" 0 'Causes of the 19 slow iterations'
without causes slow_iterations "$TMPD/a.json"
check_err "causes.slow_iterations deleted" "$L report $TMPD/a.json" 2 \
	'key "slow_iterations" is missing or has the wrong type'
without causes.causes.0 label "$TMPD/b.json"
check_err "one label deleted" "$L report $TMPD/b.json" 2 'key "label" is missing'
without extras reallocations "$TMPD/c.json"
check_err "extras.reallocations deleted" "$L report $TMPD/c.json" 2 \
	'key "reallocations" is missing'
without slow.iterations.0.breakdown_ticks realloc "$TMPD/d.json"
check_err "one share of a breakdown deleted" "$L report $TMPD/d.json" 2 \
	'key "breakdown_ticks" is missing or has the wrong type'
without "" extras "$TMPD/e.json"
check_err "the extras of a workload that has them deleted" "$L report $TMPD/e.json" 2 \
	'key "extras" is missing'

# A result with switch-ins the kernel did not report says how many and how
# their ends were found; one written before latctl counted them says
# nothing of them.
BPF=$TESTS_DIR/tests/fuzz/corpus/fuzz_result/valid-host-bpf.json
perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); $d->{backend}{switch_ins_missed} = 3;
	$d->{backend}{switch_ins_bounded} = 2; print encode_json($d)' "$BPF" > "$TMPD/m.json"
check "missed switch-ins are counted in the report" "$L report $TMPD/m.json" 0 \
	'^~ estimated: 3 times the kernel reported a switch-out of a measured thread but not the switch-in.*TSC read \(2 of them\)'
check "... and not in a result without the count" "$L report $BPF | grep -c 'not the switch-in'" 1 '^0$'
done_testing
