#!/bin/bash
# SPDX-License-Identifier: MIT
# README.md: a first-time reader finds the two commands, the requirements
# and what the report means in its first 100 lines; it shows no trace of
# one machine; every host example in it (a ``` block whose first line is
# "$ latctl ..." without --vm) is re-run and each line it shows must have
# the shape of a line the current code prints (numbers and units aside).
. "$(dirname "$0")/engine.sh"

R=$TESTS_DIR/README.md
head -n 100 "$R" > "$TMPD/head"
for want in 'make run' 'make check' '## Requirements' 'x86-64' '5.18' 'CONFIG_KPROBES' \
	    'CONFIG_KRETPROBES' 'CONFIG_TRACEPOINTS' '**Root**' '## What a report says' \
	    'thp-zero' 'unexplained' 'unattributed' '**Lab course**' '**Test box**' \
	    '**Kernel bisect**'; do
	ok "the first 100 lines have '$want'" grep -qF -- "$want" "$TMPD/head"
done
ok "no temporary or build-machine paths" bash -c "! grep -nE '/tmp/|/work/|/home/|/root/' '$R'"
ok "no kernel release of this machine ($(uname -r))" bash -c "! grep -nF -- '$(uname -r)' '$R'"
ok "no seed or issue numbers" bash -c "! grep -niE 'seed [0-9]|issue [0-9]' '$R'"
for f in module/README.md tests/README.md tests/BENCHMARKS.md user/latctl.8 user/latctl-result.5 module/latmon.4; do
	ok "the README points to $f, which exists" bash -c "grep -qF '${f##*/}' '$R' && test -s '$TESTS_DIR/$f'"
done
for d in tests/README.md tests/BENCHMARKS.md module/README.md; do
	ok "$d has no temporary paths or seed numbers" \
		bash -c "! grep -nE '/tmp/h|seed [0-9]{3}' '$TESTS_DIR/$d'"
done

# The host examples: command and shown lines, one file each.
perl -e 'local $/; $_ = <>; my $n = 0;
	while (/^```\n(\$ latctl [^\n]*)\n(.*?)^```$/msg) {
		my ($cmd, $body) = ($1, $2);
		next if $cmd =~ /--vm/;
		$n++;
		open my $f, ">", "'"$TMPD"'/ex$n.cmd" or die; print $f substr($cmd, 2), "\n";
		open $f, ">", "'"$TMPD"'/ex$n.want" or die; print $f $body;
	}' "$R"
shape() {	# numbers, units, bar lengths and spacing do not count
	sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/\b(ns|us|ms|s)\b/U/g; s/#+/#/g; s/[[:space:]]+/ /g; s/^ //; s/ $//'
}
n=0
for c in "$TMPD"/ex*.cmd; do
	[ -e "$c" ] || break
	n=$((n + 1))
	cmd=$(cat "$c")
	case $cmd in
	*"run "*) [ -e /dev/latmon ] && { echo "# skipped (latmon is loaded here): $cmd"; continue; } ;;
	esac
	case $cmd in
	*"--backend bpf"*) "$LATCTL" backends 2>/dev/null | grep -q 'bpf: yes' ||
		{ echo "# skipped (the BPF backend cannot record here): $cmd"; continue; } ;;
	esac
	# on a machine of one CPU, as its user would type it: --cpu 0
	[ "$(nproc)" -lt 2 ] && cmd=${cmd//--cpu 1/--cpu 0}
	(cd "$TMPD" && PATH=$(dirname "$LATCTL"):$PATH bash -c "$cmd") > "$TMPD/ex$n.got" 2>&1
	ok "README example runs: $cmd" test $? = 0
	shape < "$TMPD/ex$n.got" | sort -u > "$TMPD/ex$n.gotshape"
	missing=$(grep -v '^\.\.\.$' "${c%.cmd}.want" | shape | sort -u | comm -23 - "$TMPD/ex$n.gotshape")
	ok "every line the README shows for '$cmd' has the shape of one it prints now" \
		bash -c "[ -z \"\$1\" ] || { printf 'not printed now: %s\n' \"\$1\"; exit 1; }" _ "$missing"
done
ok "the README has host examples ($n)" test "$n" -ge 2
done_testing
