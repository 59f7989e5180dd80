/* SPDX-License-Identifier: MIT */
/*
 * The handshake between `lmtool record` and the test programs it runs:
 * lmtool passes two pipe fds in LMTOOL_READY_FD and LMTOOL_GO_FD. At each
 * sync point the program writes one byte to READY and waits for one byte on
 * GO; lmtool does START at the first point and STOP at the second, so a
 * recording covers exactly the code between them. Without the variables
 * (run by hand) lm_sync() returns at once.
 */
#ifndef LATMON_TEST_SYNC_H
#define LATMON_TEST_SYNC_H

#include <stdlib.h>
#include <unistd.h>

static inline int lm_sync_fd(const char *name)
{
	const char *s = getenv(name);

	return s ? atoi(s) : -1;
}

/* Tell lmtool we reached a sync point and wait until it says go. */
static inline int lm_sync(void)
{
	int ready = lm_sync_fd("LMTOOL_READY_FD"), go = lm_sync_fd("LMTOOL_GO_FD");
	char c = 'r';

	if (ready < 0 || go < 0)
		return 0;
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		return -1;
	return 0;
}

#endif /* LATMON_TEST_SYNC_H */
