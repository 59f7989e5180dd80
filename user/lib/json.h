/* SPDX-License-Identifier: MIT */
/* The writers every JSON producer shares (the reader is rdoc.h). */
#ifndef LATCTL_JSON_H
#define LATCTL_JSON_H

#include <stdbool.h>
#include <cjson/cJSON.h>

/* Add item (may be NULL) under the constant key; false (item freed) if
 * it could not be added. */
bool lat_json_put(cJSON *o, const char *key, cJSON *item);
bool lat_json_put_num(cJSON *o, const char *key, double v);
/* A counter, present only when not zero (absent means 0). */
bool lat_json_put_count(cJSON *o, const char *key, double v);

#endif /* LATCTL_JSON_H */
