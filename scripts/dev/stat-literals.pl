#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Expected outputs of the command-line tests that hold a literal statistic
# (a p-value, a percentage with decimals, a percentile's figure) are a
# figure of one machine's runs unless the input is made for the test: such
# a check must follow a comment line that starts "# synthetic:" and says
# what the input is (within 8 lines, with no other test between). Prints each offending check (file:line) and exits 1.
#
#   scripts/dev/stat-literals.pl tests/cli/*.t
use strict;
use warnings;

my @stat = (
	qr/p ?= ?0\\?\.\d/,			# p=0.008
	qr/0\\?\.\d{3} \+?\\?\+?\d*\\?\+/,	# the p column before n: 0.008 +5+5
	qr/0\\?\.\d{3} \+\d+\\\+\d+/,
	qr/\d\\?\.\d+\\?%/,			# +10.0%, 43.2%
	qr/\bp(50|90|99|99\\?\.9|99\\?\.99) *=? *\d{2,}/,	# p99.9 = 4198
);

sub statistic {
	my ($re) = @_;
	for my $s (@stat) {
		return $& if $re =~ $s;
	}
	return;
}

my $bad = 0;
for my $file (@ARGV) {
	open my $f, '<', $file or die "$file: $!\n";
	my @lines = <$f>;
	close $f;
	my $here;	# inside a here-document: a test's input, not its checks
	for (my $i = 0; $i < @lines; $i++) {
		if (defined $here) {
			undef $here if $lines[$i] =~ /^\Q$here\E$/;
			next;
		}
		$here = $1, next if $lines[$i] =~ /<<-?'?(\w+)'?\s*$/;
		next unless $lines[$i] =~ /^\s*(?:retry .*?)?\bcheck(?:_err)?\s+"/;
		my ($start, $text) = ($i, $lines[$i]);
		$text .= $lines[++$i] while $text =~ /\\\n\z/ && $i + 1 < @lines;
		my @quoted = $text =~ /'((?:[^'\\]|\\.)*)'\s*$/s;
		next unless @quoted;
		my $lit = statistic($quoted[0]) or next;
		my $ok = 0;
		for (my $k = $start - 1; $k >= 0 && $k >= $start - 8; $k--) {
			last if $lines[$k] =~ /^\s*(?:retry .*?)?\b(?:check(?:_err)?|ok)\s+"/;
			$ok = 1, last if $lines[$k] =~ /^\s*# synthetic:/;
		}
		next if $ok;
		printf "%s:%d: literal statistic '%s' in an expected output, and no '# synthetic:' comment says its input is made for the test\n",
			$file, $start + 1, $lit;
		$bad++;
	}
}
exit($bad ? 1 : 0);
