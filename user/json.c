// SPDX-License-Identifier: MIT
/* Lenient reads of a result document's members, for the text printers. */
#include "json.h"

double lat_json_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

const char *lat_json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : "?";
}

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
