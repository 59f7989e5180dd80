/* SPDX-License-Identifier: MIT */
/* Numbers for text tables, each within a given width whatever its value. */
#ifndef LATCTL_FMT_H
#define LATCTL_FMT_H

#include <stddef.h>

/* The width every text table of latctl fits. */
#define LAT_TEXT_WIDTH 80

/* The widest a number's exponent form is ("-2e+308"): each function
 * writes at most width characters, or LAT_FMT_MIN and its suffix where
 * width is narrower than that. */
#define LAT_FMT_MIN 7

/* v with 4 significant digits and then suffix ("4.198" "us"), with fewer
 * digits, then in exponent form, where that would be wider than width:
 * 1.7e308 is "2e+308", never a line's width. */
void lat_fmt_num(char *buf, size_t len, double v, const char *suffix, int width);

/* ns in the largest time unit it reaches ("108.4us", "10s"), within width. */
void lat_fmt_ns(char *buf, size_t len, double ns, int width);

/* A table cell of ns: the whole number of nanoseconds ("10835") below
 * 100 us where it fits width, else with its unit ("108.4us", "54.5ms"). */
void lat_fmt_ns_cell(char *buf, size_t len, double ns, int width);

/* Control bytes of s (C0, DEL, C1 as UTF-8) as '?', in place: no text
 * from a file reaches a terminal as an escape sequence. */
void lat_printable(char *s);

/* A time in a sentence: "812 ns", "3.4 us", "1.25 ms", "2.00 s". */
const char *lat_fmt_time(char *buf, size_t len, double ns);

/* v as a whole number where it fits width, else as lat_fmt_num. */
void lat_fmt_int(char *buf, size_t len, double v, int width);

/* A signed change, "%+.1f" followed by suffix, within width. */
void lat_fmt_change(char *buf, size_t len, double v, const char *suffix, int width);

/* The same without the sign: "%.1f" followed by suffix, within width. */
void lat_fmt_fixed(char *buf, size_t len, double v, const char *suffix, int width);

#endif /* LATCTL_FMT_H */
