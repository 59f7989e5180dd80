#!/bin/bash
# SPDX-License-Identifier: MIT
# Every bad input: one clear line on stderr, exit 2 (or 1 for a refusal),
# nothing on stdout, nothing left behind.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
check "no command prints the usage" "$L" 2 '^usage: latctl COMMAND' 
check_err "unknown command" "$L frobnicate" 2 "unknown command 'frobnicate'"
check_err "unknown workload" "$L run nosuch" 2 "unknown workload 'nosuch'; 'latctl list'"
check_err "no workload" "$L run --iters 10" 2 'no workload given'
check_err "two workloads" "$L run grow grow" 2 "unexpected argument 'grow'"
check_err "unknown long option" "$L run grow --frob" 2 "unknown option '--frob'"
check_err "unknown short option" "$L run grow -Z" 2 "unknown option '-Z'"
check_err "option without its value" "$L run grow --iters" 2 "'--iters' needs a value"
check_err "--iters -1" "$L run grow --iters -1" 2 "--iters '-1' is negative"
check_err "--iters abc" "$L run grow --iters abc" 2 "--iters 'abc' is not valid; give a whole number"
check_err "--iters 12x" "$L run grow --iters 12x" 2 "--iters '12x' is not valid"
check_err "--iters overflow" "$L run grow --iters 99999999999999999999999" 2 \
	"--iters '99999999999999999999999' is out of range"
check_err "--iters 0" "$L run grow --iters 0" 2 "--iters '0' is out of range"
check_err "--iters above the limit" "$L run grow --iters 1000000001" 2 "out of range"
check_err "--cpu abc" "$L run grow --cpu abc" 2 "--cpu 'abc' is not valid"
check_err "--cpu -1" "$L run grow --cpu -1" 2 "--cpu '-1' is negative"
check_err "--cpu of a CPU that does not exist" "$L run grow --cpu 1000 --iters 10" 2 \
	'--cpu 1000: cannot run there .*CPUs online'
check_err "--seed overflow" "$L run grow --seed 18446744073709551616" 2 "out of range"
check_err "--slow nonsense" "$L run grow --slow fast" 2 "--slow 'fast' is not valid; give a percentile"
check_err "--slow without unit" "$L run grow --slow 5" 2 "--slow '5' is not valid"
check_err "--slow p100" "$L run grow --slow p100" 2 "--slow 'p100' is not valid"
check_err "--slow -5us" "$L run grow --slow -5us" 2 "--slow '-5us' is negative"
check_err "--thp bogus" "$L run grow --thp sometimes" 2 "give always, madvise or never"
check_err "--mode unknown" "$L run grow --mode sideways" 2 "grow has no mode 'sideways'; modes: grow\\|reserved\\|touched"
check_err "--rate does not apply to grow" "$L run grow --rate 1000" 2 '--rate does not apply to grow'
check_err "--threads does not apply to grow" "$L run grow --threads 2" 2 '--threads does not apply to grow'
check_err "--hugepage does not apply to grow" "$L run grow --hugepage" 2 '--hugepage does not apply to grow'
check_err "--duration does not apply to grow" "$L run grow --duration 1s" 2 '--duration does not apply to grow'
check_err "--rate abc" "$L run grow --rate abc" 2 "--rate 'abc' is not valid"
check_err "--duration 5parsecs" "$L run grow --duration 5parsecs" 2 "--duration '5parsecs' is not valid"
# conflicting or repeated options: one line, never the last one silently
check_err "--json twice: refused" "$L run grow --iters 10 --json $TMPD/o1.json --json $TMPD/o2.json" 2 \
	'--json given twice .*give one file'
check_err "--thp given twice: refused" "$L run grow --iters 10 --thp always --thp never" 2 \
	'--thp given twice \(always and never\)'
# units are never guessed: a bare number is refused wherever a time or a share is due
check_err "--duration 5 (a bare number): refused" "$L run mmap --duration 5 --iters 10" 2 \
	"--duration '5' is not valid; give a time with its unit"
check_err "--duration 5 ms (the unit apart): refused, not taken for a command" \
	"$L run exec --duration 5 ms -- true" 2 "--duration '5' is not valid"


# --json that cannot be written: fails before the run, leaves nothing
check_err "--json into a missing directory" "$L run grow --iters 10 --json $TMPD/no/such/r.json" 2 \
	"--json $TMPD/no/such/r.json: cannot create a file there: No such file or directory"
mkdir "$TMPD/adir"
check_err "--json naming a directory" "$L run grow --iters 1000 --json $TMPD/adir" 2 \
	"--json $TMPD/adir is a directory; give a file name"
ok "nothing left behind by the failed --json" \
	bash -c "[ -z \"\$(ls -A '$TMPD/adir')\" ] && ! ls '$TMPD' | grep -q 'tmp\\.'"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir "$TMPD/ro" && chmod 755 "$TMPD/ro"
	check_err "--json in a directory the user cannot write" \
		"setpriv --reuid=nobody --regid=nogroup --clear-groups $L run grow --iters 10 --json $TMPD/ro/r.json" 2 \
		'cannot create a file there: Permission denied; choose a writable directory'
	ok "no file created in the read-only directory" test -z "$(ls -A "$TMPD/ro")"
fi

# report: missing, empty, truncated, malformed, not ours, damaged
J=$TMPD/good.json
"$L" run grow --iters 2000 --quiet --json "$J"
size=$(stat -c %s "$J")
head -c $((size / 2)) "$J" > "$TMPD/trunc.json"
: > "$TMPD/empty.json"
printf '{"schema": "latctl.result", "schema_version": 1, oops}' > "$TMPD/bad.json"
echo '{"hello": 1}' > "$TMPD/other.json"
sed 's/"schema_version":[^,]*/"schema_version":\t99/' "$J" > "$TMPD/v99.json"
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); delete $d->{summary}{p99_ns};
	print encode_json($d)' < "$J" > "$TMPD/nokey.json"
check_err "report of a missing file" "$L report $TMPD/none.json" 2 "cannot read $TMPD/none.json: No such file"
check_err "report of an empty file" "$L report $TMPD/empty.json" 2 'is empty'
check_err "report of a truncated file" "$L report $TMPD/trunc.json" 2 'ends early at byte [0-9]+: the file is truncated'
check_err "report of malformed JSON" "$L report $TMPD/bad.json" 2 'is not valid JSON \(error near byte [0-9]+'
check_err "report of JSON that is not a result" "$L report $TMPD/other.json" 2 'not a latctl result'
check_err "report of a newer schema" "$L report $TMPD/v99.json" 2 'schema_version 99; this latctl reads version 2'
check_err "report of a result missing a key" "$L report $TMPD/nokey.json" 2 '"p99_ns" is missing'
# a key twice in one object: a reader sees only the first, so it is refused
sed '0,/"p99_ns":/s//"p99_ns":\t1, "p99_ns":/' "$J" > "$TMPD/dup.json"
check_err "plot -o twice: refused" "$L plot $J -o $TMPD/a.svg -o $TMPD/b.svg" 2 '-o given twice'
check_err "compare a file with itself: refused" "$L compare $J $J" 2 'one file, given twice'
check_err "report of a result with a key twice in one object" "$L report $TMPD/dup.json" 2 \
	'has the key "p99_ns" twice in one object, with two values: it was edited or damaged'
check_err "compare refuses it too" "$L compare $J $TMPD/dup.json" 2 'has the key "p99_ns" twice'
# the same value twice (a --repeat result of an earlier latctl: latctl_version)
sed '0,/"latctl_version":[^,]*,/s//&&/' "$J" > "$TMPD/same.json"
ok "a key twice with one value is read as it was" bash -c "test \"\$(grep -c latctl_version '$TMPD/same.json')\" = 1 &&
	grep -q '\"latctl_version\":.*\"latctl_version\":' '$TMPD/same.json' && '$L' report '$TMPD/same.json' > /dev/null"
check_err "report without a file" "$L report" 2 'give one result file'
check "the good file still reports" "$L report $J" 0 '^grow, mode grow: 2000 pushes'
done_testing
