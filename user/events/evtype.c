// SPDX-License-Identifier: MIT
/* The table of record types (see evtype.h), expanded from
 * include/latmon_types.h. */
#include <string.h>

#include "events/evtype.h"

/* Each type's descriptor (user/events/ev_*.c): its behaviour. */
#define EV_EXTERN(NAME, id, sym, name, json, src) extern struct lat_evtype lat_ev_##sym;
LATMON_EVENT_TYPES(EV_EXTERN)

/* In the order of an iteration's detail line and JSON keys: the list's. */
#define EV_PTR(NAME, id, sym, name, json, src) &lat_ev_##sym,
const struct lat_evtype *const lat_evtypes[] = { LATMON_EVENT_TYPES(EV_PTR) };
static struct lat_evtype *const writable[] = { LATMON_EVENT_TYPES(EV_PTR) };

/* Each type's identity: the list's, written into its descriptor once,
 * before main(). */
#define EV_ID(NAME, id, sym, name, json, src) { id, name, json, src },
static const struct {
	uint16_t type;
	const char *name, *json;
	uint32_t source;
} ids[] = { LATMON_EVENT_TYPES(EV_ID) };

__attribute__((constructor)) static void evtypes_identify(void)
{
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		writable[i]->type = ids[i].type;
		writable[i]->name = ids[i].name;
		writable[i]->json = ids[i].json;
		writable[i]->source = ids[i].source;
	}
}

const size_t lat_n_evtypes = sizeof(lat_evtypes) / sizeof(lat_evtypes[0]);

const struct lat_evtype *lat_evtype(uint16_t type)
{
	size_t i;

	for (i = 0; i < lat_n_evtypes; i++)
		if (lat_evtypes[i]->type == type)
			return lat_evtypes[i];
	return NULL;
}

static const char *const source_names[__LATMON_SRC_MAX] = { LATMON_SOURCES(__LATMON_SRC_NAME) };

const char *lat_source_name(uint32_t id)
{
	return id && id < __LATMON_SRC_MAX && source_names[id] ? source_names[id] : "?";
}

const struct lat_evtype *lat_evtype_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < lat_n_evtypes; i++)
		if (!strcmp(lat_evtypes[i]->name, name))
			return lat_evtypes[i];
	return NULL;
}

enum join_label lat_evtype_label(const struct lat_evtype *t, const struct latmon_event *ev)
{
	if (t->label_of)
		return t->label_of(ev);
	return t->n_labels ? t->labels[0].id : JOIN_MIGRATION;
}

const struct join_label_desc *lat_evtype_label_desc(enum join_label l)
{
	size_t i, j;

	for (i = 0; i < lat_n_evtypes; i++)
		for (j = 0; j < lat_evtypes[i]->n_labels; j++)
			if (lat_evtypes[i]->labels[j].id == l)
				return &lat_evtypes[i]->labels[j];
	return NULL;
}

void lat_detail_part(FILE *out, int *parts)
{
	fputs((*parts)++ ? "; " : "                        ", out);
}
