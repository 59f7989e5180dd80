// SPDX-License-Identifier: MIT
/*
 * lmbpf: run a command with latctl's BPF backend recording it, as
 * `latctl run --backend bpf` records its workload: the backend follows the
 * forked command (its programs filter to this process and what it forks),
 * its reader thread drains the ring buffer into latctl's record buffer.
 * Prints the command's output, then one line: records read and the loss
 * counts. For the backend benchmark (tests/bench/bench-backends.sh).
 *
 *   lmbpf -- CMD [ARGS...]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "backend/backend.h"
#include "backend/bpf/latbpf_user.h"

static int bpf_on(struct lat_session *s)
{
	if (lat_backend_open(s, "bpf", 0, 0, 0) || lat_backend_start(s, -1) ||
	    s->ops != lat_backend_named("bpf")) {
		fprintf(stderr, "lmbpf: %s\n", s->why);
		return -1;
	}
	return 0;
}

/* The loss counts of the backend's JSON account, "name=value ...". */
static void print_counts(const struct lat_session *s)
{
	static const char *const keys[] = { "records_read", "lost_in_ring", "lost_records",
					    "lost_pending_at_stop", "lost_by_latctl" };
	cJSON *o = lat_bpf_json(s->bpf, &s->buf);
	size_t i;

	printf("lmbpf:");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		printf(" %s=%.0f", keys[i], cJSON_GetNumberValue(cJSON_GetObjectItem(o, keys[i])));
	printf("\n");
	cJSON_Delete(o);
}

int main(int argc, char **argv)
{
	struct lat_session m;
	int status = 0;
	pid_t pid;

	if (argc < 3 || strcmp(argv[1], "--")) {
		fprintf(stderr, "usage: lmbpf -- CMD [ARGS...]\n");
		return 2;
	}
	if (bpf_on(&m))
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("lmbpf: exec");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("lmbpf: fork");
		return 1;
	}
	lat_backend_stop(&m, NULL);
	print_counts(&m);
	lat_backend_close(&m);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
