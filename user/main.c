// SPDX-License-Identifier: MIT
/* latctl: run a workload, time every iteration, report the tail. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <latmon.h>

#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "settings/journal.h"
#include "settings/sysset.h"

int lat_main_argc;
char **lat_main_argv;

static int cmd_help(int argc, char **argv);

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "run a workload and report its tail latency" },
	{ "report", cmd_report, "print the report of a saved JSON result" },
	{ "list", cmd_list, "list the workloads, their modes and options" },
	{ "compare", cmd_compare, "compare results: medians, intervals, significance, causes" },
	{ "check", cmd_check, "good, bad or cannot tell (0/1/125) for git bisect run" },
	{ "plot", cmd_plot, "draw a saved result as an SVG picture" },
	{ "export", cmd_export, "write a saved result as a Perfetto trace" },
	{ "doctor", cmd_doctor, "what on this machine shapes the tail, what to do" },
	{ "latmon", cmd_latmon, "inspect the latmon module: info, stats, record" },
	{ "backends", cmd_backends, "which event backends (latmon, bpf) this kernel allows" },
	{ "restore", cmd_restore, "put back the settings a killed latctl run left changed" },
	{ "help", cmd_help, "show this help" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void list_cmds(FILE *out)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, " %s", commands[i].name);
}

static void usage(FILE *out);

static const struct lat_opt main_opts[] = {
	{ "help", 'h', NULL, "this text ('latctl COMMAND --help' for a command)", NULL, NULL },
	{ "list-cmds", LAT_OPT_LONG, NULL, NULL, NULL, NULL },
	{ "version", 'V', NULL, "print the version of latctl and of the latmon UAPI", NULL, NULL },
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts main_cmd = {
	.cmd = "latctl", .opt = main_opts, .width = 17, .list_args = list_cmds,
	.subcommands = 1, .usage = usage,
};

static const struct lat_opt help_opts[] = {
	LAT_OPT_HELP,
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts help_cmd = {
	.cmd = "latctl help", .opt = help_opts, .list_args = list_cmds, .usage = usage,
};

static void usage(FILE *out)
{
	size_t i;

	fputs("usage: latctl COMMAND [arguments]\n\n"
	      "Times every iteration of a workload with the serialized TSC and\n"
	      "shows the tail: percentiles, a log2 histogram, page faults,\n"
	      "context switches and huge pages.\n\ncommands:\n", out);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fputs("\noptions:\n", out);
	lat_opt_usage(out, &main_cmd);
	fputs("\nexamples:\n"
	      "  latctl run grow --thp always       (root) huge pages on for the run\n"
	      "  latctl run grow --mode touched     memory written before timing\n"
	      "  latctl run grow --json r.json && latctl report r.json\n"
	      "  latctl run --help                  every option of run\n"
	      "  latctl doctor                      what this machine does to the tail\n"
	      "  latctl plot r.json -o r.svg        histogram and timeline, by cause\n"
	      "\nexit status: 0 ok, 1 the run failed, 2 bad command line or input file\n",
	      out);
}

/* `latctl help`: the commands; `latctl help COMMAND`: COMMAND --help. */
static int cmd_help(int argc, char **argv)
{
	char help[] = "--help";
	size_t i;

	if (lat_opt_only_help(&help_cmd, argc, argv) == LAT_PARSED_HELP)
		return LAT_EXIT_OK;
	if (argc > 2) {
		fprintf(stderr, "latctl help: give at most one command; see 'latctl --help'\n");
		return LAT_EXIT_USAGE;
	}
	if (argc < 2 || !strcmp(argv[1], "help")) {
		usage(stdout);
		return LAT_EXIT_OK;
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(2, (char *[]){ argv[1], help, NULL });
	fprintf(stderr, "latctl help: unknown command '%s'; see 'latctl --help'\n", argv[1]);
	return LAT_EXIT_USAGE;
}

/*
 * What a command printed reached stdout: a full disk or an I/O error is
 * exit 1 with a line (check: 125, cannot tell, never "bad" for bisect).
 * A pipe or a socket closed early (| head) is no error, as in perf's
 * command runner.
 */
static int stdout_checked(const char *cmd, int ret)
{
	struct stat st;
	int err = 0;

	if (fflush(stdout))
		err = errno;
	else if (ferror(stdout))
		err = EIO;
	else if (fclose(stdout))
		err = errno;
	if (!err || (!fstat(STDOUT_FILENO, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))))
		return ret;
	fprintf(stderr, "latctl: writing to stdout failed: %s\n", strerror(err));
	if (ret != LAT_EXIT_OK)
		return ret;
	return strcmp(cmd, "check") ? LAT_EXIT_FAIL : LAT_EXIT_CANNOT_TELL;
}

/* Descriptors 0, 1 and 2 open (on /dev/null if closed), so that no file
 * latctl opens becomes stdout and gets the report. */
static void std_fds_open(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR | O_NOCTTY)) >= 0 && fd <= STDERR_FILENO)
		;
	if (fd > STDERR_FILENO)
		close(fd);
}

/*
 * stdout: a closed pipe is an EPIPE for stdout_checked to judge, not a
 * SIGPIPE (programs latctl starts get SIGPIPE back before their exec);
 * a report leaves in one write at the end, not in 4 KiB pieces, so that
 * the error of a full disk is the one said and a reader that closed early
 * is seen once.
 */
static void stdout_buffered(void)
{
	static char buf[1 << 20];

	signal(SIGPIPE, SIG_IGN);
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
}

int main(int argc, char **argv)
{
	size_t i;

	std_fds_open();
	stdout_buffered();
	lat_main_argc = argc;
	lat_main_argv = argv;
	if (argc < 2) {
		usage(stderr);
		return LAT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return stdout_checked(argv[1], cmd_help(1, argv + 1));
	if (lat_opt_only_help(&main_cmd, argc, argv) == LAT_PARSED_HELP)
		return stdout_checked(argv[1], LAT_EXIT_OK);
	if (!strcmp(argv[1], "--list-cmds")) {
		for (i = 0; i < NCOMMANDS; i++)
			puts(commands[i].name);
		return stdout_checked(argv[1], LAT_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("latctl %s (latmon UAPI %d)\n", LATCTL_VERSION, LATMON_UAPI_VERSION);
		return stdout_checked(argv[1], LAT_EXIT_OK);
	}
	for (i = 0; i < NCOMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* what a killed run left changed, put back first (doctor: shown) */
		if (strcmp(argv[1], "restore") && strcmp(argv[1], "doctor"))
			lat_journal_recover(1);
		return stdout_checked(argv[1], commands[i].fn(argc - 1, argv + 1));
	}
	fprintf(stderr, "latctl: unknown command '%s'; see 'latctl --help'\n", argv[1]);
	return LAT_EXIT_USAGE;
}
