// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the path of `latctl compare` and `latctl check`. The
 * input is written to a file, read with lat_runs_load() and, when it is a
 * usable result, compared with itself in every output format (text, 0-day,
 * JSON) and its environment printed (to /dev/null).
 */
#include "compare/compare.h"
#include "compare/envdiff.h"
#include "compare/pair.h"
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
	struct lat_side one, two;
	cJSON *doc = NULL;

	fuzz_file_put("fuzz_compare", data, size);
	if (lat_runs_load(fuzz_path, &doc))
		return 0;
	docs[0] = docs[1] = doc;
	one = (struct lat_side){ docs, 1 };
	two = (struct lat_side){ docs, 2 };
	lat_env_print(fuzz_devnull, docs, names, 2);
	lat_compare_print(fuzz_devnull, &one, &one, NULL);
	lat_compare_print(fuzz_devnull, &two, &two, NULL);
	lat_compare_print_lkp(fuzz_devnull, &one, &two, NULL);
	cJSON_Delete(lat_compare_json(&one, &two, NULL));
	cJSON_Delete(doc);
	return 0;
}
