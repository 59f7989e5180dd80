/* SPDX-License-Identifier: MIT */
/* latmon_nl internals for the tests: the reply handlers without a socket
 * (tests/fuzz/fuzz_nl.c), the socket of a connection for the guest programs
 * that send raw requests (tests/vm/prog/stress.c). Not part of latctl's
 * interface. */
#ifndef LATMON_NL_INT_H
#define LATMON_NL_INT_H

#include <netlink/msg.h>

#include "backend/latmon_nl.h"

/* Parse one GET_INFO or GET_STATS reply (genl header, then attributes) into
 * out (a zeroed latmon_nl_info or latmon_nl_stats), exactly as
 * latmon_nl_info()/latmon_nl_stats() do. 0, -EPROTO or -EINVAL (cmd). */
int latmon_nl_parse_reply(struct nl_msg *msg, int cmd, void *out);

/* The connected socket of nl (extended acks on, capped) and the family id. */
struct nl_sock *latmon_nl_sock(struct latmon_nl *nl, int *family);

#endif /* LATMON_NL_INT_H */
