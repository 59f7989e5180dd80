// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints that are not exported to modules, found by name with
 * for_each_kernel_tracepoint() and attached with tracepoint_probe_register(),
 * and the generic source they make: a table of tracepoints and probes
 * (struct latmon_tp_source) resolved, attached and detached here for every
 * source that has one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/tracepoint.h>
#include <linux/string.h>
#include "latmon.h"

struct tp_search {
	struct latmon_tp *tps;
	unsigned int n;
};

static void tp_match(struct tracepoint *tp, void *priv)
{
	struct tp_search *s = priv;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!s->tps[i].tp && !strcmp(tp->name, s->tps[i].name))
			s->tps[i].tp = tp;
}

/*
 * Resolve every tracepoint of @tps; returns how many are missing and writes
 * "missing N tracepoints: a b ..." to @reason (empty if none).
 */
u32 latmon_tp_lookup(struct latmon_tp *tps, unsigned int n,
		     char *reason, size_t len)
{
	struct tp_search s = { .tps = tps, .n = n };
	unsigned int i, missing = 0;
	size_t off = 0;

	for_each_kernel_tracepoint(tp_match, &s);
	for (i = 0; i < n; i++)
		missing += !tps[i].tp;
	reason[0] = '\0';
	if (!missing)
		return 0;
	off = scnprintf(reason, len, "missing %u tracepoint%s:", missing,
			missing > 1 ? "s" : "");
	for (i = 0; i < n; i++)
		if (!tps[i].tp)
			off += scnprintf(reason + off, len - off, " %s",
					 tps[i].name);
	return missing;
}

/* Register the probes of every tracepoint found; all or nothing. */
int latmon_tp_register(struct latmon_tp *tps, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		if (!tps[i].tp)
			continue;
		ret = tracepoint_probe_register(tps[i].tp, tps[i].probe,
						tps[i].data);
		if (ret) {
			pr_warn("registering tracepoint %s: %d\n",
				tps[i].name, ret);
			latmon_tp_unregister(tps, i);
			return ret;
		}
		tps[i].registered = true;
	}
	return 0;
}

/* Unregister the probes registered among the first @n; caller synchronises. */
void latmon_tp_unregister(struct latmon_tp *tps, unsigned int n)
{
	unsigned int i;

	for (i = n; i-- > 0;) {
		if (!tps[i].registered)
			continue;
		tracepoint_probe_unregister(tps[i].tp, tps[i].probe,
					    tps[i].data);
		tps[i].registered = false;
	}
}

static int tp_source_resolve(const struct latmon_source_ops *src)
{
	const struct latmon_tp_source *s = src->tp;
	struct latmon_source_status *st = src->status;

	st->missing = latmon_tp_lookup(s->tps, s->n, st->reason, sizeof(st->reason));
	st->available = s->available ? s->available(s->tps) : st->missing < s->n;
	return 0;
}

int latmon_source_resolve(const struct latmon_source_ops *src)
{
	return src->tp ? tp_source_resolve(src) : src->resolve(src->status);
}

int latmon_source_attach(const struct latmon_source_ops *src)
{
	return src->tp ? latmon_tp_register(src->tp->tps, src->tp->n) : src->attach();
}

void latmon_source_detach(const struct latmon_source_ops *src)
{
	if (src->tp)
		latmon_tp_unregister(src->tp->tps, src->tp->n);
	else
		src->detach();
}
