// SPDX-License-Identifier: MIT
/*
 * lmtool: drive the latmon module from the VM tests through user/backend/latmon_nl.c.
 *
 *   lmtool info | stop | stats
 *   lmtool start --tgid PID [--mask SOURCES] [--buffer N]
 *   lmtool record [--buffer N] [--events FILE] [--mask SOURCES] [--no-read] -- CMD...
 *   lmtool read [--bufsize BYTES] [--count] [--events FILE] [--from ADDR]
 *               [--nonblock] [--to ADDR] [--type TYPE]
 *   lmtool raw COMMAND [ATTR=KIND:VALUE]...
 *
 * record runs CMD, STARTs latmon on it at CMD's first sync point (sync.h),
 * STOPs at the second, reads /dev/latmon meanwhile (or only afterwards with
 * --no-read) and saves the records in FILE (default events.bin). read prints
 * records as text, one per line, from FILE or from /dev/latmon.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "events/evtype.h"
#include "backend/latmon_nl.h"

#define READ_BATCH	1024
#define RAW_BIN_MAX	64	/* bytes of one bin: attribute of `raw` */

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

/* Filters and output mode of `read`. */
struct filter {
	int type;			/* 0 = all */
	uint64_t from, to;		/* address range of fault/THP records */
	int count;			/* print per-type counts, not records */
};


#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Connect or print why not; -1 when the family is missing. */
static struct latmon_nl *connect_or_die(void)
{
	struct latmon_nl *nl;
	int ret = latmon_nl_open(&nl);

	if (ret < 0) {
		fprintf(stderr, "lmtool: cannot reach the latmon family: %s%s\n", strerror(-ret),
			ret == -ENOENT ? " (module not loaded? insmod latmon.ko)" : "");
		exit(1);
	}
	return nl;
}

/* Print a failed request with the kernel's extended-ack message. */
static int report(struct latmon_nl *nl, const char *what, int ret)
{
	if (ret >= 0)
		return 0;
	fprintf(stderr, "lmtool: %s failed: %s%s%s\n", what, strerror(-ret),
		*latmon_nl_errmsg(nl) ? ": " : "", latmon_nl_errmsg(nl));
	return 1;
}

/* "fault,sched" or a number into a LATMON_SRC_BIT mask; 0 if invalid. */
static uint32_t parse_mask(const char *s)
{
	char bad[64] = "";
	uint32_t mask;

	if (*s >= '0' && *s <= '9')
		return strtoul(s, NULL, 0);
	if (!latmon_nl_parse_sources(s, &mask, bad, sizeof(bad)))
		return mask;
	if (*bad)
		fprintf(stderr, "lmtool: unknown source '%s'\n", bad);
	return 0;
}

static void print_source(const char *prefix, const struct latmon_nl_source *s)
{
	printf("%s %s id=%u state=%s missing=%u misses=%" PRIu64 " symbol=%s reason=%s\n",
	       prefix, s->name, s->id, latmon_nl_state_name(s->state), s->missing,
	       s->misses, *s->symbol ? s->symbol : "-", *s->reason ? s->reason : "-");
}

static int cmd_info(int argc, char **argv)
{
	struct latmon_nl *nl = connect_or_die();
	struct latmon_nl_info info;
	unsigned int i;
	int ret;

	(void)argc, (void)argv;
	ret = latmon_nl_info(nl, &info);
	if (!ret) {
		printf("module %s uapi %u kernel %s tsc_khz %u running %u tgid %u\n",
		       info.module_version, info.uapi_version, info.kernel_release,
		       info.tsc_khz, info.running, info.tgid);
		printf("threads max=%u\n", info.threads_max);
		for (i = 0; i < info.nsources; i++)
			print_source("source", &info.sources[i]);
	}
	ret = report(nl, "GET_INFO", ret);
	latmon_nl_close(nl);
	return ret;
}

/* --tgid/--mask/--buffer of start and record. */
static int parse_start(int argc, char **argv, struct latmon_nl_start_req *req,
		       const char **events, int *no_read)
{
	static const struct option longopts[] = {
		{ "buffer", required_argument, NULL, 'b' },
		{ "events", required_argument, NULL, 'e' },
		{ "mask", required_argument, NULL, 'm' },
		{ "no-read", no_argument, NULL, 'n' },
		{ "tgid", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': req->buffer_events = strtoul(optarg, NULL, 0); break;
		case 'e': *events = optarg; break;
		case 'm':
			req->source_mask = parse_mask(optarg);
			if (!req->source_mask)
				return -1;
			break;
		case 'n': *no_read = 1; break;
		case 't': req->tgid = strtoul(optarg, NULL, 0); break;
		default: return -1;
		}
	}
	return 0;
}

static int cmd_start(int argc, char **argv)
{
	struct latmon_nl_start_req req = { 0 };
	const char *events = NULL;
	struct latmon_nl *nl;
	int no_read = 0, ret;

	if (parse_start(argc, argv, &req, &events, &no_read) < 0 || !req.tgid) {
		fprintf(stderr, "usage: lmtool start --tgid PID [--mask SOURCES] [--buffer N]\n");
		return 2;
	}
	nl = connect_or_die();
	ret = report(nl, "START", latmon_nl_start(nl, &req));
	latmon_nl_close(nl);
	return ret;
}

static int cmd_stop(int argc, char **argv)
{
	struct latmon_nl *nl = connect_or_die();
	int ret;

	(void)argc, (void)argv;
	ret = report(nl, "STOP", latmon_nl_stop(nl));
	latmon_nl_close(nl);
	return ret;
}

static int cmd_stats(int argc, char **argv)
{
	struct latmon_nl *nl = connect_or_die();
	struct latmon_nl_cpu sum = { 0 };
	static struct latmon_nl_stats st;
	unsigned int i;
	int ret;

	(void)argc, (void)argv;
	ret = latmon_nl_stats(nl, &st);
	for (i = 0; !ret && i < st.ncpus; i++) {
		struct latmon_nl_cpu *c = &st.cpus[i];

		printf("cpu %u recorded=%" PRIu64 " dropped=%" PRIu64 " read=%" PRIu64
		       " lost_records=%" PRIu64 "\n", c->cpu, c->recorded, c->dropped,
		       c->read, c->lost_records);
		sum.recorded += c->recorded, sum.dropped += c->dropped;
		sum.read += c->read, sum.lost_records += c->lost_records;
	}
	if (!ret)
		printf("total recorded=%" PRIu64 " dropped=%" PRIu64 " read=%" PRIu64
		       " lost_records=%" PRIu64 "\n", sum.recorded, sum.dropped,
		       sum.read, sum.lost_records);
	if (!ret)
		printf("threads live=%u followed=%" PRIu64 " refused=%" PRIu64 "\n",
		       st.threads, st.threads_followed, st.threads_refused);
	for (i = 0; !ret && i < st.nsources; i++)
		print_source("source", &st.sources[i]);
	ret = report(nl, "GET_STATS", ret);
	latmon_nl_stats_free(&st);
	latmon_nl_close(nl);
	return ret;
}

/* A record's type name from its descriptor, "?" if unknown. */
static const char *type_name(uint16_t type)
{
	const struct lat_evtype *t = lat_evtype(type);

	return t ? t->name : "?";
}

static void print_event(const struct latmon_event *e)
{
	printf("%s cpu=%u seq=%" PRIu64 " pid=%u tid=%u begin=%" PRIu64 " end=%" PRIu64
	       " dur=%" PRId64, type_name(e->type), e->cpu,
	       (uint64_t)e->seq, e->pid, e->tid, (uint64_t)e->tsc_begin,
	       (uint64_t)e->tsc_end, (int64_t)(e->tsc_end - e->tsc_begin));
	if (e->reserved)	/* a BPF backend mark (LATCTL_BPF_EVENTS files) */
		printf(" mark=%u", e->reserved);
	if (lat_evtype(e->type))
		lat_evtype(e->type)->print(e, stdout);
	printf("\n");
}

/* True if e passes the type and address filters. */
static int keep(const struct filter *f, const struct latmon_event *e)
{
	uint64_t addr;

	if (f->type && e->type != f->type)
		return 0;
	if (!f->from && !f->to)
		return 1;
	if (e->type == LATMON_EV_FAULT)
		addr = e->u.fault.address;
	else if (e->type == LATMON_EV_THP_CLEAR)
		addr = e->u.thp.address;
	else
		return 0;
	return addr >= f->from && (!f->to || addr < f->to);
}

/* Counts per type, and the events the lost records stand for. */
struct counts {
	uint64_t type[__LATMON_EV_MAX + 1];
	uint64_t lost_events, total;
};

static void account(const struct filter *f, struct counts *n, const struct latmon_event *e)
{
	if (!keep(f, e))
		return;
	n->total++;
	n->type[e->type < __LATMON_EV_MAX ? e->type : __LATMON_EV_MAX]++;
	if (e->type == LATMON_EV_LOST)
		n->lost_events += e->u.lost.count;
	if (!f->count)
		print_event(e);
}

static void print_counts(const struct counts *n)
{
	unsigned int t;

	printf("records=%" PRIu64, n->total);
	for (t = 1; t < __LATMON_EV_MAX; t++)
		printf(" %s=%" PRIu64, type_name(t), n->type[t]);
	printf(" unknown=%" PRIu64 " lost_events=%" PRIu64 "\n", n->type[__LATMON_EV_MAX],
	       n->lost_events);
}

/*
 * Read records from fd until EOF (or EAGAIN when nonblocking), passing each
 * to out (a file, or NULL) and to the counts. Returns records read or -errno.
 */
static long drain(int fd, size_t bufsize, FILE *out, const struct filter *f,
		  struct counts *n)
{
	static struct latmon_event buf[READ_BATCH];
	long total = 0;
	ssize_t got, i;

	if (bufsize > sizeof(buf))
		bufsize = sizeof(buf);
	for (;;) {
		got = read(fd, buf, bufsize);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return errno == EAGAIN ? total : -errno;
		if (got == 0)
			return total;
		if (got % sizeof(buf[0]))
			return -EPROTO;
		got /= sizeof(buf[0]);
		if (out && fwrite(buf, sizeof(buf[0]), got, out) != (size_t)got)
			return -EIO;
		for (i = 0; n && i < got; i++)
			account(f, n, &buf[i]);
		total += got;
	}
}

/* "--from 0x..." style address option. */
static uint64_t parse_addr(const char *s)
{
	return strtoull(s, NULL, 0);
}

static int parse_type(const char *s)
{
	const struct lat_evtype *t = lat_evtype_by_name(s);

	if (t)
		return t->type;
	fprintf(stderr, "lmtool: unknown record type '%s'\n", s);
	return -1;
}

static int parse_read(int argc, char **argv, struct filter *f, const char **events,
		      size_t *bufsize, int *nonblock)
{
	static const struct option longopts[] = {
		{ "bufsize", required_argument, NULL, 'b' },
		{ "count", no_argument, NULL, 'c' },
		{ "events", required_argument, NULL, 'e' },
		{ "from", required_argument, NULL, 'f' },
		{ "nonblock", no_argument, NULL, 'n' },
		{ "to", required_argument, NULL, 't' },
		{ "type", required_argument, NULL, 'y' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': *bufsize = strtoul(optarg, NULL, 0); break;
		case 'c': f->count = 1; break;
		case 'e': *events = optarg; break;
		case 'f': f->from = parse_addr(optarg); break;
		case 'n': *nonblock = 1; break;
		case 't': f->to = parse_addr(optarg); break;
		case 'y':
			f->type = parse_type(optarg);
			if (f->type < 0)
				return -1;
			break;
		default: return -1;
		}
	}
	return optind == argc ? 0 : -1;
}

static int cmd_read(int argc, char **argv)
{
	size_t bufsize = sizeof(struct latmon_event) * READ_BATCH;
	const char *events = NULL;
	struct filter f = { 0 };
	struct counts n = { 0 };
	int fd, nonblock = 0;
	long got;

	if (parse_read(argc, argv, &f, &events, &bufsize, &nonblock) < 0) {
		fprintf(stderr, "usage: lmtool read [--bufsize B] [--count] [--events FILE]"
				" [--from A] [--nonblock] [--to A] [--type T]\n");
		return 2;
	}
	fd = open(events ? events : LATMON_DEVICE, O_RDONLY | (nonblock ? O_NONBLOCK : 0));
	if (fd < 0) {
		fprintf(stderr, "lmtool: open %s: %s\n", events ? events : LATMON_DEVICE,
			strerror(errno));
		return 1;
	}
	got = drain(fd, bufsize, NULL, &f, &n);
	close(fd);
	if (got < 0) {
		fprintf(stderr, "lmtool: read: %s\n", strerror(-got));
		return 1;
	}
	if (f.count)
		print_counts(&n);
	return 0;
}

/* State of one `record` run. */
struct recorder {
	struct latmon_nl *nl;
	struct latmon_nl_start_req req;
	FILE *out;
	int dev;		/* /dev/latmon, -1 until opened */
	int ready, go;		/* our ends of the sync pipes */
	int phase;		/* sync points seen: 1 = started, 2 = stopped */
	long records;
	long live;		/* records read while the session ran */
	pid_t pid;
};

/* Fork CMD with the sync pipes in LMTOOL_READY_FD / LMTOOL_GO_FD. */
static int spawn(struct recorder *r, char **argv)
{
	int ready[2], go[2];
	char buf[16];

	if (pipe(ready) < 0 || pipe(go) < 0)
		return -errno;
	r->pid = fork();
	if (r->pid < 0)
		return -errno;
	if (r->pid == 0) {
		close(ready[0]);
		close(go[1]);
		snprintf(buf, sizeof(buf), "%d", ready[1]);
		setenv("LMTOOL_READY_FD", buf, 1);
		snprintf(buf, sizeof(buf), "%d", go[0]);
		setenv("LMTOOL_GO_FD", buf, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "lmtool: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(ready[1]);
	close(go[0]);
	r->ready = ready[0];
	r->go = go[1];
	return 0;
}

/* Open the device without blocking and read what it has into the file. */
static int pump(struct recorder *r)
{
	long got;

	if (r->dev < 0) {
		r->dev = open(LATMON_DEVICE, O_RDONLY | O_NONBLOCK);
		if (r->dev < 0)
			return -errno;
	}
	got = drain(r->dev, sizeof(struct latmon_event) * READ_BATCH, r->out, NULL, NULL);
	if (got < 0)
		return got;
	r->records += got;
	if (r->phase == 1)
		r->live += got;
	return 0;
}

/* The child reached a sync point: START at the first, STOP at the second. */
static int sync_point(struct recorder *r, int no_read)
{
	char c = 'g';
	int ret;

	r->phase++;
	if (r->phase == 1)
		ret = latmon_nl_start(r->nl, &r->req);
	else
		ret = latmon_nl_stop(r->nl);
	if (ret < 0) {
		report(r->nl, r->phase == 1 ? "START" : "STOP", ret);
		return ret;
	}
	if (write(r->go, &c, 1) != 1)
		return -errno;
	/* Read only this session's records: START freed the older ones. */
	return r->phase == 1 && !no_read ? pump(r) : 0;
}

/* Wait for sync points and records until the child closes its pipe. */
static int record_loop(struct recorder *r, int no_read)
{
	struct pollfd p[2];
	char c;
	int ret = 0;

	while (!ret) {
		p[0] = (struct pollfd){ .fd = r->ready, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = r->dev, .events = POLLIN };
		if (poll(p, r->phase == 1 && !no_read ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r->phase == 1 && !no_read && (p[1].revents & POLLIN))
			ret = pump(r);
		if (!ret && (p[0].revents & (POLLIN | POLLHUP))) {
			if (read(r->ready, &c, 1) != 1)
				break;
			ret = sync_point(r, no_read);
		}
	}
	return ret;
}

/* Reap the child, STOP if it never reached its second sync point, read the rest. */
static int record_finish(struct recorder *r, int ret, int *status)
{
	int drained, stop;

	if (ret < 0 && r->pid > 0)
		kill(r->pid, SIGKILL);
	if (r->go >= 0)
		close(r->go);
	if (r->pid > 0)
		waitpid(r->pid, status, 0);
	stop = r->phase == 1 ? latmon_nl_stop(r->nl) : 0;
	if (stop < 0 && !ret) {
		report(r->nl, "STOP", stop);
		ret = stop;
	}
	drained = r->phase ? pump(r) : 0;
	if (drained < 0 && !ret) {
		fprintf(stderr, "lmtool: reading %s: %s\n", LATMON_DEVICE, strerror(-drained));
		ret = drained;
	}
	if (fclose(r->out) != 0 && !ret)
		ret = -EIO;
	if (r->dev >= 0)
		close(r->dev);
	latmon_nl_close(r->nl);
	printf("lmtool: target pid=%d records=%ld live=%ld\n", (int)r->pid, r->records, r->live);
	return ret;
}

static int cmd_record(int argc, char **argv)
{
	struct recorder r = { .dev = -1, .ready = -1, .go = -1 };
	const char *events = "events.bin";
	int no_read = 0, ret, status = 0;

	if (parse_start(argc, argv, &r.req, &events, &no_read) < 0 || optind >= argc) {
		fprintf(stderr, "usage: lmtool record [--buffer N] [--events FILE] [--mask SOURCES]"
				" [--no-read] -- CMD...\n");
		return 2;
	}
	r.nl = connect_or_die();
	r.out = fopen(events, "w");
	if (!r.out) {
		fprintf(stderr, "lmtool: cannot create %s: %s\n", events, strerror(errno));
		latmon_nl_close(r.nl);
		return 1;
	}
	ret = spawn(&r, argv + optind);
	r.req.tgid = r.pid;
	if (!ret)
		ret = record_loop(&r, no_read);
	ret = record_finish(&r, ret, &status);
	return ret ? 1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Attribute names of `raw`: the LATMON_A_* a test may want to forge. */
static int attr_type(const char *name)
{
	static const struct { const char *name; int type; } attrs[] = {
		{ "tgid", LATMON_A_TGID }, { "mask", LATMON_A_SOURCE_MASK },
		{ "buffer", LATMON_A_BUFFER_EVENTS }, { "flags", LATMON_A_FLAGS },
	};
	size_t i;

	for (i = 0; i < NELEM(attrs); i++)
		if (!strcmp(name, attrs[i].name))
			return attrs[i].type;
	return (int)strtol(name, NULL, 0);
}

/* "tgid=u8:5", "99=u32:1", "mask=str:x", "tgid=bin:0102" into an attribute. */
static int parse_attr(char *spec, struct latmon_nl_attr *a, unsigned char *bin)
{
	static const char *const kinds[] = { NULL, "u8", "u16", "u32", "u64", "str", "bin" };
	char *eq = strchr(spec, '='), *colon = eq ? strchr(eq, ':') : NULL;
	size_t k;

	if (!eq || !colon)
		return -1;
	*eq = *colon = '\0';
	memset(a, 0, sizeof(*a));
	a->type = attr_type(spec);
	for (k = 1; k < NELEM(kinds) && strcmp(eq + 1, kinds[k]); k++)
		;
	if (k == NELEM(kinds))
		return -1;
	a->kind = k;
	a->value = strtoull(colon + 1, NULL, 0);
	a->data = k == LATMON_NL_BINARY ? (void *)bin : (void *)(colon + 1);
	for (a->len = 0; k == LATMON_NL_BINARY && colon[1 + 2 * a->len] && a->len < RAW_BIN_MAX;
	     a->len++)
		sscanf(colon + 1 + 2 * a->len, "%2hhx", &bin[a->len]);
	return 0;
}

static int raw_cmd(const char *name)
{
	static const char *const cmds[] = { "unspec", "info", "start", "stop", "stats" };
	size_t i;

	for (i = 0; i < NELEM(cmds); i++)
		if (!strcmp(name, cmds[i]))
			return i;
	return (int)strtol(name, NULL, 0);
}

static int cmd_raw(int argc, char **argv)
{
	static unsigned char bin[8][RAW_BIN_MAX];
	struct latmon_nl_attr attrs[8];
	struct latmon_nl *nl;
	int i, n = 0, ret;

	if (argc < 2 || argc - 2 > 8) {
		fprintf(stderr, "usage: lmtool raw COMMAND [ATTR=KIND:VALUE]... (up to 8)\n");
		return 2;
	}
	for (i = 2; i < argc; i++, n++)
		if (parse_attr(argv[i], &attrs[n], bin[n]) < 0) {
			fprintf(stderr, "lmtool: bad attribute '%s': want NAME=u8|u16|u32|u64|str|bin:VALUE\n",
				argv[i]);
			return 2;
		}
	nl = connect_or_die();
	ret = latmon_nl_request(nl, raw_cmd(argv[1]), 0, attrs, n);
	if (ret < 0)
		printf("rejected: %s (%d): %s\n", strerror(-ret), ret, latmon_nl_errmsg(nl));
	else
		printf("accepted\n");
	latmon_nl_close(nl);
	return ret < 0 ? 1 : 0;
}

static const struct cmd cmds[] = {
	{ "info", cmd_info, "print module, UAPI, kernel and each event source" },
	{ "raw", cmd_raw, "send a hand-built request: raw start tgid=u8:1 flags=u32:1" },
	{ "read", cmd_read, "print records from /dev/latmon or --events FILE" },
	{ "record", cmd_record, "run CMD under a session, save its records" },
	{ "start", cmd_start, "START --tgid PID [--mask SOURCES] [--buffer N]" },
	{ "stats", cmd_stats, "per-CPU recorded/dropped/read and per-source misses" },
	{ "stop", cmd_stop, "STOP the running session" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: lmtool COMMAND [ARGS]\n");
	for (i = 0; i < NELEM(cmds); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "example: lmtool record --mask fault -- lmtouch --pages 100\n");
}

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	for (i = 0; i < NELEM(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "lmtool: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
