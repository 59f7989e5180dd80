/* SPDX-License-Identifier: MIT */
/*
 * latmon_nl: the one file of libnl plumbing for the "latmon" generic netlink
 * family (include/latmon.h). Commands fill plain C structs; every function
 * returns 0 or -errno, and after a failure latmon_nl_errmsg() gives the
 * kernel's extended-ack message, if it sent one.
 */
#ifndef LATMON_NL_H
#define LATMON_NL_H

#include <stddef.h>
#include <stdint.h>
#include <latmon.h>

struct latmon_nl;

#define LATMON_NL_NAME_LEN	32
#define LATMON_NL_TEXT_LEN	128
#define LATMON_NL_MAX_SOURCES	16

struct latmon_nl_source {
	uint32_t id;			/* enum latmon_source_id */
	uint32_t state;			/* enum latmon_source_state, 0 if absent */
	uint32_t missing;		/* symbols/tracepoints not found */
	uint64_t misses;		/* GET_STATS only */
	char name[LATMON_NL_NAME_LEN];
	char symbol[LATMON_NL_TEXT_LEN];
	char reason[LATMON_NL_TEXT_LEN];
};

struct latmon_nl_info {
	char module_version[LATMON_NL_NAME_LEN];
	char kernel_release[LATMON_NL_TEXT_LEN];
	uint32_t uapi_version;
	uint32_t tsc_khz;
	uint32_t running;
	uint32_t tgid;			/* target while running, else 0 */
	uint32_t threads_max;		/* targets that may live at once */
	unsigned int nsources;
	struct latmon_nl_source sources[LATMON_NL_MAX_SOURCES];
};

/* A START request; a zero field leaves its attribute out (module default). */
struct latmon_nl_start_req {
	uint32_t tgid;
	uint32_t source_mask;
	uint32_t buffer_events;
};

struct latmon_nl_cpu {
	uint32_t cpu;
	uint64_t recorded;
	uint64_t dropped;
	uint64_t read;
	uint64_t lost_records;
};

/* GET_STATS: as many CPUs as the reply holds (cpus is allocated by
 * latmon_nl_stats, which starts from an empty table; free it with
 * latmon_nl_stats_free). */
struct latmon_nl_stats {
	unsigned int ncpus, cap_cpus;
	struct latmon_nl_cpu *cpus;
	uint32_t threads;		/* targets alive (at STOP, once stopped) */
	uint64_t threads_followed;	/* targets added since START */
	uint64_t threads_refused;	/* threads not followed: the limit */
	unsigned int nsources;
	struct latmon_nl_source sources[LATMON_NL_MAX_SOURCES];
};

/* One attribute of a hand-built request (latmon_nl_request). */
enum latmon_nl_kind {
	LATMON_NL_U8 = 1,
	LATMON_NL_U16,
	LATMON_NL_U32,
	LATMON_NL_U64,
	LATMON_NL_STRING,
	LATMON_NL_BINARY,		/* len bytes of data */
};

struct latmon_nl_attr {
	int type;			/* LATMON_A_* */
	enum latmon_nl_kind kind;
	uint64_t value;			/* for the integer kinds */
	const void *data;		/* for STRING and BINARY */
	size_t len;			/* for BINARY */
};

/* Connect and resolve the family: -ENOENT when the module is not loaded. */
int latmon_nl_open(struct latmon_nl **nlp);
void latmon_nl_close(struct latmon_nl *nl);
/* The extended-ack message of the last failed request, or "". */
const char *latmon_nl_errmsg(const struct latmon_nl *nl);

int latmon_nl_info(struct latmon_nl *nl, struct latmon_nl_info *info);
int latmon_nl_start(struct latmon_nl *nl, const struct latmon_nl_start_req *req);
int latmon_nl_stop(struct latmon_nl *nl);
int latmon_nl_stats(struct latmon_nl *nl, struct latmon_nl_stats *stats);
void latmon_nl_stats_free(struct latmon_nl_stats *stats);

/*
 * Send command cmd with the given attributes as they are (no checking, so
 * callers can also probe the module's validation) and wait for the ack.
 * flags are extra nlmsg flags.
 */
int latmon_nl_request(struct latmon_nl *nl, int cmd, int flags,
		      const struct latmon_nl_attr *attrs, int nattrs);

/* Name of a source state ("?" if unknown); a source id's name is
 * lat_source_name() (evtype.h). */
const char *latmon_nl_state_name(uint32_t state);
/* "fault,sched" into LATMON_SRC_BIT()s. 0; -EINVAL with the unknown name
 * in bad (or an empty list); -ENOMEM. */
int latmon_nl_parse_sources(const char *list, uint32_t *mask, char *bad, size_t len);

#endif /* LATMON_NL_H */
