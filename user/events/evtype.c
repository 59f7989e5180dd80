// SPDX-License-Identifier: MIT
/* The table of record types (see evtype.h); one line per type. */
#include <string.h>

#include "events/evtype.h"

extern const struct lat_evtype lat_ev_fault, lat_ev_thp_clear, lat_ev_irq, lat_ev_sched,
	lat_ev_migrate, lat_ev_lost, lat_ev_alloc_zero, lat_ev_compact, lat_ev_reclaim,
	lat_ev_syscall, lat_ev_wake, lat_ev_lock, lat_ev_tlb, lat_ev_steal, lat_ev_smi;

/* In the order of an iteration's detail line and JSON keys. */
/* clang-format off */
const struct lat_evtype *const lat_evtypes[] = {
	&lat_ev_fault,
	&lat_ev_thp_clear,
	&lat_ev_alloc_zero,
	&lat_ev_compact,
	&lat_ev_reclaim,
	&lat_ev_irq,
	&lat_ev_sched,
	&lat_ev_migrate,
	&lat_ev_lost,
	&lat_ev_syscall,
	&lat_ev_wake,
	&lat_ev_lock,
	&lat_ev_tlb,
	&lat_ev_steal,
	&lat_ev_smi,
};
/* clang-format on */
const size_t lat_n_evtypes = sizeof(lat_evtypes) / sizeof(lat_evtypes[0]);

const struct lat_evtype *lat_evtype(uint16_t type)
{
	size_t i;

	for (i = 0; i < lat_n_evtypes; i++)
		if (lat_evtypes[i]->type == type)
			return lat_evtypes[i];
	return NULL;
}

const char *lat_source_name(uint32_t id)
{
	size_t i;

	for (i = 0; id && i < lat_n_evtypes; i++)
		if (lat_evtypes[i]->source == id)
			return lat_evtypes[i]->source_name ? lat_evtypes[i]->source_name :
			       lat_evtypes[i]->name;
	return "?";
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
