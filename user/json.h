/* SPDX-License-Identifier: MIT */
/* Lenient reads of a result document's members, for the text printers. */
#ifndef LATCTL_JSON_H
#define LATCTL_JSON_H

#include <cjson/cJSON.h>

/* Member of a JSON object: 0 or "?" when absent or of another type. For
 * printers of parts of a document that lat_result_read already checked. */
double lat_json_num(const cJSON *o, const char *key);
const char *lat_json_str(const cJSON *o, const char *key);

#endif /* LATCTL_JSON_H */
