// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the reader and drawer of `latctl plot`. The input is
 * parsed as JSON and, when it is an object, drawn with lat_plot_svg() to
 * /dev/null, and its first "comparisons" entry, when it has one, with
 * lat_plot_compare_svg(): whatever the keys hold, each must refuse or draw.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "plot/plot.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull) {
		perror("fuzz_plot: /dev/null");
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const cJSON *const no_results[2] = { NULL, NULL };
	cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
	const cJSON *cmp;

	if (cJSON_IsObject(doc))
		lat_plot_svg(doc, NULL, devnull);	/* NULL: no line per refusal */
	cmp = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "comparisons"), 0);
	if (cJSON_IsObject(cmp))
		lat_plot_compare_svg(cmp, no_results, NULL, "not given", devnull);
	cJSON_Delete(doc);
	return 0;
}
