/* SPDX-License-Identifier: MIT */
/* The parts of `latctl compare` output: the metric rows of two documents,
 * the per-cause explanation of the change, the LKP-style table and the
 * JSON document (schema "latctl.compare"). */
#ifndef LATCTL_COMPARE_H
#define LATCTL_COMPARE_H

#include <stdio.h>
#include <cjson/cJSON.h>

#define LAT_COMPARE_SCHEMA		"latctl.compare"
#define LAT_COMPARE_SCHEMA_VERSION	1
/* The metric a comparison judges at alpha; the others are corrected. */
#define LAT_COMPARE_PRIMARY		"p99.9"

/* A metric row of a comparison: calls fn for the fixed metrics, then for
 * count:, share: and own: of every cause either side names. */
struct lat_metric;
struct lat_pair;
struct lat_side;
typedef void (*lat_row_fn)(void *arg, const struct lat_metric *m, const struct lat_pair *p);
int lat_compare_rows(const struct lat_side *base, const struct lat_side *new, const char *primary,
		     lat_row_fn fn, void *arg);

/* The 80-column table and the cause explanation of base -> new; each side
 * one result (its runs the units) or several invocations (each a unit). */
int lat_compare_print(FILE *out, const struct lat_side *base, const struct lat_side *new,
		      const char *primary);
/* The 0-day (LKP) style %stddev %change %stddev table. */
int lat_compare_print_lkp(FILE *out, const struct lat_side *base, const struct lat_side *new,
			  const char *primary);
/* {metrics: [...], causes: [...], verdict, units...} of base -> new. */
cJSON *lat_compare_json(const struct lat_side *base, const struct lat_side *new,
			const char *primary);
/* The change of the slow time explained by causes, as text and as the
 * JSON "causes" array; gate: the primary metric changed significantly
 * (else no cause row is called significant). */
void lat_compare_explain(FILE *out, const struct lat_side *base, const struct lat_side *new,
			 int gate);
cJSON *lat_compare_causes_json(const struct lat_side *base, const struct lat_side *new, int gate);

#endif /* LATCTL_COMPARE_H */
