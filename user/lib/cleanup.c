// SPDX-License-Identifier: MIT
/* Signal-time undo list: restore THP, remove temporary files, then die. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "lib/cleanup.h"

#define MAX_ACTIONS 8

static volatile lat_cleanup_fn actions[MAX_ACTIONS];
static volatile lat_cleanup_fn final_action;
static const char *volatile phase;	/* said when a signal ends the process */
static pid_t owner;
static volatile sig_atomic_t soft;
volatile sig_atomic_t lat_stop_requested;
volatile sig_atomic_t lat_stop_signal;
volatile sig_atomic_t lat_stop_count;

/* "latctl: stopped by SIGINT during set-up: nothing measured" (write(2):
 * async-signal-safe). */
static void say_stopped(int sig)
{
	const char *name = sigabbrev_np(sig);
	const char *parts[] = { "latctl: stopped by SIG", name ? name : "?", " ", phase, "\n" };
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (write(STDERR_FILENO, parts[i], strlen(parts[i])) < 0)
			return;
}

/* Run the undo actions (only in the process that armed them), then re-raise;
 * in soft mode a first SIGINT (with LAT_SOFT_ALL also TERM, HUP) only asks
 * the loop to stop, and a second only counts (a terminal's Ctrl-C and
 * timeout(1) reach latctl and its program's group: two at once). */
static void on_signal(int sig)
{
	int i, saved = errno;

	if (soft && lat_stop_count < 2 &&
	    (sig == SIGINT || (soft == LAT_SOFT_ALL && (sig == SIGTERM || sig == SIGHUP)))) {
		if (!lat_stop_count++) {
			lat_stop_requested = 1;
			lat_stop_signal = sig;
		}
		return;
	}
	if (getpid() == owner && phase)
		say_stopped(sig);
	if (getpid() == owner)
		for (i = 0; i < MAX_ACTIONS; i++)
			if (actions[i])
				actions[i]();
	if (getpid() == owner && final_action)
		final_action();
	errno = saved;
	signal(sig, SIG_DFL);
	raise(sig);
}

void lat_cleanup_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
	struct sigaction sa;
	size_t i;

	if (owner == getpid())
		return;
	owner = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);	/* no second signal inside the handler */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void lat_cleanup_phase(const char *what)
{
	phase = what;
}

void lat_cleanup_final(lat_cleanup_fn fn)
{
	final_action = fn;
}

void lat_cleanup_soft_stop(int on)
{
	soft = on;
}

int lat_cleanup_add(lat_cleanup_fn fn)
{
	int i;

	for (i = 0; i < MAX_ACTIONS; i++) {
		if (!actions[i] || actions[i] == fn) {
			actions[i] = fn;
			return 0;
		}
	}
	return -ENOSPC;
}

void lat_cleanup_remove(lat_cleanup_fn fn)
{
	int i;

	for (i = 0; i < MAX_ACTIONS; i++)
		if (actions[i] == fn)
			actions[i] = NULL;
}
