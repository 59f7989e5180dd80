// SPDX-License-Identifier: MIT
/* Record type LATMON_EV_IRQ: an interrupt while the measured thread ran. */
#include <string.h>

#include "events/evtype.h"
#include "lib/json.h"
#include "lib/rdoc.h"

static const struct join_label_desc labels[] = {
	{ .id = JOIN_INTERRUPT, .name = "interrupt", .own = "handler", .rank = 50,
	  .style = { "#009E73", HATCH_DOTS, MARK_TRIANGLE_DOWN } },
};

/* "hardirq", "softirq", ...; dflt for an unknown kind. */
static const char *kind_name(uint32_t kind, const char *dflt)
{
	static const char *const names[__LATMON_IRQ_MAX] = {
		[LATMON_IRQ_HARD] = "hardirq", [LATMON_IRQ_SOFT] = "softirq",
		[LATMON_IRQ_TIMER] = "timer", [LATMON_IRQ_IPI] = "ipi",
		[LATMON_IRQ_NMI] = "nmi",
	};

	return kind < __LATMON_IRQ_MAX && names[kind] ? names[kind] : dflt;
}

/* Remember one interrupt in the iteration's short list of distinct ones. */
static void note(struct join_iter *it, const struct latmon_event *ev)
{
	const struct latmon_irq *irq = &ev->u.irq;
	uint32_t i;

	for (i = 0; i < it->n_irq_kinds; i++) {
		struct join_irq *j = &it->irq[i];

		if (j->kind == irq->kind && j->number == irq->number &&
		    !strncmp(j->name, irq->name, sizeof(irq->name))) {
			j->count++;
			return;
		}
	}
	if (it->n_irq_kinds == JOIN_MAX_IRQS)
		return;
	it->irq[i].kind = irq->kind;
	it->irq[i].number = irq->number;
	it->irq[i].count = 1;
	memcpy(it->irq[i].name, irq->name, sizeof(irq->name));
	it->irq[i].name[sizeof(irq->name)] = '\0';
	it->n_irq_kinds++;
}

static cJSON *irqs_json(const struct join_iter *it)
{
	cJSON *a = cJSON_CreateArray();
	uint32_t i;

	for (i = 0; a && i < it->n_irq_kinds; i++) {
		const struct join_irq *q = &it->irq[i];
		cJSON *o = cJSON_CreateObject();

		if (!cJSON_AddItemToArray(a, o) ||
		    !lat_json_put(o, "kind", cJSON_CreateStringReference(kind_name(q->kind, "unknown"))) ||
		    !lat_json_put_num(o, "number", q->number) ||
		    !lat_json_put(o, "name", cJSON_CreateString(q->name)) ||
		    !lat_json_put_num(o, "count", q->count)) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

static bool to_json(cJSON *o, const struct join_iter *it)
{
	return !it->n_irq_kinds || lat_json_put(o, "interrupts", irqs_json(it));
}

/* "interrupts: timer LOC x3, softirq TIMER x1" */
static void detail(const cJSON *it, FILE *out, int *parts, struct lat_rd *rd)
{
	double n;
	const cJSON *a = lat_rd_opt_list(rd, it, "irqs", "interrupts", &n), *x;

	cJSON_ArrayForEach(x, a) {
		if (x == a->child)
			lat_detail_part(out, parts);
		fprintf(out, "%s%s %s x%.0f", x == a->child ? "interrupts: " : ", ",
			lat_rd_str(rd, x, "kind"), lat_rd_str(rd, x, "name"),
			lat_rd_num(rd, x, "count"));
	}
}

static void print(const struct latmon_event *e, FILE *out)
{
	fprintf(out, " kind=%s number=%u name=%.16s", kind_name(e->u.irq.kind, "?"),
		e->u.irq.number, e->u.irq.name);
}

struct lat_evtype lat_ev_irq = {
	.flags = LAT_EVT_ANY_TID | LAT_EVT_ON_CPU,
	.labels = labels,
	.n_labels = 1,
	.note = note,
	.to_json = to_json,
	.detail = detail,
	.print = print,
};
