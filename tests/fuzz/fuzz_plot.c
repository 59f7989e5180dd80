// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the reader and drawer of `latctl plot`. The input is
 * parsed as JSON and, when it is an object, drawn with lat_plot_svg() to
 * /dev/null: whatever the keys hold, it must refuse with one line or draw.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "plot.h"

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
	cJSON *doc = cJSON_ParseWithLength((const char *)data, size);

	if (cJSON_IsObject(doc))
		lat_plot_svg(doc, NULL, devnull);	/* NULL: no line per refusal */
	cJSON_Delete(doc);
	return 0;
}
