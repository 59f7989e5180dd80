/* SPDX-License-Identifier: MIT */
/*
 * A JSON file read whole, with bounds a damaged or hostile file cannot
 * pass: a regular file (or stdin for "-"), opened without waiting (a FIFO
 * is refused, not waited on), at most LAT_READ_MAX_BYTES and
 * LAT_READ_MAX_ITEMS JSON values, and all the files one command reads at
 * most LAT_READ_MAX_TOTAL values. The largest result latctl writes at its
 * documented limits (--iters 1e9: 100000 slow iterations listed, about 18
 * values and 460 bytes each) is about 50 MB and 2 M values: the bounds are
 * twice that and more. stdin is read into at most the same bytes.
 * tests/BENCHMARKS.md has the time and peak memory at the bounds.
 */
#ifndef LATCTL_READFILE_H
#define LATCTL_READFILE_H

#include <stddef.h>

#define LAT_READ_MAX_BYTES	((size_t)256 << 20)
#define LAT_READ_MAX_ITEMS	((size_t)4 << 20)
#define LAT_READ_MAX_TOTAL	((size_t)8 << 20)	/* all files of one command */

/* The whole of path into *text (NUL-terminated, free() it), *len bytes.
 * 0, or -errno after one line on stderr: missing, not a regular file, too
 * large, binary (a NUL byte), a read error or no memory. */
int lat_read_file(const char *path, char **text, size_t *len);

/* What text is outside its strings: its values (commas and opening
 * brackets, plus one), the bracket depth at its end, whether it ends inside
 * a string. Stops counting past max_items (0: all). */
struct lat_json_shape {
	size_t items;
	long depth;
	int in_str;
};
void lat_json_shape(const char *text, size_t len, size_t max_items, struct lat_json_shape *s);

/* 0, or -E2BIG when text holds more than LAT_READ_MAX_ITEMS values (its
 * commas and opening brackets outside strings, counted before parsing),
 * -ENOSPC when the files read so far hold more than LAT_READ_MAX_TOTAL. */
int lat_read_count_items(const char *text, size_t len);

#endif /* LATCTL_READFILE_H */
