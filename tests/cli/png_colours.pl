#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Count the pixels of given colours inside rectangles of a PNG (8-bit RGB
# or RGBA, not interlaced, as rsvg-convert writes), with core Perl only:
#
#   png_colours.pl FILE.png X0,Y0,X1,Y1:RRGGBB...
#
# prints one count per query, in order (each channel within 6 of it).
use strict;
use warnings;
use Compress::Zlib;

my ($file, @want) = @ARGV;
open my $fh, '<:raw', $file or die "cannot open $file: $!\n";
local $/;
my $png = <$fh>;
substr($png, 0, 8) eq "\x89PNG\r\n\x1a\n" or die "$file: not a PNG\n";
my ($pos, $idat, $w, $h, $depth, $ctype, $interlace) = (8, '');
while ($pos < length $png) {
	my ($len, $type) = unpack 'Na4', substr($png, $pos, 8);
	my $data = substr($png, $pos + 8, $len);
	($w, $h, $depth, $ctype, undef, undef, $interlace) = unpack 'NNCCCCC', $data if $type eq 'IHDR';
	$idat .= $data if $type eq 'IDAT';
	$pos += 12 + $len;
}
die "$file: want 8-bit RGB(A), not interlaced\n"
	unless $depth == 8 && ($ctype == 2 || $ctype == 6) && !$interlace;
my $bpp = $ctype == 6 ? 4 : 3;
my $raw = uncompress($idat) // die "$file: bad image data\n";
my $stride = $w * $bpp;
my (@prev, @rows) = ((0) x $stride);
for my $y (0 .. $h - 1) {		# undo the per-row filters
	my $f = ord substr($raw, $y * ($stride + 1), 1);
	my @cur = unpack 'C*', substr($raw, $y * ($stride + 1) + 1, $stride);
	for my $i (0 .. $stride - 1) {
		my $a = $i >= $bpp ? $cur[$i - $bpp] : 0;
		my ($b, $c) = ($prev[$i], $i >= $bpp ? $prev[$i - $bpp] : 0);
		my $p = $a + $b - $c;
		my ($pa, $pb, $pc) = (abs($p - $a), abs($p - $b), abs($p - $c));
		my $pred = $f == 1 ? $a : $f == 2 ? $b : $f == 3 ? int(($a + $b) / 2) :
			$f == 4 ? ($pa <= $pb && $pa <= $pc ? $a : $pb <= $pc ? $b : $c) : 0;
		$cur[$i] = ($cur[$i] + $pred) & 0xff;
	}
	push @rows, [@cur];
	@prev = @cur;
}
for my $q (@want) {
	my ($x0, $y0, $x1, $y1, $hex) = $q =~ /^(\d+),(\d+),(\d+),(\d+):([0-9a-fA-F]{6})$/
		or die "bad query '$q': want X0,Y0,X1,Y1:RRGGBB\n";
	my @c = map { hex } unpack '(A2)3', $hex;
	my $n = 0;
	for my $y ($y0 .. ($y1 < $h ? $y1 : $h - 1)) {
		my $row = $rows[$y];
		for my $x ($x0 .. ($x1 < $w ? $x1 : $w - 1)) {
			my $o = $x * $bpp;
			$n++ if abs($row->[$o] - $c[0]) <= 6 && abs($row->[$o + 1] - $c[1]) <= 6 &&
				abs($row->[$o + 2] - $c[2]) <= 6;
		}
	}
	print "$n\n";
}
