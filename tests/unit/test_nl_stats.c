// SPDX-License-Identifier: MIT
/*
 * GET_STATS of a large machine: a reply of 1,024 CPUs is read completely
 * (latmon_nl.c sizes its table from the reply) and its totals reach the
 * latmon section of the result (records_delivered, lost_by_latmon).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <netlink/genl/genl.h>

#include "backend/latmon_nl_int.h"
#include "backend/monitor.h"

#define NCPUS	1024

/* One CPU's counts, distinct per CPU so a dropped or doubled one shows. */
static void put_cpu(struct nl_msg *msg, uint32_t cpu)
{
	struct nlattr *n = nla_nest_start(msg, LATMON_A_CPU);

	assert_non_null(n);
	assert_int_equal(nla_put_u32(msg, LATMON_CPU_A_ID, cpu), 0);
	assert_int_equal(nla_put_u64(msg, LATMON_CPU_A_RECORDED, 1000 + cpu), 0);
	assert_int_equal(nla_put_u64(msg, LATMON_CPU_A_DROPPED, cpu % 7), 0);
	assert_int_equal(nla_put_u64(msg, LATMON_CPU_A_READ, 1000 + cpu + (cpu % 7 != 0)), 0);
	assert_int_equal(nla_put_u64(msg, LATMON_CPU_A_LOST_RECORDS, cpu % 7 != 0), 0);
	nla_nest_end(msg, n);
}

static struct nl_msg *stats_reply(unsigned int ncpus)
{
	struct nl_msg *msg = nlmsg_alloc_size(256 + ncpus * 96);
	struct nlattr *cpus;
	unsigned int i;

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, 0x20, 0, 0,
				    LATMON_CMD_GET_STATS, LATMON_GENL_VERSION));
	cpus = nla_nest_start(msg, LATMON_A_CPUS);
	for (i = 0; i < ncpus; i++)
		put_cpu(msg, i);
	nla_nest_end(msg, cpus);
	return msg;
}

static void test_1024_cpus(void **state)
{
	struct nl_msg *msg = stats_reply(NCPUS);
	struct lat_monitor mon;
	struct lat_evbuf buf;
	uint64_t recorded = 0, dropped = 0, read = 0, want_read = 0, want_dropped = 0;
	cJSON *o;
	unsigned int i;

	(void)state;
	memset(&mon, 0, sizeof(mon));
	lat_evbuf_init(&buf, 0);
	mon.buf = &buf;
	mon.state = LAT_MON_ON;
	assert_int_equal(latmon_nl_parse_reply(msg, LATMON_CMD_GET_STATS, &mon.stats), 0);
	nlmsg_free(msg);
	mon.have_stats = 1;
	assert_int_equal(mon.stats.ncpus, NCPUS);
	for (i = 0; i < NCPUS; i++) {
		assert_int_equal(mon.stats.cpus[i].cpu, i);
		recorded += mon.stats.cpus[i].recorded;
		dropped += mon.stats.cpus[i].dropped;
		read += mon.stats.cpus[i].read;
		want_dropped += i % 7;
		want_read += 1000 + i + (i % 7 != 0);
	}
	assert_int_equal(recorded, 1000 * NCPUS + NCPUS * (NCPUS - 1) / 2);
	assert_int_equal(dropped, want_dropped);
	assert_int_equal(read, want_read);
	o = lat_monitor_json(&mon);
	assert_non_null(o);
	assert_true(cJSON_GetObjectItem(o, "records_delivered")->valuedouble == (double)read);
	assert_true(cJSON_GetObjectItem(o, "lost_by_latmon")->valuedouble == (double)dropped);
	cJSON_Delete(o);
	latmon_nl_stats_free(&mon.stats);
}

/* A CPU nest whose counter has the wrong size is refused, not half read. */
static void test_policy(void **state)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct latmon_nl_stats st;
	struct nlattr *cpus, *n;

	(void)state;
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, 0x20, 0, 0, LATMON_CMD_GET_STATS,
		    LATMON_GENL_VERSION);
	cpus = nla_nest_start(msg, LATMON_A_CPUS);
	n = nla_nest_start(msg, LATMON_A_CPU);
	nla_put_u32(msg, LATMON_CPU_A_ID, 3);
	nla_put_u32(msg, LATMON_CPU_A_RECORDED, 5);	/* a u64 in the UAPI */
	nla_nest_end(msg, n);
	nla_nest_end(msg, cpus);
	memset(&st, 0, sizeof(st));
	assert_int_equal(latmon_nl_parse_reply(msg, LATMON_CMD_GET_STATS, &st), -EPROTO);
	nlmsg_free(msg);
	latmon_nl_stats_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_1024_cpus),
		cmocka_unit_test(test_policy),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	return cmocka_run_group_tests_name("nl_stats", tests, NULL, NULL);
}
