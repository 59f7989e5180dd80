/* SPDX-License-Identifier: MIT */
/* Reads of a result document's members for the text printers, and the
 * writers every JSON producer shares. */
#ifndef LATCTL_JSON_H
#define LATCTL_JSON_H

#include <stdbool.h>
#include <cjson/cJSON.h>

/* Member of a JSON object: 0 or "?" when absent or of another type. For
 * printers of parts of a document that lat_result_read already checked. */
double lat_json_num(const cJSON *o, const char *key);
const char *lat_json_str(const cJSON *o, const char *key);

/* Add item (may be NULL) under the constant key; false (item freed) if
 * it could not be added. */
bool lat_json_put(cJSON *o, const char *key, cJSON *item);
bool lat_json_put_num(cJSON *o, const char *key, double v);
/* A counter, present only when not zero (absent means 0). */
bool lat_json_put_count(cJSON *o, const char *key, double v);

#endif /* LATCTL_JSON_H */
