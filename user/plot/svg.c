// SPDX-License-Identifier: MIT
/* SVG text primitives (see svg.h for why not cairo). */
#include <string.h>

#include "plot/svg.h"

static void escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '"')
			fputs("&quot;", out);
		else if ((unsigned char)*s >= 0x20 || *s == '\t')
			fputc(*s, out);
	}
}

void svg_begin(FILE *out, int width, int height, const char *title)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
		"<title>", width, height, width, height);
	escaped(out, title);
	fputs("</title>\n", out);
	svg_rect(out, 0, 0, width, height, "#ffffff");
}

void svg_end(FILE *out)
{
	fputs("</svg>\n", out);
}

/* The hatch lines of a 8x8 pattern tile, drawn in black. */
static const char *const hatch_paths[] = {
	[HATCH_NONE] = "",
	[HATCH_DIAG] = "M0,8 L8,0 M-2,2 L2,-2 M6,10 L10,6",
	[HATCH_BACKDIAG] = "M0,0 L8,8 M6,-2 L10,2 M-2,6 L2,10",
	[HATCH_CROSS] = "M0,8 L8,0 M0,0 L8,8",
	[HATCH_HORIZ] = "M0,4 L8,4",
	[HATCH_VERT] = "M4,0 L4,8",
	[HATCH_DOTS] = "",
	[HATCH_GRID] = "M0,4 L8,4 M4,0 L4,8",
};

void svg_pattern(FILE *out, int id, const struct lat_style *s)
{
	fprintf(out, "<pattern id=\"p%d\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\">"
		"<rect width=\"8\" height=\"8\" fill=\"%s\"/>", id, s->colour);
	if (s->hatch == HATCH_DOTS)
		fputs("<circle cx=\"4\" cy=\"4\" r=\"1.3\" fill=\"#000000\"/>", out);
	else if (s->hatch != HATCH_NONE)
		fprintf(out, "<path d=\"%s\" stroke=\"#000000\" stroke-width=\"1\"/>",
			hatch_paths[s->hatch]);
	fputs("</pattern>\n", out);
}

void svg_text(FILE *out, double x, double y, int size, const char *anchor,
	      const char *weight, const char *text)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\"%s%s%s>",
		x, y, size, anchor, weight ? " font-weight=\"" : "", weight ? weight : "",
		weight ? "\"" : "");
	escaped(out, text);
	fputs("</text>\n", out);
}

double svg_text_width(int size, const char *text)
{
	return 0.64 * size * (double)strlen(text);
}

void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill)
{
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
		x, y, w, h, fill);
}

void svg_line(FILE *out, double x1, double y1, double x2, double y2,
	      const char *stroke, double width, const char *dash)
{
	fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
		"stroke-width=\"%.1f\"%s%s%s/>\n", x1, y1, x2, y2, stroke, width,
		dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
}

#define OUTLINE "stroke=\"#000000\" stroke-width=\"0.8\""

/* Two strokes p[0..3] and p[4..7]: black underneath, the colour on top. */
static void strokes(FILE *out, const double p[8], const char *fill)
{
	const char *colour[] = { "#000000", fill };
	const double width[] = { 3.4, 1.8 };
	int k;

	for (k = 0; k < 2; k++)
		fprintf(out, "<path d=\"M%.2f,%.2f L%.2f,%.2f M%.2f,%.2f L%.2f,%.2f\" stroke=\"%s\" "
			"stroke-width=\"%.1f\"/>\n", p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
			colour[k], width[k]);
}

void svg_marker(FILE *out, enum lat_marker m, double x, double y, double r, const char *fill)
{
	switch (m) {
	case MARK_CIRCLE:
		fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\" " OUTLINE "/>\n",
			x, y, r, fill);
		return;
	case MARK_SQUARE:
		fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
			OUTLINE "/>\n", x - r, y - r, 2 * r, 2 * r, fill);
		return;
	case MARK_TRIANGLE:
	case MARK_TRIANGLE_DOWN: {
		double s = m == MARK_TRIANGLE ? 1 : -1;

		fprintf(out, "<path d=\"M%.2f,%.2f L%.2f,%.2f L%.2f,%.2f Z\" fill=\"%s\" " OUTLINE "/>\n",
			x, y - s * r * 1.2, x + r * 1.1, y + s * r * 0.8, x - r * 1.1, y + s * r * 0.8, fill);
		return;
	}
	case MARK_DIAMOND:
		fprintf(out, "<path d=\"M%.2f,%.2f L%.2f,%.2f L%.2f,%.2f L%.2f,%.2f Z\" fill=\"%s\" "
			OUTLINE "/>\n", x, y - r * 1.3, x + r, y, x, y + r * 1.3, x - r, y, fill);
		return;
	case MARK_CROSS:
		strokes(out, (const double[8]){ x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r }, fill);
		return;
	case MARK_PLUS:
		strokes(out, (const double[8]){ x - r * 1.3, y, x + r * 1.3, y, x, y - r * 1.3, x, y + r * 1.3 }, fill);
		return;
	}
}
