/* SPDX-License-Identifier: MIT */
/*
 * One descriptor per latmon record type (enum latmon_event_type): its name,
 * the labels its events give to the ticks they cover (with their
 * precedence), how an event is noted into a slow iteration, its keys in the
 * JSON of an iteration, its part of the iteration's detail line, and the
 * text lmtool prints for a record. The join, the cause table, the renderer
 * and tests/vm/prog/lmtool.c iterate over these descriptors (lat_evtypes); a record
 * of a type without one is malformed: counted and shown, never relabelled.
 * Adding a record type: module/README.md, "Adding a record type".
 */
#ifndef LATCTL_EVTYPE_H
#define LATCTL_EVTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "events/iter.h"
#include "latmon.h"
#include "lib/rdoc.h"

/* lat_evtype.flags */
#define LAT_EVT_ANY_TID	(1U << 0)	/* tid 0: hit whichever thread ran */
#define LAT_EVT_ON_CPU	(1U << 1)	/* counts only on the iteration's CPUs */
#define LAT_EVT_INSTANT	(1U << 2)	/* covers no ticks, has no own duration */
#define LAT_EVT_LOST	(1U << 3)	/* reports dropped events: not joined */
#define LAT_EVT_AMOUNT                                                                             \
	(1U << 4) /* an amount of time somewhere in the
					 * record's interval: placed by
					 * join_steal.c, not swept as a span */

struct lat_evtype {
	/* its identity, from include/latmon_types.h (evtype.c writes it) */
	uint16_t type;			/* enum latmon_event_type */
	const char *name;		/* "fault", "thp-clear": lmtool, docs */
	uint32_t source;		/* the latmon source that records it, or 0 */
	const char *json;		/* key of the per-iteration count, or NULL */
	/* its behaviour, from its user/events/ev_*.c */
	uint32_t flags;			/* LAT_EVT_* */
	/* labels this type's events give (event labels: rank > 0) */
	const struct join_label_desc *labels;
	size_t n_labels;
	/* the label of one event; NULL: labels[0] (or JOIN_MIGRATION if none) */
	enum join_label (*label_of)(const struct latmon_event *ev);
	/* details of one event used by iteration it; NULL: only counted */
	void (*note)(struct join_iter *it, const struct latmon_event *ev);
	/* extra keys of an iteration's JSON after the count; false: no memory */
	bool (*to_json)(cJSON *o, const struct join_iter *it);
	/* this type's part of an iteration's detail line (lat_detail_part),
	 * its keys read and cross-checked through rd */
	void (*detail)(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd);
	/* the payload of a record, for lmtool: " addr=0x... size=..." */
	void (*print)(const struct latmon_event *ev, FILE *out);
};

/* Every known type, in the order of the detail line and the JSON keys. */
extern const struct lat_evtype *const lat_evtypes[];
extern const size_t lat_n_evtypes;

/* The descriptor of a record type; NULL: unknown (a malformed record). */
const struct lat_evtype *lat_evtype(uint16_t type);
/* The name of latmon source id (enum latmon_source_id), "?" if unknown. */
const char *lat_source_name(uint32_t id);
/* The descriptor named name ("fault"); NULL if none. */
const struct lat_evtype *lat_evtype_by_name(const char *name);
/* The label an event of a known type gives. */
enum join_label lat_evtype_label(const struct lat_evtype *t, const struct latmon_event *ev);
/* The descriptor of an event label; NULL if l is not one. */
const struct join_label_desc *lat_evtype_label_desc(enum join_label l);

/* A fault kind's name ("cow"; LATMON_FK_*), NULL for 0 or out of range;
 * why a kind is unknown (LATMON_FKW_*), NULL for none. */
const char *lat_fault_kind_name(unsigned int kind);
const char *lat_fault_why_text(unsigned int why);
/* What a kind is, by name ("cow": "a page copied on write ..."); NULL. */
const char *lat_fault_kind_what(const char *name);

/* Begin one part of an iteration's detail line: indentation, then "; ". */
void lat_detail_part(FILE *out, int *parts);

#endif /* LATCTL_EVTYPE_H */
