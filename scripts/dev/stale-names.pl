#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Comments that name a .c or .h file the tree does not have (a file moved
# or renamed, its old name left behind), one "FILE:LINE: NAME" line each;
# exit 1 if any. A name with a folder of ours (user/, module/, include/,
# tests/, scripts/) must be that path; a bare name, some file's name.
# Generated headers and placeholders (wl_NAME.c, x.c) are not names.
#
#   scripts/dev/stale-names.pl          (tests/cli/docs.t runs it)
use strict;
use warnings;

my @files = split /\n/, `git ls-files 2>/dev/null`;
@files = map { s{^\./}{}r } split /\n/, `find . -path ./.cache -prune -o -path ./build -prune -o -type f -print`
	unless @files;
my %have = map { $_ => 1 } @files;
my %base = map { m{([^/]+)$}; $1 => 1 } @files;
my %generated = map { $_ => 1 } qw(vmlinux.h latbpf.skel.h);
my $bad = 0;

# The comment part of each line of file f: C comments in .c/.h, # elsewhere.
sub comments {
	my ($f) = @_;
	my ($in, @out) = (0);
	open my $fh, '<', $f or return ();
	while (my $l = <$fh>) {
		my $c = '';
		if ($f =~ /\.[ch]$/) {
			$in = 1 if $l =~ m{/\*};
			$c = $l if $in || $l =~ m{//};
			$in = 0 if $l =~ m{\*/};
		} elsif ($l =~ /(#.*)$/) {
			$c = $1;
		}
		$c = '' if $l =~ /^\s*#\s*include/;
		push @out, [$., $c];
	}
	return @out;
}

sub known {
	my ($p) = @_;
	my ($b) = $p =~ m{([^/]+)$};
	return 1 if $generated{$b} || $p =~ /NAME/ || $b =~ /^[xy](_int)?\.[ch]$/;
	return $p =~ m{^(user|module|include|tests|scripts)/} ? $have{$p} : ($p =~ m{/} || $base{$p});
}

for my $f (grep { m{\.(c|h|sh|mk|pl|t)$|(^|/)(Makefile|Kbuild)$} } @files) {
	for (comments($f)) {
		my ($n, $c) = @$_;
		while ($c =~ m{(?<![\w./<-])((?:[\w.-]+/)*[\w-]+\.[ch])(?!\w)}g) {
			next if known($1);
			print "$f:$n: $1\n";
			$bad++;
		}
	}
}
exit($bad ? 1 : 0);
