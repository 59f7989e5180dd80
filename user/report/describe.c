// SPDX-License-Identifier: MIT
/* What a slow iteration was, in one phrase (see describe.h). */
#include <stdlib.h>
#include <string.h>

#include "report/breakdown.h"
#include "report/describe.h"
#include "lib/json.h"
#include "lib/rdoc.h"

/* "munmap 12.1 ms: " when a system call is inside, else "12.1 ms: ". */
static void print_what(const cJSON *it, FILE *out, struct lat_rd *r)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "syscall");
	double ns = lat_rd_num(r, it, "duration_ns");

	if (c)
		fprintf(out, "%s ", lat_rd_str(r, c, "name"));
	if (ns < 1e6)
		fprintf(out, "%.1f us: ", ns / 1e3);
	else
		fprintf(out, "%.1f ms: ", ns / 1e6);
}

char *lat_iter_cause(const cJSON *it)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	struct lat_rd r = { 0 };

	if (!mem)
		return NULL;
	print_what(it, mem, &r);
	lat_print_breakdown(it, NULL, mem, &r);
	if (fclose(mem) != 0) {
		free(buf);
		return NULL;
	}
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

/* The slow iteration of iters with this sample index, or NULL. */
static const cJSON *iter_at(const cJSON *iters, double index)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, iters)
		if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(it, "index")) &&
		    cJSON_GetObjectItemCaseSensitive(it, "index")->valuedouble == index)
			return it;
	return NULL;
}

void lat_describe_slow_ops(cJSON *extras, const cJSON *iters)
{
	cJSON *ops = cJSON_GetObjectItemCaseSensitive(extras, "slow_ops"), *op;

	cJSON_ArrayForEach(op, ops) {
		const cJSON *idx = cJSON_GetObjectItemCaseSensitive(op, "index");
		const cJSON *it = cJSON_IsNumber(idx) ? iter_at(iters, idx->valuedouble) : NULL;
		char *cause = it ? lat_iter_cause(it) : NULL;

		cJSON_AddItemToObject(op, "cause", cause ? cJSON_CreateString(cause) : cJSON_CreateNull());
		free(cause);
	}
}
