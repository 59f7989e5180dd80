/* SPDX-License-Identifier: MIT */
/*
 * Undo actions that must run even when latctl is killed: on SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 the handler runs every registered
 * action (each must be async-signal-safe), then dies from the same signal.
 * SIGKILL and the OOM killer leave what the journal and the next command's
 * sweep (file/outfile.h) put back.
 */
#ifndef LATCTL_CLEANUP_H
#define LATCTL_CLEANUP_H

typedef void (*lat_cleanup_fn)(void);

#include <signal.h>

/* Install the handlers (once); actions run only in the installing process. */
void lat_cleanup_install(void);
/* While on (1), the first SIGINT only sets lat_stop_requested (a timed loop
 * then ends at its next iteration and its report is printed), a second one
 * only raises lat_stop_count to 2 (exec then stops its program at once);
 * a third runs the actions and dies, as SIGTERM and SIGHUP always do. With
 * LAT_SOFT_ALL (--repeat) a first SIGTERM or SIGHUP stops softly too.
 * lat_stop_signal is the signal that asked. Forked children (workers) keep
 * the handler and stop their own loops. */
#define LAT_SOFT_ALL	2
void lat_cleanup_soft_stop(int on);
extern volatile sig_atomic_t lat_stop_requested;
extern volatile sig_atomic_t lat_stop_signal;
extern volatile sig_atomic_t lat_stop_count;
int lat_cleanup_add(lat_cleanup_fn fn);
/* What a signal that ends the process interrupted, said on stderr first
 * ("during set-up: nothing measured"); NULL: nothing said. A string that
 * lives as long as the process. */
void lat_cleanup_phase(const char *what);
/* The one action that runs after all the others (NULL: none). */
void lat_cleanup_final(lat_cleanup_fn fn);
void lat_cleanup_remove(lat_cleanup_fn fn);

#endif /* LATCTL_CLEANUP_H */
