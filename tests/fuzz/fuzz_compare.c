// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the path of `latctl compare` and `latctl check`. The
 * input is written to a file, read with lat_runs_read() and, when it is a
 * usable result, compared with itself in every output format (text, 0-day,
 * JSON) and its environment printed (to /dev/null).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "compare.h"
#include "envdiff.h"
#include "runs.h"

static char path[] = "/tmp/latctl-fuzz-compare-XXXXXX";
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = mkstemp(path);

	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (fd < 0 || !devnull) {
		perror("fuzz_compare: temporary file");
		exit(1);
	}
	close(fd);
	return 0;
}

static int put_file(const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[2] = { "a", "b" };
	const cJSON *docs[2];
	cJSON *doc = NULL;

	if (put_file(data, size)) {
		perror("fuzz_compare: write");
		abort();
	}
	if (lat_runs_read(path, &doc))
		return 0;
	docs[0] = docs[1] = doc;
	lat_env_print(devnull, docs, names, 2);
	lat_compare_print(devnull, doc, doc);
	lat_compare_print_lkp(devnull, doc, doc);
	cJSON_Delete(lat_compare_json(doc, doc));
	cJSON_Delete(doc);
	return 0;
}
