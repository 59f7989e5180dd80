#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# The text of an SVG `latctl plot` wrote, checked for what a reader would
# see: every text's box lies inside the canvas, and no two boxes overlap.
# Boxes are measured with the metrics of the font the plot names first
# (DejaVu Sans, Book and Bold, read from its TrueType files: advance widths
# through cmap and hmtx, ascent and descent from hhea), with core Perl only:
#
#   svg_text_boxes.pl FILE.svg
#
# prints one line per problem ("outside: ..." or "overlap: ... | ...") and
# exits 1 when there is any; "N texts" and exit 0 otherwise. FONTDIR
# overrides the font folder (default /usr/share/fonts/truetype/dejavu).
use strict;
use warnings;

my $dir = $ENV{FONTDIR} // '/usr/share/fonts/truetype/dejavu';
my %font = (normal => load("$dir/DejaVuSans.ttf"), bold => load("$dir/DejaVuSans-Bold.ttf"));

# load FILE: { em, ascent, descent, adv => { codepoint => advance } }.
sub load {
	my ($file) = @_;
	open my $fh, '<:raw', $file or die "cannot open $file: $!\n";
	local $/;
	my $ttf = <$fh>;
	my %tab;
	my $n = unpack 'x4n', $ttf;
	for my $i (0 .. $n - 1) {
		my ($tag, undef, $off) = unpack 'a4NN', substr($ttf, 12 + 16 * $i, 12);
		$tab{$tag} = $off;
	}
	my $em = unpack 'x18n', substr($ttf, $tab{head}, 20);
	my ($asc, $desc, $nlong) = unpack 'x4s>s>x26n', substr($ttf, $tab{hhea}, 36);
	my @adv = map { unpack 'n', substr($ttf, $tab{hmtx} + 4 * $_, 2) } 0 .. $nlong - 1;
	my %cp;
	my $glyph = cmap4($ttf, $tab{cmap});
	for my $c (keys %$glyph) {
		my $g = $glyph->{$c};
		$cp{$c} = $adv[$g < $nlong ? $g : $nlong - 1];
	}
	return { em => $em, ascent => $asc, descent => -$desc, adv => \%cp };
}

# cmap4 TTF OFFSET: { codepoint => glyph } of the Unicode BMP subtable.
sub cmap4 {
	my ($ttf, $base) = @_;
	my $n = unpack 'x2n', substr($ttf, $base, 4);
	for my $i (0 .. $n - 1) {
		my ($pid, $eid, $off) = unpack 'nnN', substr($ttf, $base + 4 + 8 * $i, 8);
		next unless ($pid == 3 && $eid == 1) || $pid == 0;
		my $t = $base + $off;
		next unless unpack('n', substr($ttf, $t, 2)) == 4;
		my $segs = unpack('x6n', substr($ttf, $t, 8)) / 2;
		my $ends = $t + 14;
		my $starts = $ends + 2 * $segs + 2;
		my $deltas = $starts + 2 * $segs;
		my $ranges = $deltas + 2 * $segs;
		my %g;
		for my $s (0 .. $segs - 1) {
			my $end = unpack 'n', substr($ttf, $ends + 2 * $s, 2);
			my $start = unpack 'n', substr($ttf, $starts + 2 * $s, 2);
			my $delta = unpack 'n', substr($ttf, $deltas + 2 * $s, 2);
			my $ro = unpack 'n', substr($ttf, $ranges + 2 * $s, 2);
			for my $c ($start .. ($end > 0x2fff ? 0x2fff : $end)) {
				my $gl;
				if ($ro) {
					my $at = $ranges + 2 * $s + $ro + 2 * ($c - $start);
					$gl = unpack 'n', substr($ttf, $at, 2);
					$gl = ($gl + $delta) & 0xffff if $gl;
				} else {
					$gl = ($c + $delta) & 0xffff;
				}
				$g{$c} = $gl;
			}
		}
		return \%g;
	}
	die "no Unicode cmap\n";
}

sub unescape {
	my ($s) = @_;
	$s =~ s/&lt;/</g;
	$s =~ s/&gt;/>/g;
	$s =~ s/&quot;/"/g;
	$s =~ s/&#(\d+);/chr $1/ge;
	$s =~ s/&amp;/&/g;
	return $s;
}

sub attr {
	my ($tag, $name, $default) = @_;
	return $tag =~ /\b$name="([^"]*)"/ ? $1 : $default;
}

open my $fh, '<:encoding(UTF-8)', $ARGV[0] or die "cannot open $ARGV[0]: $!\n";
my $svg = do { local $/; <$fh> };
my ($W, $H) = $svg =~ /<svg\b[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"/
	or die "$ARGV[0]: no svg width and height\n";
my @box;
while ($svg =~ /<text\b([^>]*)>(.*?)<\/text>/gs) {
	my ($tag, $text) = ($1, unescape($2));
	next if $text =~ /^\s*$/;
	my $f = $font{ attr($tag, 'font-weight', 'normal') eq 'bold' ? 'bold' : 'normal' };
	my ($x, $y, $size) = (attr($tag, 'x', 0), attr($tag, 'y', 0), attr($tag, 'font-size', 16));
	my $w = 0;
	$w += $f->{adv}{ord $_} // $f->{adv}{ord '?'} for split //, $text;
	$w *= $size / $f->{em};
	my $anchor = attr($tag, 'text-anchor', 'start');
	my $x0 = $anchor eq 'middle' ? $x - $w / 2 : $anchor eq 'end' ? $x - $w : $x;
	# the box of the glyphs' common height (cap and descender), not the line gap
	push @box, { t => $text, x0 => $x0, x1 => $x0 + $w,
		y0 => $y - 0.76 * $size, y1 => $y + 0.24 * $size };
}
my $bad = 0;
my $fmt = sub { my $b = shift; sprintf '"%s" [%.0f,%.0f]-[%.0f,%.0f]', $b->{t}, $b->{x0}, $b->{y0}, $b->{x1}, $b->{y1} };
for my $b (@box) {
	next if $b->{x0} >= 0 && $b->{y0} >= 0 && $b->{x1} <= $W && $b->{y1} <= $H;
	print "outside: ", $fmt->($b), " (canvas ${W}x$H)\n";
	$bad = 1;
}
for my $i (0 .. $#box) {
	for my $j ($i + 1 .. $#box) {
		my ($p, $q) = ($box[$i], $box[$j]);
		# touching within half a pixel is not an overlap
		next if $p->{x1} <= $q->{x0} + 0.5 || $q->{x1} <= $p->{x0} + 0.5;
		next if $p->{y1} <= $q->{y0} + 0.5 || $q->{y1} <= $p->{y0} + 0.5;
		print "overlap: ", $fmt->($p), " | ", $fmt->($q), "\n";
		$bad = 1;
	}
}
print scalar(@box), " texts\n" unless $bad;
exit $bad;
