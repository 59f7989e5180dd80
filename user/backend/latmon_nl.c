// SPDX-License-Identifier: MIT
/*
 * All libnl plumbing for the latmon generic netlink family: connect, resolve
 * the family, extended ack, error/finish/ack callbacks and the receive loop
 * (the shape of iw's __handle_cmd). Commands only add attributes and parse
 * replies into the plain structs of latmon_nl.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "events/evtype.h"
#include "backend/latmon_nl_int.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct latmon_nl {
	struct nl_sock *sk;
	int family;
	char errmsg[256];
};

/* State shared by the callbacks of one request. */
struct nl_req {
	struct latmon_nl *nl;
	int err;			/* > 0 while waiting, then 0 or -errno */
	int parse_err;			/* a reply the command could not parse */
	int (*parse)(struct nlattr **tb, void *arg);
	void *arg;
};

static const char *const state_names[] = {
	[LATMON_SRC_ATTACHED] = "attached",
	[LATMON_SRC_UNAVAILABLE] = "unavailable",
	[LATMON_SRC_AVAILABLE] = "available",
};

const char *latmon_nl_state_name(uint32_t state)
{
	if (state < sizeof(state_names) / sizeof(state_names[0]) && state_names[state])
		return state_names[state];
	return "?";
}

int latmon_nl_parse_sources(const char *list, uint32_t *mask, char *bad, size_t len)
{
	char *copy = strdup(list), *tok, *save = NULL;
	uint32_t id;
	int ret = copy ? 0 : -ENOMEM;

	*mask = 0;
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
		for (id = 1; id < __LATMON_SRC_MAX && strcmp(tok, lat_source_name(id)); id++)
			;
		if (id == __LATMON_SRC_MAX) {
			snprintf(bad, len, "%s", tok);
			ret = -EINVAL;
			break;
		}
		*mask |= LATMON_SRC_BIT(id);
	}
	free(copy);
	return ret ? ret : *mask ? 0 : -EINVAL;
}

const char *latmon_nl_errmsg(const struct latmon_nl *nl)
{
	return nl ? nl->errmsg : "";
}

/* Map a libnl error code to -errno for the callers. */
static int nlerr_to_errno(int err)
{
	switch (-err) {
	case NLE_NOMEM: return -ENOMEM;
	case NLE_PERM: return -EPERM;
	case NLE_OBJ_NOTFOUND: return -ENOENT;
	case NLE_AGAIN: return -EAGAIN;
	case NLE_INVAL: return -EINVAL;
	case NLE_RANGE: return -ERANGE;
	case NLE_BUSY: return -EBUSY;
	case NLE_NOACCESS: return -EACCES;
	default: return -EIO;
	}
}

struct nl_sock *latmon_nl_sock(struct latmon_nl *nl, int *family)
{
	*family = nl->family;
	return nl->sk;
}

int latmon_nl_open(struct latmon_nl **nlp)
{
	struct latmon_nl *nl;
	int one = 1, ret;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	ret = -ENOMEM;
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		goto out;
	ret = genl_connect(nl->sk);
	if (ret < 0) {
		ret = nlerr_to_errno(ret);
		goto out;
	}
	/* Ask for extended-ack messages and a capped copy of our request. */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->family = genl_ctrl_resolve(nl->sk, LATMON_GENL_NAME);
	if (nl->family < 0) {
		ret = -ENOENT;
		goto out;
	}
	*nlp = nl;
	return 0;
out:
	latmon_nl_close(nl);
	return ret;
}

void latmon_nl_close(struct latmon_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

/* Extended-ack attributes start after the nlmsgerr and the echoed request. */
static void save_extack(struct nl_req *req, struct nlmsghdr *nlh, struct nlmsgerr *e)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	int ack_len = sizeof(*nlh) + sizeof(*e);
	int len = nlh->nlmsg_len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		ack_len += e->msg.nlmsg_len - sizeof(*nlh);
	if (len <= ack_len)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)nlh + ack_len),
		      len - ack_len, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(req->nl->errmsg, tb[NLMSGERR_ATTR_MSG], sizeof(req->nl->errmsg));
}

static int error_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nl_req *req = arg;

	(void)nla;
	req->err = e->error;
	save_extack(req, (struct nlmsghdr *)e - 1, e);
	return NL_STOP;
}

static int finish_cb(struct nl_msg *msg, void *arg)
{
	struct nl_req *req = arg;

	(void)msg;
	req->err = 0;
	return NL_SKIP;
}

static int ack_cb(struct nl_msg *msg, void *arg)
{
	struct nl_req *req = arg;

	(void)msg;
	req->err = 0;
	return NL_STOP;
}

/* A reply message: split its attributes and hand them to the command. */
static int valid_cb(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[LATMON_A_MAX + 1];
	struct nl_req *req = arg;

	if (nla_parse(tb, LATMON_A_MAX, genlmsg_attrdata(gh, 0),
		      genlmsg_attrlen(gh, 0), NULL) < 0)
		return NL_SKIP;
	if (req->parse && req->parse(tb, req->arg) < 0)
		req->parse_err = -EPROTO;
	return NL_SKIP;
}

/* Send msg and run the receive loop until an ack, error or done. */
static int transact(struct latmon_nl *nl, struct nl_msg *msg,
		    int (*parse)(struct nlattr **, void *), void *arg)
{
	struct nl_req req = { .nl = nl, .err = 1, .parse = parse, .arg = arg };
	struct nl_cb *cb;
	int ret;

	nl->errmsg[0] = '\0';
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	ret = nl_send_auto_complete(nl->sk, msg);
	if (ret < 0) {
		ret = nlerr_to_errno(ret);
		goto out;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, error_cb, &req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, finish_cb, &req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ack_cb, &req);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, &req);
	while (req.err > 0) {
		ret = nl_recvmsgs(nl->sk, cb);
		if (ret < 0 && req.err > 0)
			req.err = nlerr_to_errno(ret);
	}
	ret = req.err ? req.err : req.parse_err;
out:
	nl_cb_put(cb);
	return ret;
}

/* Put one attribute of a hand-built request. */
static int put_attr(struct nl_msg *msg, const struct latmon_nl_attr *a)
{
	switch (a->kind) {
	case LATMON_NL_U8: return nla_put_u8(msg, a->type, a->value);
	case LATMON_NL_U16: return nla_put_u16(msg, a->type, a->value);
	case LATMON_NL_U32: return nla_put_u32(msg, a->type, a->value);
	case LATMON_NL_U64: return nla_put_u64(msg, a->type, a->value);
	case LATMON_NL_STRING: return nla_put_string(msg, a->type, a->data);
	case LATMON_NL_BINARY: return nla_put(msg, a->type, a->len, a->data);
	}
	return -NLE_INVAL;
}

/* Build cmd with attrs, send it with NLM_F_ACK, parse replies with parse. */
static int command(struct latmon_nl *nl, int cmd, int flags,
		   const struct latmon_nl_attr *attrs, int nattrs,
		   int (*parse)(struct nlattr **, void *), void *arg)
{
	struct nl_msg *msg;
	int i, ret = -ENOMEM;

	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 NLM_F_ACK | flags, cmd, LATMON_GENL_VERSION))
		goto out;
	for (i = 0; i < nattrs; i++)
		if (put_attr(msg, &attrs[i]) < 0)
			goto out;
	ret = transact(nl, msg, parse, arg);
out:
	nlmsg_free(msg);
	return ret;
}

int latmon_nl_request(struct latmon_nl *nl, int cmd, int flags,
		      const struct latmon_nl_attr *attrs, int nattrs)
{
	return command(nl, cmd, flags, attrs, nattrs, NULL, NULL);
}

/* Copy a string attribute into a fixed buffer ("" when absent); bounded
 * even if the attribute lacks its NUL. */
static void get_str(char *dst, size_t size, struct nlattr *a)
{
	dst[0] = '\0';
	if (a)
		nla_strlcpy(dst, a, size);
}

/* An integer attribute, 0 when absent or shorter than the integer (no
 * policy in nla_parse: libnl would read the next attribute or past the
 * message; found by tests/fuzz/fuzz_nl). */
static uint32_t get_u32(struct nlattr *a)
{
	return a && nla_len(a) >= (int)sizeof(uint32_t) ? nla_get_u32(a) : 0;
}

static uint64_t get_u64(struct nlattr *a)
{
	return a && nla_len(a) >= (int)sizeof(uint64_t) ? nla_get_u64(a) : 0;
}

/* One LATMON_A_SOURCE nest (GET_INFO and GET_STATS share the layout). */
static struct nla_policy source_policy[LATMON_SRC_A_MAX + 1] = {
	[LATMON_SRC_A_ID] = { .type = NLA_U32 },
	[LATMON_SRC_A_STATE] = { .type = NLA_U32 },
	[LATMON_SRC_A_MISSING] = { .type = NLA_U32 },
	[LATMON_SRC_A_MISSES] = { .type = NLA_U64 },
};

static int parse_source(struct nlattr *nest, struct latmon_nl_source *src)
{
	struct nlattr *tb[LATMON_SRC_A_MAX + 1];

	if (nla_parse_nested(tb, LATMON_SRC_A_MAX, nest, source_policy) < 0)
		return -EPROTO;
	memset(src, 0, sizeof(*src));
	src->id = get_u32(tb[LATMON_SRC_A_ID]);
	src->state = get_u32(tb[LATMON_SRC_A_STATE]);
	src->missing = get_u32(tb[LATMON_SRC_A_MISSING]);
	src->misses = get_u64(tb[LATMON_SRC_A_MISSES]);
	get_str(src->name, sizeof(src->name), tb[LATMON_SRC_A_NAME]);
	get_str(src->symbol, sizeof(src->symbol), tb[LATMON_SRC_A_SYMBOL]);
	get_str(src->reason, sizeof(src->reason), tb[LATMON_SRC_A_REASON]);
	return 0;
}

/* LATMON_A_SOURCES: a list of LATMON_A_SOURCE nests. */
static int parse_sources(struct nlattr *list, struct latmon_nl_source *srcs,
			 unsigned int *n)
{
	struct nlattr *a;
	int rem;

	*n = 0;
	if (!list)
		return 0;
	nla_for_each_nested(a, list, rem) {
		if (nla_type(a) != LATMON_A_SOURCE || *n >= LATMON_NL_MAX_SOURCES)
			continue;
		if (parse_source(a, &srcs[*n]) < 0)
			return -EPROTO;
		(*n)++;
	}
	return 0;
}

static int parse_info(struct nlattr **tb, void *arg)
{
	struct latmon_nl_info *info = arg;

	get_str(info->module_version, sizeof(info->module_version),
		tb[LATMON_A_MODULE_VERSION]);
	get_str(info->kernel_release, sizeof(info->kernel_release),
		tb[LATMON_A_KERNEL_RELEASE]);
	info->uapi_version = get_u32(tb[LATMON_A_UAPI_VERSION]);
	info->tsc_khz = get_u32(tb[LATMON_A_TSC_KHZ]);
	info->running = get_u32(tb[LATMON_A_RUNNING]);
	info->tgid = get_u32(tb[LATMON_A_TGID]);
	info->threads_max = get_u32(tb[LATMON_A_THREADS_MAX]);
	return parse_sources(tb[LATMON_A_SOURCES], info->sources, &info->nsources);
}

int latmon_nl_info(struct latmon_nl *nl, struct latmon_nl_info *info)
{
	memset(info, 0, sizeof(*info));
	return command(nl, LATMON_CMD_GET_INFO, 0, NULL, 0, parse_info, info);
}

/* Append a u32 attribute to a request under construction. */
static void add_u32(struct latmon_nl_attr *attrs, int *n, int type, uint32_t v)
{
	attrs[*n] = (struct latmon_nl_attr){ .type = type, .kind = LATMON_NL_U32, .value = v };
	(*n)++;
}

int latmon_nl_start(struct latmon_nl *nl, const struct latmon_nl_start_req *req)
{
	struct latmon_nl_attr attrs[3];
	int n = 0;

	add_u32(attrs, &n, LATMON_A_TGID, req->tgid);
	if (req->source_mask)
		add_u32(attrs, &n, LATMON_A_SOURCE_MASK, req->source_mask);
	if (req->buffer_events)
		add_u32(attrs, &n, LATMON_A_BUFFER_EVENTS, req->buffer_events);
	return command(nl, LATMON_CMD_START, 0, attrs, n, NULL, NULL);
}

int latmon_nl_stop(struct latmon_nl *nl)
{
	return command(nl, LATMON_CMD_STOP, 0, NULL, 0, NULL, NULL);
}

static struct nla_policy cpu_policy[LATMON_CPU_A_MAX + 1] = {
	[LATMON_CPU_A_ID] = { .type = NLA_U32 },
	[LATMON_CPU_A_RECORDED] = { .type = NLA_U64 },
	[LATMON_CPU_A_DROPPED] = { .type = NLA_U64 },
	[LATMON_CPU_A_READ] = { .type = NLA_U64 },
	[LATMON_CPU_A_LOST_RECORDS] = { .type = NLA_U64 },
};

/* One LATMON_A_CPU nest of GET_STATS. */
static int parse_cpu(struct nlattr *nest, struct latmon_nl_cpu *c)
{
	struct nlattr *tb[LATMON_CPU_A_MAX + 1];

	if (nla_parse_nested(tb, LATMON_CPU_A_MAX, nest, cpu_policy) < 0 || !tb[LATMON_CPU_A_ID])
		return -EPROTO;
	c->cpu = get_u32(tb[LATMON_CPU_A_ID]);
	c->recorded = get_u64(tb[LATMON_CPU_A_RECORDED]);
	c->dropped = get_u64(tb[LATMON_CPU_A_DROPPED]);
	c->read = get_u64(tb[LATMON_CPU_A_READ]);
	c->lost_records = get_u64(tb[LATMON_CPU_A_LOST_RECORDS]);
	return 0;
}

/* Room for one more CPU in st->cpus (the table grows with the reply). */
static struct latmon_nl_cpu *next_cpu(struct latmon_nl_stats *st)
{
	struct latmon_nl_cpu *c;
	unsigned int cap;

	if (st->ncpus < st->cap_cpus)
		return &st->cpus[st->ncpus];
	cap = st->cap_cpus ? 2 * st->cap_cpus : 64;
	c = realloc(st->cpus, cap * sizeof(*c));
	if (!c)
		return NULL;
	st->cpus = c;
	st->cap_cpus = cap;
	return &st->cpus[st->ncpus];
}

/* Every LATMON_A_CPU of the reply, however many CPUs the kernel has. */
static int parse_stats(struct nlattr **tb, void *arg)
{
	struct latmon_nl_stats *st = arg;
	struct latmon_nl_cpu *c;
	struct nlattr *a;
	int rem;

	if (tb[LATMON_A_CPUS]) {
		nla_for_each_nested(a, tb[LATMON_A_CPUS], rem) {
			if (nla_type(a) != LATMON_A_CPU)
				continue;
			c = next_cpu(st);
			if (!c || parse_cpu(a, c) < 0)
				return -EPROTO;
			st->ncpus++;
		}
	}
	st->threads = get_u32(tb[LATMON_A_THREADS]);
	st->threads_followed = get_u64(tb[LATMON_A_THREADS_FOLLOWED]);
	st->threads_refused = get_u64(tb[LATMON_A_THREADS_REFUSED]);
	return parse_sources(tb[LATMON_A_SOURCES], st->sources, &st->nsources);
}

void latmon_nl_stats_free(struct latmon_nl_stats *stats)
{
	free(stats->cpus);
	stats->cpus = NULL;
	stats->ncpus = stats->cap_cpus = 0;
}

int latmon_nl_stats(struct latmon_nl *nl, struct latmon_nl_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	return command(nl, LATMON_CMD_GET_STATS, 0, NULL, 0, parse_stats, stats);
}

/* The reply handler of cmd (GET_INFO: out is a latmon_nl_info, GET_STATS: a
 * latmon_nl_stats) run on one message as the receive loop runs it; for the
 * fuzzer (latmon_nl_int.h). 0, -EPROTO (unparsable) or -EINVAL (cmd). */
int latmon_nl_parse_reply(struct nl_msg *msg, int cmd, void *out)
{
	struct nl_req req = { .arg = out };

	if (cmd == LATMON_CMD_GET_INFO)
		req.parse = parse_info;
	else if (cmd == LATMON_CMD_GET_STATS)
		req.parse = parse_stats;
	else
		return -EINVAL;
	valid_cb(msg, &req);
	return req.parse_err;
}
