#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# latctl's results out of a LAVA job log.
#
#   lava-results.pl [--json DIR] LOG...
#
# LOG is the log of a job: lava-run's output, a server's log
# (lavacli jobs logs ID --raw), or the device's plain console text. Prints
# one line per test case, "SUITE CASE RESULT [MEASUREMENT UNITS]": from the
# log's results entries, else from the LAVA_SIGNAL_TESTCASE lines. With
# --json DIR, writes each result file the test printed between
# "LATCTL-RESULT-BEGIN NAME" and "LATCTL-RESULT-END" (gzip, base64) to
# DIR/NAME and prints its path; 'latctl compare' reads them.
# Exit 1 when a LOG cannot be read or holds neither test cases nor files.
use strict;
use warnings;
use JSON::PP;
use MIME::Base64;
use IO::Uncompress::Gunzip qw(gunzip $GunzipError);

my $json_dir;
if (@ARGV && $ARGV[0] eq '--json') {
	shift;
	$json_dir = shift // die "lava-results: --json needs a directory\n";
}
die "usage: lava-results.pl [--json DIR] LOG...\n" unless @ARGV;

my (@cases, @signals, %files, $name, $b64);
my $suite = 'latctl';
my $json = JSON::PP->new;

# One entry of a LAVA log (a JSON object {dt, lvl, msg}, "- " before it in a
# server's YAML log), or undef for plain text.
sub entry {
	my ($line) = @_;
	return undef unless $line =~ /^(?:- )?(\{.*\})\s*$/;
	my $text = $1;
	# YAML's non-specific tag before a quoted scalar ("measurement": ! "10.0")
	$text =~ s/: ! "/: "/g;
	my $e = eval { $json->decode($text) };
	return ref $e eq 'HASH' ? $e : undef;
}

sub result_line {
	my ($s, $c, $r, $m, $u) = @_;
	$s =~ s/^\d+_//;
	return defined $m && $m ne '' ? "$s $c $r $m $u" : "$s $c $r";
}

# The console text of a line: an entry's message, or the line itself.
sub console {
	my ($line) = @_;
	my $e = entry($line);
	return $line unless $e;
	if (($e->{lvl} // '') eq 'results' && ref $e->{msg} eq 'HASH') {
		my $m = $e->{msg};
		push @cases, result_line($m->{definition}, $m->{case}, $m->{result},
					 $m->{measurement}, $m->{units})
			unless ($m->{definition} // '') eq 'lava';
		return '';
	}
	return ref $e->{msg} ? '' : $e->{msg} // '';
}

sub scan {
	my ($text) = @_;
	for my $l (split /\r?\n/, $text) {
		if ($l =~ /<LAVA_SIGNAL_STARTRUN (\S+)/) {
			$suite = $1;
		} elsif ($l =~ /<LAVA_SIGNAL_TESTCASE ([^>]*)>/) {
			my %f = map { split /=/, $_, 2 } split ' ', $1;
			push @signals, result_line($suite, $f{TEST_CASE_ID}, $f{RESULT},
						   $f{MEASUREMENT}, $f{UNITS});
		} elsif ($l =~ /^LATCTL-RESULT-BEGIN (\S+)\s*$/) {
			($name, $b64) = ($1, '');
		} elsif (defined $name && $l =~ /^LATCTL-RESULT-END\s*$/) {
			$files{$name} = $b64;
			undef $name;
		} elsif (defined $name) {
			$b64 .= $l;
		}
	}
}

for my $log (@ARGV) {
	open my $f, '<', $log or die "lava-results: cannot read $log: $!\n";
	while (my $line = <$f>) {
		chomp $line;
		scan(console($line));
	}
	close $f;
}
print "$_\n" for (@cases ? @cases : @signals);
if (defined $json_dir) {
	mkdir $json_dir;
	for my $n (sort keys %files) {
		die "lava-results: bad file name '$n'\n" if $n =~ m{/} || $n =~ /^\./;
		my $gz = decode_base64($files{$n});
		my $out = "$json_dir/$n";
		gunzip(\$gz => "$out.tmp") or die "lava-results: $n: $GunzipError\n";
		rename "$out.tmp", $out or die "lava-results: $out: $!\n";
		print "$out\n";
	}
}
exit((@cases || @signals || %files) ? 0 : 1);
