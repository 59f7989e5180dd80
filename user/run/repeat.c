// SPDX-License-Identifier: MIT
/* --repeat N: N runs in fresh processes gathered into one result document. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/latctl.h"
#include "lib/progress.h"
#include "lib/rdoc.h"
#include "run/deliver.h"
#include "run/repeat.h"
#include "file/outfile.h"
#include "doc/result.h"
#include "doc/runs.h"
#include "compare/signif.h"
#include "report/render.h"

/* The scratch directory of the runs' documents: made in base_fd, used by
 * its descriptor (runs write to /proc/PID/fd/N/run-I.json), removed on a
 * signal. */
static char scratch[NAME_MAX + 1], current[32];
static int base_fd = -1, scratch_fd = -1;
static volatile pid_t running;	/* the run going on, 0 if none */

/* Also from a signal handler: the run going on ended first (it removes its
 * own temporary file), then its document and the directory. */
static void remove_scratch(void)
{
	pid_t pid = running;

	if (pid > 0 && !kill(pid, SIGTERM))
		waitpid(pid, NULL, 0);
	if (scratch_fd >= 0 && current[0])
		unlinkat(scratch_fd, current, 0);
	if (scratch[0] && base_fd >= 0)
		unlinkat(base_fd, scratch, AT_REMOVEDIR);
}

static void close_scratch(void)
{
	remove_scratch();
	scratch[0] = '\0';
	if (scratch_fd >= 0)
		close(scratch_fd);
	if (base_fd >= 0)
		close(base_fd);
	scratch_fd = base_fd = -1;
}

/* Next to the result file (writable there: checked by lat_result_open),
 * else in $TMPDIR or /tmp; the directory opened by the kernel, a dead
 * --repeat's leftovers of this user removed from it. */
static int make_scratch(const char *json_path)
{
	char copy[PATH_MAX];
	const char *base = getenv("TMPDIR");
	int ret;

	if (json_path) {
		snprintf(copy, sizeof(copy), "%s", json_path);
		base = dirname(copy);
	}
	base = base && *base ? base : "/tmp";
	base_fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ret = base_fd < 0 ? -errno : 0;
	if (!ret)
		lat_outfile_sweep(base_fd);
	scratch_fd = ret ? ret : lat_outfile_scratch(base_fd, scratch);
	if (scratch_fd < 0) {
		ret = scratch_fd;
		fprintf(stderr, "latctl: --repeat: cannot make a directory for the runs' results in %s: %s\n",
			base, strerror(-ret));
		scratch[0] = '\0';
		close_scratch();
		return ret;
	}
	lat_cleanup_install();
	lat_cleanup_add(remove_scratch);
	lat_cleanup_soft_stop(LAT_SOFT_ALL);	/* INT, TERM, HUP: the runs done so far, reported */
	return 0;
}

static int command_at = -1;	/* exec: where its COMMAND begins in argv */

/* 1 if argv[i] is the user's --json (n: the words it takes, 1 or 2). */
static int is_json_opt(char **argv, int i, int end, int *n)
{
	const char *a = argv[i];

	*n = (!strcmp(a, "--json") || !strcmp(a, "-j")) && i + 1 < end ? 2 : 1;
	return !strcmp(a, "--json") || !strcmp(a, "-j") || !strncmp(a, "--json=", 7) ||
	       (a[0] == '-' && a[1] == 'j' && a[2]);
}

/* Run this binary's `run` again with argv, without the user's --json, plus
 * --repeat 1 --json path --quiet (later options win), before exec's
 * COMMAND, which follows a "--" (given or not: latctl's options end at the
 * command). Its exit status, LAT_EXIT_FAIL if killed; *child its process
 * id. */
static int run_child(int argc, char **argv, const char *path, pid_t *child)
{
	char **cv = calloc((size_t)argc + 9, sizeof(*cv));
	int i, n = 0, status, end = command_at >= 0 ? command_at : argc;
	pid_t pid, parent = getpid();

	if (!cv)
		return LAT_EXIT_FAIL;
	cv[n++] = "latctl";
	for (i = 0; i < end; i++) {
		int k;

		if (is_json_opt(argv, i, end, &k)) {
			i += k - 1;
			continue;
		}
		if (i != end - 1 || command_at < 0 || strcmp(argv[i], "--"))
			cv[n++] = argv[i];
	}
	cv[n++] = "--repeat";
	cv[n++] = "1";
	cv[n++] = "--json";
	cv[n++] = (char *)path;
	cv[n++] = "--quiet";
	if (command_at >= 0)
		cv[n++] = "--";
	for (i = end; i < argc; i++)	/* exec's COMMAND stays last */
		cv[n++] = argv[i];
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* a SIGKILLed parent: the run ends too, putting its settings back */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(LAT_EXIT_FAIL);
		setenv("LATCTL_PROGRESS", "0", 1);	/* the line is the parent's */
		execv("/proc/self/exe", cv);
		fprintf(stderr, "latctl: --repeat: cannot run latctl again: %s\n", strerror(errno));
		_exit(LAT_EXIT_FAIL);
	}
	free(cv);
	*child = pid;
	if (pid < 0)
		return LAT_EXIT_FAIL;
	running = pid;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {	/* EINTR: the progress ticker's SIGALRM */
			running = 0;
			return LAT_EXIT_FAIL;
		}
		if (lat_stop_requested == 1) {	/* our Ctrl-C, TERM, HUP: the run's too */
			kill(pid, lat_stop_signal);
			lat_stop_requested = 2;
		}
	}
	running = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : LAT_EXIT_FAIL;
}

/* One run's entry of "per_run": its process, wrapper times, measured parts. */
static cJSON *per_run(const cJSON *doc, pid_t pid)
{
	static const char *const keys[] = {
		"start_time", "end_time", "exit_code", "summary", "counters", "causes", "latmon",
	};
	cJSON *o = cJSON_CreateObject(), *slow;
	size_t i;

	cJSON_AddNumberToObject(o, "pid", (double)pid);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		cJSON_AddItemToObject(o, keys[i],
				      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(doc, keys[i]), 1));
	slow = cJSON_GetObjectItemCaseSensitive(doc, "slow");
	cJSON_AddItemToObject(o, "slow_count",
			      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(slow, "count"), 1));
	return o;
}

/* Add the buckets of doc's histogram to h. */
static void pool_hist(struct lat_hist *h, const cJSON *doc)
{
	const cJSON *hist = cJSON_GetObjectItemCaseSensitive(doc, "histogram"), *b;

	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(hist, "buckets")) {
		double lo = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(b, "lo"));
		double n = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(b, "count"));

		h->count[lat_hist_bucket(lo)] += (uint64_t)n;
	}
}

/* Run 1's sections (not the wrapper) into doc, options as the user gave. */
static void take_first(cJSON *doc, const cJSON *first, const struct lat_opts *o)
{
	static const char *const wrapper[] = {
		"schema", "schema_version", "command_line", "argv", "latctl_version",
		"kernel_release", "start_time", "end_time", "exit_code",
	};
	const cJSON *item;
	cJSON *opts;
	size_t i;

	cJSON_ArrayForEach(item, first) {
		for (i = 0; i < sizeof(wrapper) / sizeof(wrapper[0]); i++)
			if (!strcmp(item->string, wrapper[i]))
				break;
		if (i == sizeof(wrapper) / sizeof(wrapper[0]))
			cJSON_AddItemToObject(doc, item->string, cJSON_Duplicate(item, 1));
	}
	opts = cJSON_GetObjectItemCaseSensitive(doc, "options");
	cJSON_ReplaceItemInObject(opts, "json", o->json_path ? cJSON_CreateString(o->json_path)
							     : cJSON_CreateNull());
	cJSON_ReplaceItemInObject(opts, "quiet", cJSON_CreateBool(o->quiet));
	cJSON_AddNumberToObject(opts, "repeat", (double)o->repeat);
}

/* Run i; its document is read back into *run and the file removed. */
static int one_run(int argc, char **argv, uint64_t i, cJSON **run, pid_t *pid)
{
	char path[96], name[32];
	int ret;

	*run = NULL;
	snprintf(name, sizeof(name), "run-%llu.json", (unsigned long long)i + 1);
	snprintf(current, sizeof(current), "%s", name);
	snprintf(path, sizeof(path), "/proc/%d/fd/%d/%s", (int)getpid(), scratch_fd, name);
	ret = run_child(argc, argv, path, pid);
	if (ret == LAT_EXIT_INTERRUPTED && !faccessat(scratch_fd, name, R_OK, AT_SYMLINK_NOFOLLOW))
		ret = LAT_EXIT_OK;	/* stopped by Ctrl-C: what it measured */
	if (ret == LAT_EXIT_OK && lat_result_read(path, run))
		ret = LAT_EXIT_FAIL;
	unlinkat(scratch_fd, name, 0);
	return ret;
}

/* The progress line of run i (0-based) of n: which, and from the runs so
 * far how long the rest will take. Run 1's from a second into it on, so
 * that a run that fails at once (its own line on stderr) stands alone;
 * the others' at once, so that short runs show theirs too. */
static void show_progress(uint64_t i, uint64_t n, const struct timespec *t0)
{
	struct timespec now;
	char line[96];
	double spent;

	clock_gettime(CLOCK_MONOTONIC, &now);
	spent = (double)(now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
	if (i)
		snprintf(line, sizeof(line), "--repeat: run %llu of %llu, about %.0f s left",
			 (unsigned long long)i + 1, (unsigned long long)n, spent / (double)i * (double)(n - i));
	else
		snprintf(line, sizeof(line), "--repeat: run 1 of %llu", (unsigned long long)n);
	if (i)
		lat_progress(line);
	else
		lat_progress_later(line);
}

/* Runs 1..N; doc gets run 1's sections (its histogram too, as its table),
 * the runs, and the histogram of every run pooled in repeat.histogram. */
static int series(const struct lat_opts *o, int argc, char **argv, cJSON *doc)
{
	cJSON *rep, *list = cJSON_CreateArray(), *run;
	struct lat_hist h = { { 0 } };
	struct timespec t0;
	uint64_t i;
	pid_t pid;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < o->repeat && !lat_stop_requested; i++) {
		show_progress(i, o->repeat, &t0);
		ret = one_run(argc, argv, i, &run, &pid);
		lat_progress_done();
		if (ret && lat_stop_requested && i) {
			ret = 0;	/* interrupted before it measured: the runs so far */
			break;
		}
		if (ret && lat_stop_requested) {
			fprintf(stderr, "latctl: --repeat: stopped by SIG%s before a run was measured; nothing to report\n",
				sigabbrev_np(lat_stop_signal));
			cJSON_Delete(list);
			return 128 + lat_stop_signal;
		}
		if (ret) {
			if (ret != LAT_EXIT_USAGE && ret != LAT_EXIT_NOT_FOUND && ret != LAT_EXIT_CANNOT_RUN &&
			    !lat_stop_requested)	/* bad input: the run said why */
				fprintf(stderr, "latctl: --repeat: run %llu of %llu failed (exit %d); no result written\n",
					(unsigned long long)i + 1, (unsigned long long)o->repeat, ret);
			cJSON_Delete(list);
			return ret;
		}
		if (!i)
			take_first(doc, run, o);
		pool_hist(&h, run);
		cJSON_AddItemToArray(list, per_run(run, pid));
		cJSON_Delete(run);
	}
	rep = cJSON_AddObjectToObject(doc, LAT_REPEAT_KEY);
	cJSON_AddNumberToObject(rep, "runs", (double)cJSON_GetArraySize(list));
	if (lat_stop_requested) {
		char sig[16];

		snprintf(sig, sizeof(sig), "SIG%s", sigabbrev_np(lat_stop_signal));
		cJSON_AddNumberToObject(rep, "runs_asked", (double)o->repeat);
		cJSON_AddStringToObject(rep, "stopped_by", sig);
	}
	cJSON_AddBoolToObject(rep, "fresh_process", 1);
	cJSON_AddItemToObject(rep, LAT_REPEAT_RUNS_KEY, list);
	cJSON_AddItemToObject(rep, "histogram", lat_result_histogram(&h));
	return 0;
}

int lat_repeat_run(const struct lat_opts *o, int argc, char **argv, cJSON *doc)
{
	struct lat_result_file file = { 0 };
	int ret = LAT_EXIT_USAGE;

	if (o->json_path && lat_result_open(&file, o->json_path))
		return ret;
	ret = LAT_EXIT_FAIL;
	if (make_scratch(o->json_path))
		goto out;
	command_at = o->command ? (int)(o->command - argv) : -1;
	ret = series(o, argc, argv, doc);
	lat_progress_done();
	if (ret)
		goto out;
	lat_result_finish(doc, lat_stop_requested ? 128 + lat_stop_signal : LAT_EXIT_OK);
	ret = lat_deliver(o->json_path ? &file : NULL, doc, o->quiet, lat_report_stream(o->workload));
	if (!ret && lat_stop_requested) {
		fprintf(stderr, "latctl: --repeat: stopped by SIG%s after %d of %llu runs; the report covers those\n",
			sigabbrev_np(lat_stop_signal),
			cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(doc, LAT_REPEAT_KEY), LAT_REPEAT_RUNS_KEY)),
			(unsigned long long)o->repeat);
		ret = 128 + lat_stop_signal;
	}
out:
	close_scratch();
	lat_cleanup_remove(remove_scratch);
	lat_result_abort(&file);
	return ret;
}
