// SPDX-License-Identifier: MIT
/*
 * exec: the command's process tree. latctl is a child subreaper while the
 * command runs, so a process the command started stays latctl's
 * descendant when its parent exits. Stopping the command signals the
 * whole tree (a shell that ignores SIGINT no longer leaves its `sleep`
 * running under PID 1), and the orphans of the tree that ended are reaped.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/wl_exec.h"

struct proc {
	pid_t pid, ppid;
	char state;		  /* 'Z' once it has ended */
	unsigned long long start; /* clock ticks after boot */
};

static struct proc command; /* the command, as it started */

/* /proc/PID/stat after the name: state, ppid, 16 more, starttime (22nd) */
#define STAT_FIELDS                                                                                \
	" %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu"

/* pid's parent and start time from /proc/PID/stat; -1 when it is gone. */
static int read_stat(pid_t pid, struct proc *p)
{
	char path[32], buf[1024], *s;
	FILE *f;
	int ppid = 0, ok;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	s = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	ok = s && sscanf(s + 1, STAT_FIELDS, &p->state, &ppid, &p->start) == 3;
	fclose(f);
	p->pid = pid;
	p->ppid = ppid;
	return ok ? 0 : -1;
}

/* Every process of the system with its parent, into *out. -errno. */
static int list_procs(struct proc **out, size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct proc *v = NULL, *nv;
	size_t cap = 0;
	long pid;
	char *end;

	if (!d)
		return -errno;
	*n = 0;
	while ((e = readdir(d))) {
		pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		if (!read_stat((pid_t)pid, &v[*n]))
			++*n;
	}
	closedir(d);
	*out = v;
	return 0;
}

/* 1 when p is a root of the command's tree: the command, or an orphan of
 * it (a child of latctl started after the command; latctl's own helpers,
 * such as --fragment's, started before it). */
static int is_root(const struct proc *p)
{
	return p->pid == command.pid || (p->ppid == getpid() && p->start >= command.start);
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc *)a)->pid, y = ((const struct proc *)b)->pid;

	return (x > y) - (x < y);
}

/* 1 when v[i] or one of its ancestors is a root of the command's tree;
 * v is sorted by pid. */
static int in_tree(const struct proc *v, size_t n, size_t i)
{
	const struct proc *p = &v[i];
	struct proc key;
	size_t depth;

	for (depth = 0; p && depth <= n; depth++) {
		if (p->pid == getpid())
			return 0;
		if (is_root(p))
			return 1;
		key = (struct proc){ .pid = p->ppid };
		p = bsearch(&key, v, n, sizeof(*v), by_pid);
	}
	return 0;
}

enum tree_op { TREE_ALIVE, TREE_REAP };

/* Each process of the command's tree but the command itself: sig sent
 * (sig > 0), or counted when it runs (TREE_ALIVE), or reaped when it is
 * latctl's and has ended (TREE_REAP). How many. */
static int each_of_tree(int sig)
{
	struct proc *v = NULL;
	size_t n = 0, i;
	int hit = 0;

	if (!command.pid || list_procs(&v, &n))
		return 0;
	qsort(v, n, sizeof(*v), by_pid);
	for (i = 0; i < n; i++) {
		if (v[i].pid == command.pid || !in_tree(v, n, i))
			continue;
		if (sig > 0)
			hit += kill(v[i].pid, sig) == 0;
		else if (sig == -TREE_ALIVE)
			hit += v[i].state != 'Z';
		else if (v[i].ppid == getpid())
			hit += waitpid(v[i].pid, NULL, WNOHANG) > 0;
	}
	free(v);
	return hit;
}

void lat_exec_tree_begin(void)
{
	/* without it, orphans go to PID 1 and only the command's own
	 * descendants are found */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
}

void lat_exec_tree_started(pid_t pid)
{
	if (read_stat(pid, &command))
		command = (struct proc){ .pid = pid };
}

int lat_exec_tree_kill(int sig)
{
	int hit = kill(command.pid, sig) == 0;

	return hit + each_of_tree(sig);
}

int lat_exec_tree_alive(void)
{
	return each_of_tree(-TREE_ALIVE);
}

void lat_exec_tree_end(void)
{
	each_of_tree(-TREE_REAP);
	(void)prctl(PR_SET_CHILD_SUBREAPER, 0);
	command = (struct proc){ 0 };
}
