// SPDX-License-Identifier: MIT
/*
 * `latctl latmon info|stats|record`: look at the latmon module by hand.
 *   info    the module, its UAPI, the kernel's tsc_khz, each event source
 *   stats   per-CPU recorded, dropped, read and lost records, probe misses
 *   record  run a command under a session and count (and save) its records
 * All netlink goes through latmon_nl.c; records are read from /dev/latmon.
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "events/evtype.h"
#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "backend/latmon_nl.h"
#include "lib/parse.h"
#include "run/opts.h"

#define BATCH		512

/* One line for a failed connect or request, with what to do. */
static int fail(struct latmon_nl *nl, const char *what, int err)
{
	const char *ack = latmon_nl_errmsg(nl);

	if (err == -ENOENT)
		fprintf(stderr, "latctl latmon: latmon is not loaded: run 'make load' (root), "
			"or see 'latctl doctor' for why it cannot load here\n");
	else if (err == -EPERM || err == -EACCES)
		fprintf(stderr, "latctl latmon: %s: latmon needs root (CAP_SYS_ADMIN)\n", what);
	else
		fprintf(stderr, "latctl latmon: %s failed: %s%s%s\n", what, strerror(-err),
			*ack ? ": " : "", ack);
	return LAT_EXIT_FAIL;
}

static void print_sources(const struct latmon_nl_source *s, unsigned int n)
{
	unsigned int i;

	printf("  %-10s %-12s %s\n", "source", "state", "symbol or reason");
	for (i = 0; i < n; i++, s++)
		printf("  %-10s %-12s %s\n", s->name, latmon_nl_state_name(s->state),
		       *s->reason ? s->reason : *s->symbol ? s->symbol : "(tracepoints)");
}

static void print_misses(const struct latmon_nl_source *s, unsigned int n)
{
	unsigned int i;

	printf("  %-10s %s\n", "source", "probe misses (events never recorded)");
	for (i = 0; i < n; i++, s++)
		printf("  %-10s %" PRIu64 "\n", s->name, s->misses);
}

static int do_info(struct latmon_nl *nl)
{
	struct latmon_nl_info info;
	int ret = latmon_nl_info(nl, &info);

	if (ret)
		return fail(nl, "GET_INFO", ret);
	printf("latmon %s (UAPI %u) on %s, tsc_khz %u, %s", info.module_version,
	       info.uapi_version, info.kernel_release, info.tsc_khz,
	       info.running ? "recording" : "idle");
	if (info.running)
		printf(" (target pid %u)", info.tgid);
	putchar('\n');
	print_sources(info.sources, info.nsources);
	return LAT_EXIT_OK;
}

static int do_stats(struct latmon_nl *nl)
{
	static struct latmon_nl_stats st;
	struct latmon_nl_cpu sum = { 0 };
	unsigned int i;
	int ret = latmon_nl_stats(nl, &st);

	if (ret)
		return fail(nl, "GET_STATS", ret);
	printf("  %-5s %12s %12s %12s %12s\n", "cpu", "recorded", "dropped", "read", "lost records");
	for (i = 0; i < st.ncpus; i++) {
		const struct latmon_nl_cpu *c = &st.cpus[i];

		printf("  %-5u %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
		       c->cpu, c->recorded, c->dropped, c->read, c->lost_records);
		sum.recorded += c->recorded, sum.dropped += c->dropped;
		sum.read += c->read, sum.lost_records += c->lost_records;
	}
	printf("  %-5s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", "all",
	       sum.recorded, sum.dropped, sum.read, sum.lost_records);
	print_misses(st.sources, st.nsources);
	return LAT_EXIT_OK;
}

/* One `record` run. */
struct rec {
	struct latmon_nl *nl;
	struct latmon_nl_start_req req;
	FILE *save;			/* --events FILE, or NULL */
	int dev, go;
	pid_t pid;
	uint64_t types[__LATMON_EV_MAX + 1], lost_events, records;
};

/* "fault,sched" into source bits; 0 and one line if a name is unknown. */
static uint32_t parse_sources(const char *s)
{
	char bad[64] = "";
	uint32_t mask;

	if (!latmon_nl_parse_sources(s, &mask, bad, sizeof(bad)))
		return mask;
	fprintf(stderr, "latctl latmon: unknown source '%s'; 'latctl latmon info' lists them\n", bad);
	return 0;
}

/* Read what the device has now into the counts (and the file). */
static int pump(struct rec *r)
{
	static struct latmon_event buf[BATCH];
	ssize_t got, i;

	for (;;) {
		got = read(r->dev, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return errno == EAGAIN ? 0 : -errno;
		if (got == 0)
			return 0;
		got /= (ssize_t)sizeof(buf[0]);
		if (r->save && fwrite(buf, sizeof(buf[0]), (size_t)got, r->save) != (size_t)got)
			return -EIO;
		for (i = 0; i < got; i++) {
			r->types[buf[i].type < __LATMON_EV_MAX ? buf[i].type : __LATMON_EV_MAX]++;
			if (buf[i].type == LATMON_EV_LOST)
				r->lost_events += buf[i].u.lost.count;
		}
		r->records += (uint64_t)got;
	}
}

/* Fork CMD stopped on a pipe, so that START covers it from its first step. */
static int spawn(struct rec *r, char **cmd)
{
	int go[2];
	char c;

	if (pipe(go) < 0)
		return -errno;
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0)
		return -errno;
	if (r->pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* the parent gave up */
		close(go[0]);
		signal(SIGPIPE, SIG_DFL); /* latctl ignores it (main.c) */
		execvp(cmd[0], cmd);
		fprintf(stderr, "latctl latmon: cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	r->go = go[1];
	return 0;
}

/* START on the child, let it go, read until it exits, STOP, read the rest. */
static int run_session(struct rec *r, int *status)
{
	struct pollfd p = { .fd = r->dev, .events = POLLIN };
	int ret;

	r->req.tgid = (uint32_t)r->pid;
	ret = latmon_nl_start(r->nl, &r->req);
	if (ret)
		return fail(r->nl, "START", ret);
	if (write(r->go, "g", 1) != 1)
		ret = -errno;
	close(r->go);
	r->go = -1;
	while (!ret && waitpid(r->pid, status, WNOHANG) == 0) {
		if (poll(&p, 1, 100) > 0)
			ret = pump(r);
	}
	r->pid = 0;
	if (latmon_nl_stop(r->nl) && !ret)
		return fail(r->nl, "STOP", -EIO);
	if (!ret)
		ret = pump(r);
	return ret ? fail(r->nl, "reading " LATMON_DEVICE, ret) : 0;
}

static void print_record(const struct rec *r)
{
	int t;

	printf("latmon record: pid %d, %" PRIu64 " records:", (int)r->req.tgid, r->records);
	for (t = 1; t < __LATMON_EV_MAX; t++)
		printf(" %s %" PRIu64, lat_evtype(t) ? lat_evtype(t)->name : "?", r->types[t]);
	if (r->types[__LATMON_EV_MAX])
		printf(" unknown %" PRIu64, r->types[__LATMON_EV_MAX]);
	printf("\nlost: %" PRIu64 " events in %" PRIu64 " lost records%s\n", r->lost_events,
	       r->types[LATMON_EV_LOST], r->lost_events ? " (rings full: give --buffer more)" : "");
}

static void latmon_usage(FILE *out);

enum { OPT_BUFFER = LAT_OPT_LONG, OPT_EVENTS, OPT_SOURCES };

static void list_sources(FILE *out)
{
	uint32_t id;

	for (id = 1; id < __LATMON_SRC_MAX; id++)
		fprintf(out, " %s", lat_source_name(id));
}

/* Alphabetical, as the usage shows them. */
static const struct lat_opt record_opts[] = {
	{ "buffer", OPT_BUFFER, "N", "ring slots per CPU (default: the module's)", NULL, NULL },
	{ "events", OPT_EVENTS, "FILE", "also save the records (struct latmon_event each)",
	  "<file>", NULL },
	{ "sources", OPT_SOURCES, "LIST",
	  "comma-separated sources, as info lists them: fault,\n"
	  "thp-clear, sched, irq, alloc-zero, compaction, reclaim,\n"
	  "syscall, wait (default: every usable one)",
	  NULL, list_sources },
	LAT_OPT_HELP,
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts record_cmd = {
	.cmd = "latctl latmon record", .opt = record_opts, .width = 22, .posix = 1,
	.usage = latmon_usage,
};

static const struct lat_opt no_opts[] = {
	LAT_OPT_HELP,
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts latmon_cmd = {
	.cmd = "latctl latmon", .opt = no_opts, .args = "info stats record help",
	.subcommands = 1, .usage = latmon_usage,
};

/* --buffer, --events, --sources into r and file; *cmd: the index of COMMAND. */
static enum lat_parsed parse_record(int argc, char **argv, struct rec *r, const char **file,
				    int *cmd)
{
	struct lat_optp p;
	uint64_t v;
	int c;

	lat_opt_begin(&p, &record_cmd);
	while ((c = lat_opt_next(&p, argc, argv)) != LAT_OPT_END) {
		if (c == LAT_OPT_DONE)
			return LAT_PARSED_HELP;
		if (c == LAT_OPT_BAD)
			return lat_opt_say(&p);
		if (c == OPT_EVENTS) {
			*file = optarg;
		} else if (c == OPT_SOURCES) {
			r->req.source_mask = parse_sources(optarg);
			if (!r->req.source_mask)
				return LAT_PARSED_BAD;	/* said why */
		} else if (!lat_parse_u64(optarg, LATMON_MIN_BUFFER_EVENTS,
					  LATMON_MAX_BUFFER_EVENTS, &v)) {
			r->req.buffer_events = (uint32_t)v;
		} else {
			fprintf(stderr, "latctl latmon: --buffer '%s': give a whole number from %u to %u\n",
				optarg, LATMON_MIN_BUFFER_EVENTS, LATMON_MAX_BUFFER_EVENTS);
			return LAT_PARSED_BAD;
		}
	}
	*cmd = optind;
	if (optind < argc)
		return LAT_PARSED_RUN;
	fprintf(stderr, "usage: latctl latmon record [--buffer N] [--events FILE] "
		"[--sources LIST] -- COMMAND [ARGS...]\n");
	return LAT_PARSED_BAD;
}

static int do_record(struct latmon_nl *nl, int argc, char **argv)
{
	struct rec r = { .nl = nl, .dev = -1, .go = -1 };
	const char *file = NULL;
	int cmd, status = 0, ret;

	if (parse_record(argc, argv, &r, &file, &cmd) != LAT_PARSED_RUN)
		return LAT_EXIT_USAGE;	/* cmd_latmon checked the arguments */
	if (file && !(r.save = fopen(file, "w"))) {
		fprintf(stderr, "latctl latmon: cannot create %s: %s\n", file, strerror(errno));
		return LAT_EXIT_USAGE;
	}
	r.dev = open(LATMON_DEVICE, O_RDONLY | O_NONBLOCK);
	if (r.dev < 0)
		ret = fail(nl, "open " LATMON_DEVICE, -errno);
	else if ((ret = spawn(&r, argv + cmd)))
		ret = fail(nl, "fork", ret);
	else
		ret = run_session(&r, &status);
	if (r.pid > 0) {
		close(r.go);		/* the child exits without running CMD */
		waitpid(r.pid, NULL, 0);
	}
	if (r.dev >= 0)
		close(r.dev);
	if (r.save && fclose(r.save) && !ret)
		ret = fail(nl, "writing the events file", -EIO);
	if (ret)
		return ret;
	print_record(&r);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void latmon_usage(FILE *out)
{
	fputs("usage: latctl latmon info | stats | record [OPTIONS] -- COMMAND [ARGS...]\n\n"
	      "Looks at the latmon module (root):\n"
	      "  info    module and UAPI version, the kernel's tsc_khz, whether a session\n"
	      "          runs, and each event source: attached, available or unavailable\n"
	      "          with its probe symbol or the reason\n"
	      "  stats   per CPU: records recorded, dropped, read and lost records of the\n"
	      "          last session; per source: probe misses (events never recorded)\n"
	      "  record  run COMMAND under a session from its first instruction to its\n"
	      "          exit and print how many records of each type latmon delivered\n"
	      "  help    this text\n\n"
	      "options of record:\n", out);
	lat_opt_usage(out, &record_cmd);
	fputs("\n"
	      "examples:\n"
	      "  latctl latmon info\n"
	      "  latctl latmon record --sources fault -- latctl run grow --iters 100000 --quiet\n"
	      "  latctl latmon stats\n"
	      "\nexit status: info and stats 0, or 1 when latmon cannot be reached; record\n"
	      "exits with COMMAND's status; 2 for a bad command line.\n", out);
}

static int do_info_cmd(struct latmon_nl *nl, int argc, char **argv)
{
	(void)argc, (void)argv;
	return do_info(nl);
}

static int do_stats_cmd(struct latmon_nl *nl, int argc, char **argv)
{
	(void)argc, (void)argv;
	return do_stats(nl);
}

static const struct {
	const char *name;
	int (*fn)(struct latmon_nl *nl, int argc, char **argv);
	int takes_args;
} subcommands[] = {
	{ "info",   do_info_cmd,  0 },
	{ "record", do_record,    1 },
	{ "stats",  do_stats_cmd, 0 },
};

int cmd_latmon(int argc, char **argv)
{
	struct latmon_nl *nl = NULL;
	struct rec probe = { 0 };
	const char *file;
	size_t i, n = sizeof(subcommands) / sizeof(subcommands[0]);
	int ret, cmd;

	if (lat_opt_only_help(&latmon_cmd, argc, argv) == LAT_PARSED_HELP)
		return LAT_EXIT_OK;
	if (argc == 2 && !strcmp(argv[1], "help")) {
		latmon_usage(stdout);
		return LAT_EXIT_OK;
	}
	for (i = 0; argc >= 2 && i < n && strcmp(argv[1], subcommands[i].name); i++)
		;
	if (argc < 2 || i == n || (!subcommands[i].takes_args && argc != 2)) {
		fprintf(stderr, "latctl latmon: give info, stats, record or help; see 'latctl latmon --help'\n");
		return LAT_EXIT_USAGE;
	}
	if (subcommands[i].takes_args) {	/* bad input before asking the module */
		ret = parse_record(argc - 1, argv + 1, &probe, &file, &cmd);
		if (ret != LAT_PARSED_RUN)
			return ret == LAT_PARSED_HELP ? LAT_EXIT_OK : LAT_EXIT_USAGE;
	}
	ret = latmon_nl_open(&nl);
	if (ret)
		return fail(NULL, "connect", ret);
	ret = subcommands[i].fn(nl, argc - 1, argv + 1);
	latmon_nl_close(nl);
	return ret;
}
