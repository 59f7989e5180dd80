// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the path of `latctl report FILE.json`. The input is
 * written to a file, read back with lat_result_read() and, when it is a
 * latctl result, rendered with lat_result_render() (to /dev/null). A result
 * that renders is then rendered once per key, with that key deleted: each
 * must render the same text or be refused (key_delete.h), else abort.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../unit/key_delete.h"
#include "result.h"

static char path[] = "/tmp/latctl-fuzz-result-XXXXXX";
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = mkstemp(path);

	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (fd < 0 || !devnull) {
		perror("fuzz_result: temporary file");
		exit(1);
	}
	close(fd);
	return 0;
}

/* Write the whole input to the temporary file. */
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
	cJSON *doc = NULL;

	if (put_file(data, size)) {
		perror("fuzz_result: write");
		abort();
	}
	if (lat_result_read(path, &doc) == 0) {
		struct key_delete k;

		if (lat_result_render(doc, devnull, path) == 0 && key_delete_check(doc, &k)) {
			fprintf(stderr, "fuzz_result: deleting key \"%s\" changed the report\n", k.bad);
			abort();
		}
		cJSON_Delete(doc);
	}
	return 0;
}
