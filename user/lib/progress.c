// SPDX-License-Identifier: MIT
/* The updating progress line on stderr (see progress.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lib/progress.h"

#define PHASE_MAX	160

static int out_fd = STDERR_FILENO;
static int active;		/* the ticker runs */
static int shown;		/* a line is on the terminal */
static volatile sig_atomic_t with_seconds;
static char phase_text[PHASE_MAX];
static volatile sig_atomic_t phase_len;
static struct timespec started;

void lat_progress_fd(int fd)
{
	out_fd = fd < 0 ? STDERR_FILENO : fd;
}

/* "\r\033[K" + phase + " ... N s" (held: " ...") with write(2):
 * async-signal-safe. */
static void draw(void)
{
	char line[PHASE_MAX + 48], num[24];
	struct timespec now;
	long s;
	int n, k = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	s = (long)(now.tv_sec - started.tv_sec);
	memcpy(line, "\r\033[Klatctl: ", 12);
	n = 12;
	memcpy(line + n, phase_text, (size_t)phase_len);
	n += phase_len;
	memcpy(line + n, " ... ", 5);
	n += with_seconds ? 5 : 4;
	do {
		num[k++] = (char)('0' + s % 10);
		s /= 10;
	} while (s && k < (int)sizeof(num));
	while (k && with_seconds)
		line[n++] = num[--k];
	if (with_seconds) {
		memcpy(line + n, " s", 2);
		n += 2;
	}
	if (write(out_fd, line, (size_t)n) < 0)
		return;
}

static void tick(int sig)
{
	(void)sig;
	draw();
}

/* SIGALRM once a second, restarting interrupted system calls. */
static void start_ticker(void)
{
	struct itimerval every = { { 1, 0 }, { 1, 0 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tick;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &every, NULL);
}

static void stop_ticker(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	if (!active)
		return;
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);	/* one may still be pending */
	active = 0;
}

/* Only on a terminal, and not with LATCTL_PROGRESS=0. */
int lat_progress_wanted(void)
{
	const char *env = getenv("LATCTL_PROGRESS");

	return isatty(out_fd) && !(env && !strcmp(env, "0"));
}

/* Show phase; tick: once a second with the seconds, else once, held;
 * now: draw it at once, else first at the next tick. */
static void show(const char *phase, int tick, int now)
{
	sigset_t alrm, old;

	if (!lat_progress_wanted())
		return;
	if (!tick)
		stop_ticker();
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, &old);
	phase_len = (sig_atomic_t)snprintf(phase_text, sizeof(phase_text), "%s", phase);
	if (phase_len >= PHASE_MAX)
		phase_len = PHASE_MAX - 1;
	if (!shown)
		clock_gettime(CLOCK_MONOTONIC, &started);
	if (tick && !active) {
		start_ticker();
		active = 1;
	}
	shown = 1;
	with_seconds = tick;
	if (now)
		draw();
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void lat_progress(const char *phase)
{
	show(phase, 1, 1);
}

void lat_progress_later(const char *phase)
{
	show(phase, 1, 0);
}

void lat_progress_hold(const char *phase)
{
	show(phase, 0, 1);
}

void lat_progress_done(void)
{
	stop_ticker();
	if (!shown)
		return;
	shown = 0;
	if (write(out_fd, "\r\033[K", 4) < 0)
		return;
}
