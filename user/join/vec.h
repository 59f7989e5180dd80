/* SPDX-License-Identifier: MIT */
/* Growable arrays of the join: a vector of u64 (own durations), doubling
 * growth of any array, and the u64 order for qsort. */
#ifndef LATCTL_JOIN_VEC_H
#define LATCTL_JOIN_VEC_H

#include <stddef.h>
#include <stdint.h>

struct join_u64vec {
	uint64_t *v;
	size_t n, cap;
};

int join_vec_push(struct join_u64vec *vec, uint64_t x);
/* Grow *arr (of elem-sized items) so that it holds at least need items. */
int join_grow(void **arr, size_t *cap, size_t need, size_t elem);
int join_cmp_u64(const void *a, const void *b);

#endif /* LATCTL_JOIN_VEC_H */
