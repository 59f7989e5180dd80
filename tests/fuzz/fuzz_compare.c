// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the path of `latctl compare` and `latctl check`. The
 * input is written to a file, read with lat_runs_load() and, when it is a
 * usable result, compared with itself in every output format (text, 0-day,
 * JSON) and its environment printed (to /dev/null).
 */
#include "compare/compare.h"
#include "compare/envdiff.h"
#include "fuzz_file.h"
#include "doc/runs.h"
#include "report/render.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_init("fuzz_compare");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[2] = { "a", "b" };
	const cJSON *docs[2];
	cJSON *doc = NULL;

	fuzz_file_put("fuzz_compare", data, size);
	if (lat_runs_load(fuzz_path, &doc))
		return 0;
	docs[0] = docs[1] = doc;
	lat_env_print(fuzz_devnull, docs, names, 2);
	lat_compare_print(fuzz_devnull, doc, doc, NULL);
	lat_compare_print_lkp(fuzz_devnull, doc, doc, NULL);
	cJSON_Delete(lat_compare_json(doc, doc, NULL));
	cJSON_Delete(doc);
	return 0;
}
