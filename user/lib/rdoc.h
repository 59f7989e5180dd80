/* SPDX-License-Identifier: MIT */
/*
 * The one strict reader of result documents: every key the renderer or a
 * workload's extras print is read through these, with its type. The first
 * key missing or of the wrong type is kept in struct lat_rd; the renderer
 * then prints nothing but one line naming it (render.c, exit 2).
 * A key that is absent by design (a counter written only when not zero) is
 * read with lat_rd_opt_count; a value that must agree with another one is
 * checked with lat_rd_expect.
 */
#ifndef LATCTL_RDOC_H
#define LATCTL_RDOC_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

struct lat_rd {
	const char *bad;	/* the first key missing or mistyped, or NULL */
};

/* Member key of o if it has one of the cJSON types in type, else NULL
 * (and key noted as bad). */
const cJSON *lat_rd_get(struct lat_rd *r, const cJSON *o, const char *key, int type);
double lat_rd_num(struct lat_rd *r, const cJSON *o, const char *key);
/* A count or bound in [0, 2^64). */
uint64_t lat_rd_count(struct lat_rd *r, const cJSON *o, const char *key);
/* A counter written only when not zero: absent is 0, else a number >= 0. */
double lat_rd_opt_count(struct lat_rd *r, const cJSON *o, const char *key);
const char *lat_rd_str(struct lat_rd *r, const cJSON *o, const char *key);
/* A string that may be null or empty: "none" then. */
const char *lat_rd_opt_str(struct lat_rd *r, const cJSON *o, const char *key);
bool lat_rd_bool(struct lat_rd *r, const cJSON *o, const char *key);
/* An object or an array; an empty one (never NULL) if missing. */
const cJSON *lat_rd_obj(struct lat_rd *r, const cJSON *o, const char *key);
const cJSON *lat_rd_array(struct lat_rd *r, const cJSON *o, const char *key);
/* A counter written only when not zero (into *n) and the non-empty array
 * written with it ("faults" and "fault_addresses"): the array, or NULL when
 * the count is 0; one without the other is a damaged document. */
const cJSON *lat_rd_opt_list(struct lat_rd *r, const cJSON *o, const char *count_key,
			     const char *list_key, double *n);
/* Note key as bad unless ok (a key absent, or present, against another). */
void lat_rd_expect(struct lat_rd *r, bool ok, const char *key);

#endif /* LATCTL_RDOC_H */
