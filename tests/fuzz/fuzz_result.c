// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the path of `latctl report FILE.json`. The input is
 * written to a file, read back with lat_result_read() and, when it is a
 * latctl result, rendered with lat_result_render() (to /dev/null). A result
 * that renders is then rendered once per key, with that key deleted: each
 * must render the same text or be refused (key_delete.h), else abort.
 */
#include "../unit/key_delete.h"
#include "fuzz_file.h"
#include "doc/result.h"
#include "report/render.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_init("fuzz_result");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cJSON *doc = NULL;

	fuzz_file_put("fuzz_result", data, size);
	if (lat_result_read(fuzz_path, &doc) == 0) {
		struct key_delete k;

		if (lat_result_render(doc, fuzz_devnull, fuzz_path) == 0 &&
		    key_delete_check(doc, &k)) {
			fprintf(stderr, "fuzz_result: deleting key \"%s\" changed the report\n", k.bad);
			abort();
		}
		cJSON_Delete(doc);
	}
	return 0;
}
