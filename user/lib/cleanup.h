/* SPDX-License-Identifier: MIT */
/*
 * Undo actions that must run even when latctl is killed: on SIGINT, SIGTERM
 * and SIGHUP the handler runs every registered action (each must be
 * async-signal-safe), then dies from the same signal.
 */
#ifndef LATCTL_CLEANUP_H
#define LATCTL_CLEANUP_H

typedef void (*lat_cleanup_fn)(void);

/* Install the handlers (once); actions run only in the installing process. */
void lat_cleanup_install(void);
int lat_cleanup_add(lat_cleanup_fn fn);
void lat_cleanup_remove(lat_cleanup_fn fn);

#endif /* LATCTL_CLEANUP_H */
