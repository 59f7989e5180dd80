// SPDX-License-Identifier: MIT
/* The writers every JSON producer shares (the reader is rdoc.c). */
#include "lib/json.h"

/*
 * Writers use constant keys (cJSON_AddItemToObjectCS): a run may have
 * hundreds of thousands of slow iterations, and copying every key doubled
 * the allocations. On failure the item is freed.
 */
bool lat_json_put(cJSON *o, const char *key, cJSON *item)
{
	if (!item)
		return false;
	if (!cJSON_AddItemToObjectCS(o, key, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

bool lat_json_put_num(cJSON *o, const char *key, double v)
{
	return lat_json_put(o, key, cJSON_CreateNumber(v));
}

bool lat_json_put_count(cJSON *o, const char *key, double v)
{
	return !v || lat_json_put_num(o, key, v);
}
