// SPDX-License-Identifier: MIT
/* --thp-size, --fragment, --memcg: set up, shown in the result, undone. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/fragment.h"
#include "system/memcg.h"
#include "system/mmenv.h"
#include "lib/rdoc.h"
#include "settings/sysset.h"
#include "system/thp_size.h"

static struct lat_fragment frag;
static int fragmented;

int lat_mm_parse_size(const char *opt, const char *arg, uint64_t *bytes)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!strcasecmp(end, "K"))
		shift = 10;
	else if (!strcasecmp(end, "M"))
		shift = 20;
	else if (!strcasecmp(end, "G"))
		shift = 30;
	else if (*end)
		v = 0;
	if (arg[0] < '0' || arg[0] > '9' || errno || v > (1ULL << (63 - shift)) ||
	    (v << shift) < (1ULL << 20)) {
		fprintf(stderr, "latctl: %s '%s' is not valid; give a size of at least 1M, such as 64M or 1G\n",
			opt, arg);
		return -EINVAL;
	}
	*bytes = v << shift;
	return 0;
}

int lat_mm_env_prepare(const struct lat_mm_opts *o)
{
	int ret = lat_thp_size_apply(o->thp_size, o->n_thp_size);

	if (!ret && o->fragment) {
		ret = lat_fragment_start(&frag);
		fragmented = !ret;
	}
	if (!ret && o->memcg_bytes)
		ret = lat_memcg_start(o->memcg_bytes);
	if (ret)
		lat_mm_env_restore();
	return ret;
}

int lat_mm_env_enter(void)
{
	return lat_memcg_enter();
}

void lat_mm_env_leave(void)
{
	lat_memcg_leave();
}

cJSON *lat_mm_env_json(void)
{
	cJSON *mm = cJSON_CreateObject(), *sizes = lat_thp_size_json();
	cJSON *cg = lat_memcg_json();

	cJSON_AddItemToObject(mm, "thp_sizes", sizes ? sizes : cJSON_CreateNull());
	cJSON_AddItemToObject(mm, "fragment",
			      fragmented ? lat_fragment_json(&frag) : cJSON_CreateNull());
	cJSON_AddItemToObject(mm, "memcg", cg ? cg : cJSON_CreateNull());
	return mm;
}

void lat_mm_env_restore(void)
{
	lat_memcg_stop();
	lat_fragment_stop(&frag);
	lat_sysset_restore();
}

void lat_mm_env_print(const cJSON *mm, FILE *out, struct lat_rd *r)
{
	const int obj_or_null = cJSON_Object | cJSON_NULL;

	lat_thp_size_print(lat_rd_get(r, mm, "thp_sizes", obj_or_null), out, r);
	lat_fragment_print(lat_rd_get(r, mm, "fragment", obj_or_null), out, r);
	lat_memcg_print(lat_rd_get(r, mm, "memcg", obj_or_null), out, r);
}
