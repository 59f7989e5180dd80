// SPDX-License-Identifier: MIT
/* Numbers for text tables, each within a given width whatever its value. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

static const struct { double ns; const char *name; } time_units[] = {
	{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
};

static int fits(const char *buf, int width)
{
	return (int)strlen(buf) <= width;
}

void lat_fmt_num(char *buf, size_t len, double v, const char *suffix, int width)
{
	int prec;

	for (prec = 4; prec > 1; prec--) {
		snprintf(buf, len, "%.*g%s", prec, v, suffix);
		if (fits(buf, width))
			return;
	}
	snprintf(buf, len, "%.0e%s", v, suffix);
}

void lat_fmt_ns(char *buf, size_t len, double ns, int width)
{
	size_t i, last = sizeof(time_units) / sizeof(time_units[0]) - 1;

	for (i = 0; i < last; i++)
		if (fabs(ns) >= time_units[i].ns)
			break;
	lat_fmt_num(buf, len, ns / time_units[i].ns, time_units[i].name, width);
}

void lat_fmt_int(char *buf, size_t len, double v, int width)
{
	snprintf(buf, len, "%.0f", v);
	if (!isfinite(v) || !fits(buf, width))
		lat_fmt_num(buf, len, v, "", width);
}

void lat_fmt_ns_cell(char *buf, size_t len, double ns, int width)
{
	snprintf(buf, len, "%.0f", ns);
	if (!isfinite(ns) || fabs(ns) >= 1e5 || !fits(buf, width))
		lat_fmt_ns(buf, len, ns, width);
}

void lat_printable(char *s)
{
	for (; s && *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
		else if ((unsigned char)s[0] == 0xc2 && (unsigned char)s[1] >= 0x80 &&
			 (unsigned char)s[1] <= 0x9f)
			s[0] = s[1] = '?';
	}
}

const char *lat_fmt_time(char *buf, size_t len, double ns)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

/* v with one decimal ("%+.1f" with sign "+"), then whole, then in exponent
 * form, the first that fits width, followed by suffix. */
static void fixed1(char *buf, size_t len, double v, const char *sign,
		   const char *suffix, int width)
{
	snprintf(buf, len, *sign ? "%+.1f%s" : "%.1f%s", v, suffix);
	if (!fits(buf, width))
		snprintf(buf, len, *sign ? "%+.0f%s" : "%.0f%s", v, suffix);
	if (!fits(buf, width))
		snprintf(buf, len, *sign ? "%+.0e%s" : "%.0e%s", v, suffix);
}

void lat_fmt_change(char *buf, size_t len, double v, const char *suffix, int width)
{
	fixed1(buf, len, v, "+", suffix, width);
}

void lat_fmt_fixed(char *buf, size_t len, double v, const char *suffix, int width)
{
	fixed1(buf, len, v, "", suffix, width);
}
