/* SPDX-License-Identifier: MIT */
/*
 * A few SVG primitives for `latctl plot`. The SVG is written as text, as
 * perf's timechart and FlameGraph do, rather than through cairo: the picture
 * is a few hundred rectangles, marks and labels, so a library would add a
 * run-time dependency (cairo, pixman, fontconfig, freetype) for what fprintf
 * does; text output is also byte-for-byte reproducible, diffable and
 * testable, and the fonts are left to the viewer, which renders real text.
 */
#ifndef LATCTL_SVG_H
#define LATCTL_SVG_H

#include <stdio.h>

#include "events/iter.h"

/* A label's style (colour, hatch, marker) is in its descriptor: events/iter.h. */

void svg_begin(FILE *out, int width, int height, const char *title);
void svg_end(FILE *out);
/* A <pattern> with id "p<id>" filled with the style's colour and hatch. */
void svg_pattern(FILE *out, int id, const struct lat_style *s);
/* Text with &, <, >, " escaped; anchor "start", "middle" or "end". */
void svg_text(FILE *out, double x, double y, int size, const char *anchor,
	      const char *weight, const char *text);
/* The width of text at size, a little over DejaVu Sans' (0.64 em a character). */
double svg_text_width(int size, const char *text);
void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill);
void svg_line(FILE *out, double x1, double y1, double x2, double y2,
	      const char *stroke, double width, const char *dash);
/* A marker of size r centred on (x, y), filled with fill, outlined black. */
void svg_marker(FILE *out, enum lat_marker m, double x, double y, double r, const char *fill);

#endif /* LATCTL_SVG_H */
