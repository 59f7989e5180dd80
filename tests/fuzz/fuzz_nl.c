// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: latmon_nl's reply handlers. The input is the attribute
 * part of a generic netlink reply; it is put after a netlink and a genl
 * header in a message of exactly that size (so ASan sees any read past it)
 * and handed to the GET_INFO and to the GET_STATS handler as the receive
 * loop does (latmon_nl_parse_reply). The parsed structs then go through
 * lat_monitor_json(), where `latctl run` uses them. Checked: counts within
 * their arrays, every string NUL-terminated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <netlink/attr.h>

#include "backend/latmon_nl_int.h"
#include "backend/monitor.h"

static struct lat_monitor mon;
static struct lat_evbuf buf;

/*
 * libnl is not instrumented, so its getters read past a short attribute
 * unseen. These replace them for latmon_nl.o (same symbols, this binary
 * first): an integer read from an attribute shorter than the integer is a
 * parser bug (it reads the next attribute, or past the message).
 */
uint32_t nla_get_u32(const struct nlattr *nla)
{
	uint32_t v;

	if (nla_len(nla) < (int)sizeof(v))
		abort();
	memcpy(&v, nla_data(nla), sizeof(v));
	return v;
}

uint64_t nla_get_u64(const struct nlattr *nla)
{
	uint64_t v;

	if (nla_len(nla) < (int)sizeof(v))
		abort();
	memcpy(&v, nla_data(nla), sizeof(v));
	return v;
}

/* An nl_msg of one reply to cmd carrying data as its attributes. */
static struct nl_msg *reply(int cmd, const uint8_t *data, size_t size)
{
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN + size;
	struct nlmsghdr *h = calloc(1, len);
	struct genlmsghdr *g = (struct genlmsghdr *)(h + 1);
	struct nl_msg *msg;

	if (!h)
		abort();
	h->nlmsg_len = len;
	h->nlmsg_type = 0x20;
	g->cmd = cmd;
	g->version = LATMON_GENL_VERSION;
	memcpy((char *)g + GENL_HDRLEN, data, size);
	msg = nlmsg_convert(h);
	free(h);
	if (!msg)
		abort();
	return msg;
}

static void check_source(const struct latmon_nl_source *s)
{
	if (!memchr(s->name, 0, sizeof(s->name)) || !memchr(s->symbol, 0, sizeof(s->symbol)) ||
	    !memchr(s->reason, 0, sizeof(s->reason)))
		abort();
}

static void check(const struct lat_monitor *m)
{
	unsigned int i;

	if (m->info.nsources > LATMON_NL_MAX_SOURCES || m->stats.nsources > LATMON_NL_MAX_SOURCES ||
	    m->stats.ncpus > m->stats.cap_cpus ||
	    !memchr(m->info.module_version, 0, sizeof(m->info.module_version)) ||
	    !memchr(m->info.kernel_release, 0, sizeof(m->info.kernel_release)))
		abort();
	for (i = 0; i < m->info.nsources; i++)
		check_source(&m->info.sources[i]);
	for (i = 0; i < m->stats.nsources; i++)
		check_source(&m->stats.sources[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nl_msg *msg;
	cJSON *o;
	char *s;

	memset(&mon, 0, sizeof(mon));
	lat_evbuf_init(&buf, 0);
	mon.buf = &buf;
	mon.state = LAT_MON_ON;
	msg = reply(LATMON_CMD_GET_INFO, data, size);
	latmon_nl_parse_reply(msg, LATMON_CMD_GET_INFO, &mon.info);
	nlmsg_free(msg);
	msg = reply(LATMON_CMD_GET_STATS, data, size);
	mon.have_stats = latmon_nl_parse_reply(msg, LATMON_CMD_GET_STATS, &mon.stats) == 0;
	nlmsg_free(msg);
	check(&mon);
	o = lat_monitor_json(&mon);
	s = cJSON_PrintUnformatted(o);
	if (!o || !s)
		abort();
	free(s);
	cJSON_Delete(o);
	latmon_nl_stats_free(&mon.stats);
	return 0;
}
