// SPDX-License-Identifier: MIT
/*
 * exec: your own program. `latctl run exec -- COMMAND [ARGS...]` runs
 * COMMAND (and whatever it forks) under the chosen backend. Its iterations
 * come from the markers it writes (latctl_begin/latctl_end, include/latctl.h)
 * into a shared-memory ring latctl creates and names in LATCTL_RING; a
 * command that writes none has each of its system calls as an iteration,
 * so it gets causes too. --duration stops a long-running
 * command with SIGINT, then SIGTERM and SIGKILL after a grace period each.
 * Modes: auto (markers if the command wrote any, else system calls),
 * markers, syscalls.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "latctl.h"
#include "lib/cleanup.h"
#include "lib/tsc.h"
#include "workload/wl_exec.h"

static struct exec_cfg {
	double duration_s;	/* --duration: stop the command after this */
	int threads;		/* --threads: ring regions (threads recorded) */
} cfg;

#define GRACE_MS	3000	/* between SIGINT, SIGTERM and SIGKILL */

/* Ring regions unless --threads, and the most address space the ring may
 * take in each marked process. */
#define DEFAULT_THREADS 1024
#define MAX_RING_BYTES (1ULL << 44)

static struct lat_exec ex;

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* COMMAND's program exists and can run: one line as a shell says it and
 * -ENOENT (not found: exit 127) or -EACCES (cannot run: 126) if not;
 * -EINVAL without a command. */
static int check_command(char *const *cmd)
{
	const char *path = getenv("PATH");
	char buf[4096];
	const char *p;
	size_t n;

	if (!cmd || !cmd[0]) {
		fprintf(stderr, "latctl: exec needs a command: latctl run exec -- COMMAND [ARGS...]\n");
		return -EINVAL;
	}
	if (strchr(cmd[0], '/')) {
		if (is_dir(cmd[0])) {
			fprintf(stderr, "latctl: exec: %s: Is a directory\n", cmd[0]);
			return -EACCES;
		}
		if (access(cmd[0], X_OK) == 0)
			return 0;
		fprintf(stderr, "latctl: exec: %s: %s\n", cmd[0], strerror(errno));
		return errno == ENOENT || errno == ENOTDIR ? -ENOENT : -EACCES;
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; p += n + (p[n] == ':')) {
		n = strcspn(p, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? p : ".", cmd[0]);
		if (access(buf, X_OK) == 0 && !is_dir(buf))
			return 0;
	}
	fprintf(stderr, "latctl: exec: %s: command not found (not a program in PATH)\n", cmd[0]);
	return -ENOENT;
}

/* The ring: a memfd of cfg.threads regions of run->iters records each,
 * sparse: a region takes memory as its thread writes records. */
static int make_ring(struct lat_run *run)
{
	uint64_t slot = sizeof(struct latctl_ring_slot) + run->iters * sizeof(struct latctl_ring_rec);
	struct latctl_ring_head *h;

	ex.slot_bytes = (slot + 4095) & ~4095ULL;
	ex.slots = (uint32_t)(cfg.threads ? cfg.threads : DEFAULT_THREADS);
	ex.ring_bytes = LATCTL_RING_HEAD + ex.slots * ex.slot_bytes;
	if (ex.ring_bytes > MAX_RING_BYTES) {
		fprintf(stderr,
			"latctl: exec: %u threads x %llu iterations is a %.0f TiB ring, more than the %llu TiB a program can map; lower --threads or --iters\n",
			ex.slots, (unsigned long long)run->iters,
			(double)ex.ring_bytes / (1ULL << 40), MAX_RING_BYTES >> 40);
		return -EINVAL;
	}
	ex.fd = memfd_create("latctl-ring", MFD_CLOEXEC);
	if (ex.fd < 0 || ftruncate(ex.fd, (off_t)ex.ring_bytes))
		return -errno;
	h = mmap(NULL, ex.ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, ex.fd, 0);
	if (h == MAP_FAILED)
		return -errno;
	*h = (struct latctl_ring_head){
		.magic = LATCTL_RING_MAGIC, .version = LATCTL_RING_VERSION,
		.slots = ex.slots, .slot_bytes = ex.slot_bytes, .capacity = run->iters,
		.flags = lat_tsc_aux_not_cpu ? LATCTL_RING_F_GETCPU : 0,
	};
	ex.ring = h;
	snprintf(ex.path, sizeof(ex.path), "/proc/%d/fd/%d", (int)getpid(), ex.fd);
	return 0;
}

static int exec_setup(struct lat_run *run)
{
	int ret;

	memset(&ex, 0, sizeof(ex));
	ex.fd = -1;
	ex.pid = -1;
	ret = check_command(run->command);
	if (ret)
		return ret;
	ex.cmd = run->command;
	ex.duration_s = cfg.duration_s;
	run->priv = &ex;
	run->cap = 1;		/* the samples are sized after the command ends */
	return make_ring(run);
}

/* In the child: the ring's name, then the command. An exec that fails
 * sends its errno down report (close-on-exec: an exec that succeeds
 * closes it unwritten), so that a program's own exit 127 is its status. */
static void start_command(int report)
{
	char fd[16];
	int err;

	/* the descriptor too: a child that changes user or root cannot open
	 * the path in latctl's /proc */
	snprintf(fd, sizeof(fd), "%d", ex.fd);
	if (fcntl(ex.fd, F_SETFD, 0) == 0)
		setenv("LATCTL_RING_FD", fd, 1);
	setenv("LATCTL_RING", ex.path, 1);
	signal(SIGPIPE, SIG_DFL); /* latctl ignores it (main.c) */
	execvp(ex.cmd[0], ex.cmd);
	err = errno;
	fprintf(stderr, "latctl: exec: cannot run '%s': %s\n", ex.cmd[0], strerror(err));
	/* lost, the parent would take this 127 for the program's own */
	(void)!write(report, &err, sizeof(err));
	_exit(127);
}

/* The child's exec: 0 when it succeeded, else its errno. */
static int exec_result(int report)
{
	ssize_t n;
	int err = 0;

	do
		n = read(report, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(report);
	return n == (ssize_t)sizeof(err) ? err : 0;
}

/* Wait up to ms for the command to end (-1: for ever). 1 if it ended. */
static int wait_end(int pidfd, int ms)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	int r;

	do
		r = poll(&p, 1, ms);
	while (r < 0 && errno == EINTR);
	return r != 0;
}

/* Wait up to ms for the command and every process it started to end. 1
 * when they have. */
static int wait_tree(int pidfd, int ms)
{
	int waited;

	for (waited = 0; waited < ms; waited += 100) {
		if (!wait_end(pidfd, 0))
			wait_end(pidfd, 100);
		else if (!lat_exec_tree_alive())
			return 1;
		else
			usleep(100000);
	}
	return wait_end(pidfd, 0) && !lat_exec_tree_alive();
}

/* Stop the command and every process it started: from sigs[first] on
 * (SIGINT, SIGTERM, SIGKILL), the next after 3 s each, each said with why. */
static void stop_command(int pidfd, const char *why, size_t first)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGKILL };
	size_t i;

	for (i = first; i < 3; i++) {
		fprintf(stderr,
			"latctl: exec: %s%s, sending SIG%s to %d and every process it started\n",
			i > first ? "still running 3 s after SIG" : "after ",
			i > first ? sigabbrev_np(sigs[i - 1]) : why,
			sigabbrev_np(sigs[i]) ? sigabbrev_np(sigs[i]) : "?", (int)ex.pid);
		lat_exec_tree_kill(sigs[i]);
		ex.stop_signal = sigs[i];
		ex.sent[ex.n_sent++] = sigs[i];
		ex.stop_why = why;
		if (wait_tree(pidfd, GRACE_MS))
			return;
	}
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Until the command ends: --duration stops it with SIGINT on; a second
 * SIGINT to latctl (the first reached the program's group too) with
 * SIGTERM on. */
static void wait_command(int pidfd)
{
	double end = ex.duration_s > 0 ? now_s() + ex.duration_s : 0;

	while (!wait_end(pidfd, 100)) {
		if (end && now_s() >= end) {
			stop_command(pidfd, "--duration", 0);
			return;
		}
		if (lat_stop_count >= 2) {
			stop_command(pidfd, "a second SIGINT", 1);
			return;
		}
	}
}

/* Run the command to its end (or --duration's); its status into ex. */
static int run_command(void)
{
	int pidfd, st, report[2];

	if (pipe2(report, O_CLOEXEC))
		return -errno;
	lat_exec_tree_begin();
	ex.pid = fork();
	if (ex.pid < 0) {
		close(report[0]);
		close(report[1]);
		lat_exec_tree_end();
		return -errno;
	}
	if (ex.pid == 0) {
		close(report[0]);
		start_command(report[1]);
	}
	close(report[1]);
	lat_exec_tree_started(ex.pid);
	ex.exec_errno = exec_result(report[0]);
	pidfd = (int)syscall(SYS_pidfd_open, ex.pid, 0);
	if (pidfd >= 0) {
		wait_command(pidfd);
		close(pidfd);
	}
	while (waitpid(ex.pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	lat_exec_tree_end();
	ex.status = st;
	ex.ended = 1;
	return 0;
}

/* 1 when latctl sent sig to the command. */
static int sent_by_latctl(int sig)
{
	int i;

	for (i = 0; i < ex.n_sent; i++)
		if (ex.sent[i] == sig)
			return 1;
	return 0;
}

/* What latctl exits with: the command's status when it failed (not when
 * latctl stopped it), else 0. */
static int exit_status_of(void)
{
	if (WIFEXITED(ex.status))
		return ex.stop_signal ? 0 : WEXITSTATUS(ex.status);
	if (WIFSIGNALED(ex.status) && !sent_by_latctl(WTERMSIG(ex.status)))
		return 128 + WTERMSIG(ex.status);
	return 0;
}

static int exec_run(struct lat_run *run)
{
	struct lat_exec_sums m;
	int ret = run_command();

	if (ret)
		return ret;
	run->exit_status = exit_status_of();
	if (ex.exec_errno) {	/* the child said why; the status a shell gives */
		run->exit_status = ex.exec_errno == ENOENT ? 127 : 126;
		return -ENOEXEC;
	}
	if (!strcmp(run->mode, "syscalls"))
		return 0;
	if (!strcmp(run->mode, "auto") && run->exit_status && !lat_stop_requested &&
	    !lat_exec_marker_count(&ex)) {
		char how[48];

		if (WIFSIGNALED(ex.status))
			snprintf(how, sizeof(how), "was killed by SIG%s", sigabbrev_np(WTERMSIG(ex.status)));
		else
			snprintf(how, sizeof(how), "exited with status %d", run->exit_status);
		fprintf(stderr, "latctl: exec: %s %s before any marker: no report (--mode syscalls "
			"reports its system calls all the same)\n", ex.cmd[0], how);
		return -ENOEXEC;	/* its status is latctl's */
	}
	ret = lat_exec_take_markers(run, &ex);
	lat_exec_sum_regions(&ex, &m);
	run->own_minflt = m.populated;
	return ret;
}

/* --mode markers and no iteration: why, in the run's failure line. */
static void markers_unpaired(struct lat_run *run)
{
	struct lat_exec_sums m;

	lat_exec_sum_regions(&ex, &m);
	if (m.end_without_begin + m.begin_twice + m.open)
		snprintf(run->fail_why, sizeof(run->fail_why),
			 "no latctl_begin() to latctl_end() pair: %llu ends without a begin, %llu begins while one was open, %llu open at the end",
			 (unsigned long long)m.end_without_begin, (unsigned long long)m.begin_twice,
			 (unsigned long long)m.open);
	else
		snprintf(run->fail_why, sizeof(run->fail_why),
			 "no marker was written: the command never called latctl_begin()");
}

/* After the backend stopped: the faults on the ring set apart; system
 * calls as iterations when no marker was written (mode auto) or when asked
 * (mode syscalls). */
static int exec_from_events(struct lat_run *run, struct latmon_event *ev, size_t n)
{
	int ret;

	lat_exec_set_apart(&ex, ev, n);
	if (!run->n && !strcmp(run->mode, "markers"))
		markers_unpaired(run);
	if (run->n || !strcmp(run->mode, "markers"))
		return 0;
	ret = lat_exec_take_syscalls(run, &ex, ev, n);
	if (!ret && !run->n)
		snprintf(run->fail_why, sizeof(run->fail_why),
			 "the command wrote no marker, and no system call of it was recorded: that needs latmon or the BPF backend (see 'latctl backends')");
	return ret;
}

static void exec_teardown(struct lat_run *run)
{
	(void)run;
	if (ex.ring)
		munmap(ex.ring, ex.ring_bytes);
	if (ex.fd >= 0)
		close(ex.fd);
	ex.ring = NULL;
	ex.fd = -1;
}

static const struct lat_wl_opt exec_opts[] = {
	{ "duration", LAT_WL_OPT_DURATION, "D", "stop the command after D: SIGINT, then TERM, KILL",
	  "duration_s", offsetof(struct exec_cfg, duration_s) },
	{ "threads", LAT_WL_OPT_COUNT, "N", "threads whose markers are kept (default 1024)",
	  "threads", offsetof(struct exec_cfg, threads) },
	{ NULL },
};

const struct workload_ops wl_exec = {
	.name = "exec",
	.summary =
		"your own program: latctl run exec -- COMMAND (markers from latctl.h, else its system calls)",
	.modes = "auto|markers|syscalls",
	.unit_name = "iteration",
	.default_iters = 1000000,
	.setup = exec_setup,
	.run = exec_run,
	.from_events = exec_from_events,
	.extras = lat_exec_extras,
	.print_extras = lat_exec_print_extras,
	.print_head = lat_exec_print_head,
	.teardown = exec_teardown,
	.wants_syscalls = 1,
	.other_process = 1,
	.default_slow = "p99", /* a program's loop or calls: thousands, not millions */
	.opts = exec_opts,
	.config = &cfg,
	.config_size = sizeof(cfg),
};
