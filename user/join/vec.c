// SPDX-License-Identifier: MIT
/* Growable arrays of the join (vec.h). */
#include <errno.h>
#include <stdlib.h>

#include "join/vec.h"

int join_vec_push(struct join_u64vec *vec, uint64_t x)
{
	int ret = join_grow((void **)&vec->v, &vec->cap, vec->n + 1, sizeof(*vec->v));

	if (!ret)
		vec->v[vec->n++] = x;
	return ret;
}

int join_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

int join_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}
