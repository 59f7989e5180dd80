// SPDX-License-Identifier: MIT
/* The strict reader of result documents (see rdoc.h). */
#include "lib/rdoc.h"

void lat_rd_expect(struct lat_rd *r, bool ok, const char *key)
{
	if (!ok && !r->bad)
		r->bad = key;
}

const cJSON *lat_rd_get(struct lat_rd *r, const cJSON *o, const char *key, int type)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v || !(v->type & type)) {
		lat_rd_expect(r, false, key);
		return NULL;
	}
	return v;
}

double lat_rd_num(struct lat_rd *r, const cJSON *o, const char *key)
{
	const cJSON *v = lat_rd_get(r, o, key, cJSON_Number);

	return v ? v->valuedouble : 0;
}

/* Anything outside [0, 2^64) (a negative, 1e300) marks the document damaged
 * instead of a float-to-integer overflow (fuzz_result). */
uint64_t lat_rd_count(struct lat_rd *r, const cJSON *o, const char *key)
{
	double v = lat_rd_num(r, o, key);

	if (v >= 0 && v < 18446744073709551616.0)
		return (uint64_t)v;
	lat_rd_expect(r, false, key);
	return 0;
}

double lat_rd_opt_count(struct lat_rd *r, const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v)
		return 0;
	lat_rd_expect(r, cJSON_IsNumber(v) && v->valuedouble >= 0, key);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

const char *lat_rd_str(struct lat_rd *r, const cJSON *o, const char *key)
{
	const cJSON *v = lat_rd_get(r, o, key, cJSON_String);

	return v ? v->valuestring : "?";
}

const char *lat_rd_opt_str(struct lat_rd *r, const cJSON *o, const char *key)
{
	const cJSON *v = lat_rd_get(r, o, key, cJSON_String | cJSON_NULL);

	return v && cJSON_IsString(v) && *v->valuestring ? v->valuestring : "none";
}

bool lat_rd_bool(struct lat_rd *r, const cJSON *o, const char *key)
{
	return cJSON_IsTrue(lat_rd_get(r, o, key, cJSON_True | cJSON_False));
}

const cJSON *lat_rd_obj(struct lat_rd *r, const cJSON *o, const char *key)
{
	static const cJSON empty = { .type = cJSON_Object };
	const cJSON *v = lat_rd_get(r, o, key, cJSON_Object);

	return v ? v : &empty;
}

const cJSON *lat_rd_array(struct lat_rd *r, const cJSON *o, const char *key)
{
	static const cJSON empty = { .type = cJSON_Array };
	const cJSON *v = lat_rd_get(r, o, key, cJSON_Array);

	return v ? v : &empty;
}

const cJSON *lat_rd_opt_list(struct lat_rd *r, const cJSON *o, const char *count_key,
			     const char *list_key, double *n)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, list_key);

	*n = lat_rd_opt_count(r, o, count_key);
	lat_rd_expect(r, !*n == !a, *n ? list_key : count_key);
	lat_rd_expect(r, !a || (cJSON_IsArray(a) && a->child), list_key);
	return cJSON_IsArray(a) ? a : NULL;
}
