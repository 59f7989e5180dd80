/* SPDX-License-Identifier: MIT */
/*
 * The harness shared by the fuzz targets that feed a file reader
 * (fuzz_result, fuzz_compare): one temporary file, rewritten with each
 * input, and /dev/null for the printers' output.
 */
#ifndef LATCTL_FUZZ_FILE_H
#define LATCTL_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_path[] = "/tmp/latctl-fuzz-XXXXXX";
static FILE *fuzz_devnull;

/* Make the temporary file and open /dev/null; exit(1) when either fails. */
static inline void fuzz_file_init(const char *target)
{
	int fd = mkstemp(fuzz_path);

	fuzz_devnull = fopen("/dev/null", "w");
	if (fd < 0 || !fuzz_devnull) {
		fprintf(stderr, "%s: temporary file: ", target);
		perror(NULL);
		exit(1);
	}
	close(fd);
}

/* Replace the temporary file's content with the input; abort() on failure. */
static inline void fuzz_file_put(const char *target, const uint8_t *data, size_t size)
{
	FILE *f = fopen(fuzz_path, "w");
	int ok;

	if (f) {
		ok = fwrite(data, 1, size, f) == size;
		if (fclose(f) == 0 && ok)
			return;
	}
	fprintf(stderr, "%s: write: ", target);
	perror(NULL);
	abort();
}

#endif
