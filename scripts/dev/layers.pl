#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Check latctl's layering from the #include lines of user/ (or module/):
#   layers.pl user LAYER...   a file of user/LAYER/ may include headers of its
#                             own folder and of the folders named before it;
#                             user/main.c may include any
#   layers.pl module          no layer rule (one folder)
# and in both, no circle between files: x.c, x.h and x_int.h are one node
# "x", and "x" -> "y" when any of them includes y.h; and every function a
# header declares is defined in a .c file of the header's own folder (a
# header that declares another folder's function hides an include).
# Prints one line per fault and exits 1 if there is any; prints the depth
# of the file graph otherwise.
use strict;
use warnings;
use File::Find;

my ($top, @layers) = @ARGV;
die "usage: layers.pl user|module [LAYER...]\n" unless $top && -d $top;
my %rank = map { $layers[$_] => $_ } 0 .. $#layers;
my (%edges, %nodes, @faults, %declared, %defined);

sub layer_of {
	my ($rel) = @_;
	return $rel =~ m{^([^/]+)/} ? $1 : '';
}

sub scan {
	my ($path) = @_;
	my $rel = $path;
	$rel =~ s{^\Q$top\E/}{};
	return if $rel =~ /\.bpf\.[ch]$|vmlinux\.h$|\.skel\.h$|\.mod\.c$/;
	(my $node = $rel) =~ s/(_int)?\.[ch]$//;
	$nodes{$node} = 1;
	my $dir = $rel =~ m{^(.*)/} ? "$1/" : '';
	open(my $fh, '<', $path) or die "$path: $!\n";
	my @lines = <$fh>;
	close $fh;
	functions($rel, @lines);
	for (@lines) {
		next unless /^\s*#\s*include\s+"([^"]+)"/;
		my $inc = $1;
		my $target = -e "$top/$inc" ? $inc : -e "$top/$dir$inc" ? "$dir$inc" : undef;
		next unless defined $target && $target =~ /\.h$/;
		(my $to = $target) =~ s/(_int)?\.h$//;
		check_rank($rel, $target) if @layers;
		$edges{$node}{$to} = 1 if $to ne $node;
	}
}

# Prototypes of a header and definitions of a .c file: a line at column 0
# naming a function, ended by ";" (declared) or not (defined).
sub functions {
	my ($rel, @lines) = @_;
	for my $l (@lines) {
		next if $l =~ /^(static|typedef|extern|#|\s|\/|\*|struct \w+ \{|enum|union)/;
		next unless $l =~ /^[A-Za-z_][\w\s\*]*?\b([a-z_]\w*)\s*\(/;
		my $name = $1;
		if ($rel =~ /\.h$/) {
			$declared{$name}{$rel} = 1;
		} elsif ($l !~ /;\s*$/) {
			$defined{$name} = $rel;
		}
	}
}

sub check_declarations {
	for my $name (sort keys %declared) {
		my $c = $defined{$name};
		next unless defined $c;
		my $cd = $c =~ m{^(.*)/} ? $1 : '';
		for my $h (sort keys %{ $declared{$name} }) {
			my $hd = $h =~ m{^(.*)/} ? $1 : '';
			push @faults, "$top/$h declares $name, defined in $top/$c (another folder)"
				if $hd ne $cd;
		}
	}
}

sub check_rank {
	my ($rel, $target) = @_;
	my ($from, $to) = (layer_of($rel), layer_of($target));
	return if $from eq '' || $from eq $to;
	if (!exists $rank{$from}) {
		push @faults, "$top/$rel: folder '$from' is not a layer of the rule";
	} elsif (!exists $rank{$to} || $rank{$to} > $rank{$from}) {
		push @faults, "$top/$rel includes $target: layer '$from' may not include '$to' (it is above)";
	}
}

my @cycle_stack;
my (%state, %depth);
sub visit {
	my ($n) = @_;
	return $depth{$n} if ($state{$n} // 0) == 2;
	if (($state{$n} // 0) == 1) {
		my @c = (@cycle_stack[(grep { $cycle_stack[$_] eq $n } 0 .. $#cycle_stack)[0] .. $#cycle_stack], $n);
		push @faults, "include circle: " . join(' -> ', @c);
		return 0;
	}
	$state{$n} = 1;
	push @cycle_stack, $n;
	my $d = 0;
	for my $m (sort keys %{ $edges{$n} // {} }) {
		my $e = visit($m) + 1;
		$d = $e if $e > $d;
	}
	pop @cycle_stack;
	$state{$n} = 2;
	return $depth{$n} = $d;
}

find({ no_chdir => 1, wanted => sub { scan($_) if /\.[ch]$/ && -f $_ } }, $top);
check_declarations();
my $max = 0;
for my $n (sort keys %nodes) {
	my $d = visit($n);
	$max = $d if $d > $max;
}
if (@faults) {
	print "$_\n" for @faults;
	exit 1;
}
printf "%s: %d files, no include circle, %d layers deep\n", $top, scalar(keys %nodes), $max + 1;
