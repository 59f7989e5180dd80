// SPDX-License-Identifier: GPL-2.0
/*
 * The "latmon" generic netlink family: GET_INFO, START, STOP, GET_STATS.
 * Every operation needs CAP_NET_ADMIN (GENL_ADMIN_PERM) and CAP_SYS_ADMIN,
 * both in the initial user namespace; the family exists only in the initial
 * network namespace. Policies are strict: unknown attributes, wrong types
 * and unknown flag bits are rejected with an extended ack.
 */
#include <linux/utsname.h>
#include <linux/capability.h>
#include <net/genetlink.h>
#include <asm/tsc.h>
#include "latmon.h"

static struct genl_family latmon_genl_family;

static LATMON_NL_RANGE_CONST struct netlink_range_validation tgid_range = {
	.min = 1, .max = PID_MAX_LIMIT,
};

static LATMON_NL_RANGE_CONST struct netlink_range_validation buffer_range = {
	.min = LATMON_MIN_BUFFER_EVENTS, .max = LATMON_MAX_BUFFER_EVENTS,
};

static const struct nla_policy start_policy[LATMON_A_MAX + 1] = {
	[LATMON_A_TGID] = NLA_POLICY_FULL_RANGE(NLA_U32, &tgid_range),
	[LATMON_A_SOURCE_MASK] = NLA_POLICY_MASK(NLA_U32, __LATMON_SRC_F_ALL),
	[LATMON_A_BUFFER_EVENTS] = NLA_POLICY_FULL_RANGE(NLA_U32, &buffer_range),
	[LATMON_A_FLAGS] = NLA_POLICY_MASK(NLA_U32, __LATMON_START_F_ALL),
};

/* Commands without attributes: every attribute is rejected. */
static const struct nla_policy noattr_policy[LATMON_A_MAX + 1] = {
	[LATMON_A_UNSPEC ... LATMON_A_MAX] = { .type = NLA_REJECT },
};

/* GENL_ADMIN_PERM checks CAP_NET_ADMIN; the device asks CAP_SYS_ADMIN too. */
static int check_admin(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	NL_SET_ERR_MSG(info->extack, "latmon: CAP_SYS_ADMIN is required");
	return -EPERM;
}

/* One source's nest in a GET_INFO or GET_STATS reply. */
static int put_source(struct sk_buff *msg, const struct latmon_source_ops *src,
		      bool stats)
{
	const struct latmon_source_status *st = src->status;
	struct nlattr *nest = nla_nest_start(msg, LATMON_A_SOURCE);
	u32 state = st->attached ? LATMON_SRC_ATTACHED :
		    st->available ? LATMON_SRC_AVAILABLE : LATMON_SRC_UNAVAILABLE;

	if (!nest || nla_put_u32(msg, LATMON_SRC_A_ID, src->id) ||
	    nla_put_string(msg, LATMON_SRC_A_NAME, latmon_source_name(src->id)))
		return -EMSGSIZE;
	if (stats) {
		if (nla_put_u64_64bit(msg, LATMON_SRC_A_MISSES,
				      latmon_source_misses(src), LATMON_SRC_A_PAD))
			return -EMSGSIZE;
	} else if (nla_put_u32(msg, LATMON_SRC_A_STATE, state) ||
		   nla_put_u32(msg, LATMON_SRC_A_MISSING, st->missing) ||
		   (st->reason[0] &&
		    nla_put_string(msg, LATMON_SRC_A_REASON, st->reason)) ||
		   (st->symbol &&
		    nla_put_string(msg, LATMON_SRC_A_SYMBOL, st->symbol))) {
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int put_sources(struct sk_buff *msg, bool stats)
{
	struct nlattr *nest = nla_nest_start(msg, LATMON_A_SOURCES);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < latmon_nr_sources; i++)
		if (put_source(msg, latmon_sources[i], stats))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int put_info(struct sk_buff *msg)
{
	struct latmon_threads_stats th;
	bool running = latmon_state == LATMON_RUNNING;

	if (nla_put_string(msg, LATMON_A_MODULE_VERSION, LATMON_MODULE_VERSION) ||
	    nla_put_u32(msg, LATMON_A_UAPI_VERSION, LATMON_UAPI_VERSION) ||
	    nla_put_u32(msg, LATMON_A_TSC_KHZ, tsc_khz) ||
	    nla_put_string(msg, LATMON_A_KERNEL_RELEASE, init_utsname()->release) ||
	    nla_put_u32(msg, LATMON_A_RUNNING, running) ||
	    (running && nla_put_u32(msg, LATMON_A_TGID, latmon_session_vtgid())))
		return -EMSGSIZE;
	latmon_threads_stats(&th);
	if (nla_put_u32(msg, LATMON_A_THREADS_MAX, th.max))
		return -EMSGSIZE;
	return put_sources(msg, false);
}

static int put_cpu_stats(struct sk_buff *msg, unsigned int cpu)
{
	struct nlattr *nest = nla_nest_start(msg, LATMON_A_CPU);
	struct latmon_ring_stats st;

	latmon_ring_stats(cpu, &st);
	if (!nest || nla_put_u32(msg, LATMON_CPU_A_ID, cpu) ||
	    nla_put_u64_64bit(msg, LATMON_CPU_A_RECORDED, st.recorded, LATMON_CPU_A_PAD) ||
	    nla_put_u64_64bit(msg, LATMON_CPU_A_DROPPED, st.dropped, LATMON_CPU_A_PAD) ||
	    nla_put_u64_64bit(msg, LATMON_CPU_A_READ, st.read, LATMON_CPU_A_PAD) ||
	    nla_put_u64_64bit(msg, LATMON_CPU_A_LOST_RECORDS, st.lost_records,
			      LATMON_CPU_A_PAD))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* How many targets live now, were followed and were refused. */
static int put_thread_stats(struct sk_buff *msg)
{
	struct latmon_threads_stats th;

	latmon_threads_stats(&th);
	if (nla_put_u32(msg, LATMON_A_THREADS, th.live) ||
	    nla_put_u64_64bit(msg, LATMON_A_THREADS_FOLLOWED, th.followed, LATMON_A_PAD) ||
	    nla_put_u64_64bit(msg, LATMON_A_THREADS_REFUSED, th.refused, LATMON_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static int put_stats(struct sk_buff *msg)
{
	struct nlattr *nest = nla_nest_start(msg, LATMON_A_CPUS);
	unsigned int cpu;

	if (!nest)
		return -EMSGSIZE;
	for_each_possible_cpu(cpu)
		if (put_cpu_stats(msg, cpu))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return put_thread_stats(msg) ?: put_sources(msg, true);
}

/* Bytes of one CPU's nest in a GET_STATS reply (put_cpu_stats). */
static size_t cpu_stats_size(void)
{
	return nla_total_size(0) + nla_total_size(sizeof(u32)) +
	       4 * nla_total_size_64bit(sizeof(u64));
}

/*
 * Build and send a reply whose attributes @fill adds under latmon_mutex:
 * room for the sources and every possible CPU's counts.
 */
static int reply(struct genl_info *info, u8 cmd,
		 int (*fill)(struct sk_buff *msg))
{
	size_t size = NLMSG_GOODSIZE + nla_total_size(0) +
		      num_possible_cpus() * cpu_stats_size();
	struct sk_buff *msg = genlmsg_new(size, GFP_KERNEL);
	void *hdr;
	int ret;

	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &latmon_genl_family, 0, cmd);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	mutex_lock(&latmon_mutex);
	ret = fill(msg);
	mutex_unlock(&latmon_mutex);
	if (ret) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack, "latmon: the answer does not fit in one message");
		return ret;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int latmon_get_info(struct sk_buff *skb, struct genl_info *info)
{
	return check_admin(skb, info) ?: reply(info, LATMON_CMD_GET_INFO, put_info);
}

static int latmon_get_stats(struct sk_buff *skb, struct genl_info *info)
{
	return check_admin(skb, info) ?: reply(info, LATMON_CMD_GET_STATS, put_stats);
}

static const u32 *attr_u32(struct genl_info *info, int type, u32 *val)
{
	if (!info->attrs[type])
		return NULL;
	*val = nla_get_u32(info->attrs[type]);
	return val;
}

static int latmon_start(struct sk_buff *skb, struct genl_info *info)
{
	u32 mask, slots;
	int ret = check_admin(skb, info);

	if (ret)
		return ret;
	if (GENL_REQ_ATTR_CHECK(info, LATMON_A_TGID)) {
		NL_SET_ERR_MSG(info->extack,
			       "latmon: START needs LATMON_A_TGID, the process to record");
		return -EINVAL;
	}
	return latmon_session_start(nla_get_u32(info->attrs[LATMON_A_TGID]),
				    attr_u32(info, LATMON_A_SOURCE_MASK, &mask),
				    attr_u32(info, LATMON_A_BUFFER_EVENTS, &slots),
				    info->extack);
}

static int latmon_stop(struct sk_buff *skb, struct genl_info *info)
{
	return check_admin(skb, info) ?: latmon_session_stop(info->extack);
}

static const struct genl_ops latmon_genl_ops[] = {
	{
		.cmd = LATMON_CMD_GET_INFO,
		.doit = latmon_get_info,
		.policy = noattr_policy,
		.maxattr = LATMON_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = LATMON_CMD_START,
		.doit = latmon_start,
		.policy = start_policy,
		.maxattr = LATMON_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = LATMON_CMD_STOP,
		.doit = latmon_stop,
		.policy = noattr_policy,
		.maxattr = LATMON_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = LATMON_CMD_GET_STATS,
		.doit = latmon_get_stats,
		.policy = noattr_policy,
		.maxattr = LATMON_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
};

static struct genl_family latmon_genl_family __ro_after_init = {
	.name = LATMON_GENL_NAME,
	.version = LATMON_GENL_VERSION,
	.maxattr = LATMON_A_MAX,
	.module = THIS_MODULE,
	.ops = latmon_genl_ops,
	.n_ops = ARRAY_SIZE(latmon_genl_ops),
	.parallel_ops = true,
	.netnsok = false,
};

int __init latmon_genl_init(void)
{
	return genl_register_family(&latmon_genl_family);
}

void latmon_genl_exit(void)
{
	genl_unregister_family(&latmon_genl_family);
}

MODULE_ALIAS_GENL_FAMILY(LATMON_GENL_NAME);
