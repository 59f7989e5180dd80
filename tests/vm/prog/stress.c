// SPDX-License-Identifier: MIT
/*
 * stress: helpers of the stress tests (tests/vm/s-*.sh), not of `make check`.
 *
 *   stress bounce [SECONDS]      hop between CPUs (IPIs, migrations) + timers
 *   stress poll                  read /dev/latmon through poll() until EOF
 *   stress as UID [CAP] -- CMD   run CMD as UID with only capability CAP
 *                                (uid 0: securebits NOROOT, so root gets
 *                                no capability but CAP either)
 *   stress leak [--events FILE]  read /dev/latmon into 0xAA-filled buffers
 *                                (or the records saved in FILE), check
 *                                reserved bytes and kernel addresses
 *   stress nlpad                 GET_INFO and GET_STATS replies: padding zero
 *   stress trailing TGID         START with 3 bytes after the last attribute
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include <latmon.h>
#include "backend/latmon_nl_int.h"

#define KADDR_MIN	0xffff800000000000ULL
#define NREC		64

static int failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stdout, "FAIL ");
	vfprintf(stdout, fmt, ap);
	fprintf(stdout, "\n");
	va_end(ap);
	failures++;
}

/* Hop between the online CPUs, sleeping a little now and then. */
static int cmd_bounce(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double secs = argc > 1 ? atof(argv[1]) : 3600;
	struct timespec t0, t, nap = { 0, 200000 };
	cpu_set_t set;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0;; i++) {
		CPU_ZERO(&set);
		CPU_SET(i % ncpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
		if (i % 8 == 0)
			nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 > secs)
			return 0;
	}
}

/* Read /dev/latmon via poll() until EOF; exit 0 at EOF, 1 on an error. */
static int cmd_poll(int argc, char **argv)
{
	static struct latmon_event buf[NREC];
	struct pollfd p = { .events = POLLIN };
	long total = 0;
	ssize_t got;

	(void)argc, (void)argv;
	p.fd = open(LATMON_DEVICE, O_RDONLY | O_NONBLOCK);
	if (p.fd < 0) {
		perror("stress poll: open " LATMON_DEVICE);
		return 1;
	}
	for (;;) {
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
		got = read(p.fd, buf, sizeof(buf));
		if (got < 0 && errno == EAGAIN)
			continue;
		if (got <= 0 || got % sizeof(buf[0]))
			break;
		total += got / sizeof(buf[0]);
	}
	printf("poll reader: %ld records, %s\n", total, got == 0 ? "EOF" : strerror(errno));
	return got == 0 ? 0 : 1;
}

static int cap_of(const char *name)
{
	if (!strcmp(name, "perfmon"))
		return CAP_PERFMON;
	if (!strcmp(name, "net_admin"))
		return CAP_NET_ADMIN;
	if (!strcmp(name, "sys_admin"))
		return CAP_SYS_ADMIN;
	return -1;
}

/* Set permitted, effective and inheritable to {cap} (none if cap < 0). */
static int set_caps(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (cap >= 0) {
		d[cap / 32].permitted = d[cap / 32].effective = 1U << (cap % 32);
		d[cap / 32].inheritable = 1U << (cap % 32);
	}
	if (syscall(SYS_capset, &h, d) < 0)
		return -1;
	return cap < 0 ? 0 : prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0);
}

/* Become UID (keeping at most one capability) and exec the command. */
static int cmd_as(int argc, char **argv)
{
	int i = 2, cap = -1;
	uid_t uid;

	if (argc < 4)
		return fprintf(stderr, "usage: stress as UID [CAP] -- CMD...\n"), 2;
	uid = atoi(argv[1]);
	if (strcmp(argv[2], "--") && (cap = cap_of(argv[i++])) < 0)
		return fprintf(stderr, "stress as: unknown capability %s\n", argv[2]), 2;
	if (strcmp(argv[i++], "--"))
		return fprintf(stderr, "stress as: want -- before the command\n"), 2;
	if (prctl(PR_SET_SECUREBITS, SECBIT_KEEP_CAPS | SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
		  SECBIT_NO_SETUID_FIXUP) < 0 ||
	    setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
	    setresuid(uid, uid, uid) < 0 || set_caps(cap) < 0) {
		perror("stress as");
		return 1;
	}
	execvp(argv[i], argv + i);
	perror("stress as: exec");
	return 127;
}

/* Bytes [from, to) of the record must be zero. */
static void zero_range(const struct latmon_event *e, size_t from, size_t to, const char *what)
{
	const unsigned char *p = (const unsigned char *)e;
	size_t i;

	for (i = from; i < to; i++)
		if (p[i]) {
			fail("type %u seq %" PRIu64 ": byte %zu (%s) is 0x%02x", e->type,
			     (uint64_t)e->seq, i, what, p[i]);
			return;
		}
}

/* After the NUL of a fixed-size string every byte must be zero too. */
static void zero_after_nul(const struct latmon_event *e, const char *s, size_t n)
{
	size_t len = strnlen(s, n), base = (const unsigned char *)s - (const unsigned char *)e;

	zero_range(e, base + len, base + n, "after a string's NUL");
}

#define U(member) offsetof(struct latmon_event, u) + sizeof(((struct latmon_event *)0)->u.member)
#define U_END offsetof(struct latmon_event, u) + sizeof(((struct latmon_event *)0)->u)

/* Reserved bytes and the union's unused tail of one record. */
static void check_reserved(const struct latmon_event *e)
{
	zero_range(e, offsetof(struct latmon_event, reserved),
		   offsetof(struct latmon_event, reserved) + 2, "header reserved");
	switch (e->type) {
	case LATMON_EV_FAULT:
		if (e->u.fault.why && e->u.fault.kind != LATMON_FK_UNKNOWN)
			fail("fault seq %llu: why %u without kind unknown", (unsigned long long)e->seq, e->u.fault.why);
		zero_range(e, U(fault), U_END, "fault tail");
		break;
	case LATMON_EV_THP_CLEAR: zero_range(e, U(thp), U_END, "thp tail"); break;
	case LATMON_EV_SCHED:
		zero_after_nul(e, e->u.sched.other_comm, sizeof(e->u.sched.other_comm));
		zero_range(e, U(sched), U_END, "sched tail");
		break;
	case LATMON_EV_IRQ:
		zero_after_nul(e, e->u.irq.name, sizeof(e->u.irq.name));
		zero_range(e, U(irq), U_END, "irq tail");
		break;
	case LATMON_EV_MIGRATE: zero_range(e, U(migrate), U_END, "migrate tail"); break;
	case LATMON_EV_LOST: zero_range(e, U(lost) - 4, U_END, "lost reserved + tail"); break;
	case LATMON_EV_ALLOC_ZERO:
		zero_range(e, U(zero) - 4, U_END, "alloc-zero reserved + tail");
		break;
	case LATMON_EV_COMPACT: zero_range(e, U(compact), U_END, "compact tail"); break;
	case LATMON_EV_RECLAIM:
		zero_range(e, U(reclaim) - 4, U_END, "reclaim reserved + tail");
		break;
	case LATMON_EV_SYSCALL: break;	/* every byte of the payload is named */
	case LATMON_EV_WAKE:
		zero_after_nul(e, e->u.wake.waker_comm, sizeof(e->u.wake.waker_comm));
		break;
	case LATMON_EV_LOCK: zero_range(e, U(lock) - 4, U_END, "lock reserved + tail"); break;
	case LATMON_EV_TLB:
		zero_range(e, offsetof(struct latmon_event, u.tlb.reserved), U(tlb) - 8, "tlb reserved");
		zero_range(e, U(tlb), U_END, "tlb tail");
		break;
	case LATMON_EV_STEAL:
		zero_range(e, U(steal), U_END, "steal tail");
		break;
	case LATMON_EV_SMI:
		zero_range(e, U(smi), U_END, "smi tail");
		break;
	default: fail("unknown record type %u", e->type);
	}
}

/* A u64 slot that holds a value user space chose or a count, not an
 * address: a system call's arguments and return value (-errno looks like
 * a kernel address), a TLB flush's page count (all: ~0). */
static int user_value(const struct latmon_event *e, size_t off)
{
	size_t u = offsetof(struct latmon_event, u);

	if (e->type == LATMON_EV_SYSCALL)
		return off >= u;
	return e->type == LATMON_EV_TLB && off == offsetof(struct latmon_event, u.tlb.pages);
}

/* No u64 slot but the TSCs (and user values) may hold a kernel address. */
static void check_kaddr(const struct latmon_event *e)
{
	size_t off;
	uint64_t v;

	for (off = 0; off + 8 <= sizeof(*e); off += 8) {
		if (off == offsetof(struct latmon_event, tsc_begin) ||
		    off == offsetof(struct latmon_event, tsc_end) || user_value(e, off))
			continue;
		memcpy(&v, (const char *)e + off, 8);
		if (v >= KADDR_MIN)
			fail("type %u seq %" PRIu64 ": u64 at offset %zu is 0x%" PRIx64
			     ", a kernel address", e->type, (uint64_t)e->seq, off, v);
	}
}

struct leak_counts {
	long n, types[__LATMON_EV_MAX];	/* types[0]: unknown types */
};

/* Check one record and count it. */
static void leak_record(const struct latmon_event *e, struct leak_counts *c)
{
	check_reserved(e);
	check_kaddr(e);
	c->types[e->type < __LATMON_EV_MAX ? e->type : 0]++, c->n++;
}

/* One read of 1.5 records' worth, then whole batches: check every record. */
static void leak_device(int fd, struct leak_counts *c)
{
	static unsigned char buf[NREC * sizeof(struct latmon_event) + 36];
	size_t want = sizeof(struct latmon_event) * 3 / 2, i;
	ssize_t got;

	for (;; want = sizeof(buf) - 36) {
		memset(buf, 0xAA, sizeof(buf));
		got = read(fd, buf, want);
		if (got <= 0)
			break;
		if (got % sizeof(struct latmon_event))
			fail("read returned %zd, not whole records", got);
		for (i = got; i < sizeof(buf); i++)
			if (buf[i] != 0xAA) {
				fail("read(%zu) = %zd wrote byte %zu", want, got, i);
				break;
			}
		for (i = 0; i + sizeof(struct latmon_event) <= (size_t)got; i += sizeof(struct latmon_event))
			leak_record((const void *)(buf + i), c);
	}
	if (got < 0 && errno != EAGAIN)
		fail("read: %s", strerror(errno));
}

/*
 * Records saved by lmtool record: the same checks on bytes a test can
 * alter, so that s-30-leak.sh can show the checker does fail.
 */
static void leak_file(FILE *f, const char *path, struct leak_counts *c)
{
	struct latmon_event e;
	size_t got;

	while ((got = fread(&e, 1, sizeof(e), f)) == sizeof(e))
		leak_record(&e, c);
	if (ferror(f))
		fail("%s: read error", path);
	else if (got)
		fail("%s ends with a partial record of %zu bytes", path, got);
}

/* stress leak [--events FILE]: /dev/latmon, or the records saved in FILE. */
static int cmd_leak(int argc, char **argv)
{
	struct leak_counts c = { 0 };
	const char *path = argc == 3 && !strcmp(argv[1], "--events") ? argv[2] : NULL;
	int fd;
	FILE *f;

	if (argc != 1 && !path)
		return fprintf(stderr, "usage: stress leak [--events FILE]\n"), 2;
	if (path) {
		f = fopen(path, "rb");
		if (!f)
			return fprintf(stderr, "stress leak: %s: %s\n", path, strerror(errno)), 1;
		leak_file(f, path, &c);
		fclose(f);
	} else {
		fd = open(LATMON_DEVICE, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			return perror("stress leak: open"), 1;
		leak_device(fd, &c);
		close(fd);
	}
	printf("records=%ld fault=%ld thp=%ld sched=%ld irq=%ld migrate=%ld lost=%ld zeroing=%ld failures=%d\n",
	       c.n, c.types[LATMON_EV_FAULT], c.types[LATMON_EV_THP_CLEAR], c.types[LATMON_EV_SCHED],
	       c.types[LATMON_EV_IRQ], c.types[LATMON_EV_MIGRATE], c.types[LATMON_EV_LOST],
	       c.types[LATMON_EV_THP_CLEAR] + c.types[LATMON_EV_ALLOC_ZERO], failures);
	return failures || !c.n;
}

/* The netlink socket of the latmon family, as latctl opens it. */
static struct nl_sock *family_connect(int *family)
{
	static struct latmon_nl *nl;

	if (!nl && latmon_nl_open(&nl))
		return NULL;
	return latmon_nl_sock(nl, family);
}

/* Padding of attributes in [a, end) (nested lists recursively) is zero. */
static void check_attrs(const unsigned char *a, const unsigned char *end, int depth, int nested)
{
	while (a + NLA_HDRLEN <= end) {
		const struct nlattr *h = (const void *)a;
		size_t len = h->nla_len, i;

		if (len < NLA_HDRLEN || a + len > end) {
			fail("bad attribute length %zu", len);
			return;
		}
		for (i = len; i < NLA_ALIGN(len) && a + i < end; i++)
			if (a[i])
				fail("attribute %u (depth %d): padding byte %zu is 0x%02x",
				     h->nla_type, depth, i, a[i]);
		if (nested && depth < 3 && (h->nla_type == LATMON_A_SOURCES ||
			      h->nla_type == LATMON_A_CPUS || depth > 0))
			check_attrs(a + NLA_HDRLEN, a + len, depth + 1, depth < 1);
		a += NLA_ALIGN(len);
	}
}

/* Send cmd (plus extra raw bytes), receive into 0xAA; print the outcome. */
static int request(struct nl_sock *sk, int family, int cmd, const void *extra, size_t n,
		   uint32_t tgid)
{
	static unsigned char buf[65536];
	struct nl_msg *m = nlmsg_alloc();
	struct nlmsghdr *h;
	ssize_t got;

	genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_ACK, cmd, LATMON_GENL_VERSION);
	if (tgid)
		nla_put_u32(m, LATMON_A_TGID, tgid);
	if (n)
		memcpy(nlmsg_reserve(m, n, 1), extra, n);
	if (nl_send_auto(sk, m) < 0)
		return fail("send failed"), -1;
	nlmsg_free(m);
	memset(buf, 0xAA, sizeof(buf));
	got = recv(nl_socket_get_fd(sk), buf, sizeof(buf), 0);
	h = (void *)buf;
	if (got < (ssize_t)NLMSG_HDRLEN)
		return fail("recv: %s", strerror(errno)), -1;
	if (h->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *e = NLMSG_DATA(h);
		const unsigned char *tlv = (const unsigned char *)NLMSG_DATA(h) +
			NLMSG_ALIGN(sizeof(*e) + (h->nlmsg_flags & NLM_F_CAPPED ? 0 :
						  e->msg.nlmsg_len - NLMSG_HDRLEN));
		const char *msg = "";

		if (h->nlmsg_flags & NLM_F_ACK_TLVS) {
			const struct nlattr *a = (const void *)tlv;

			for (; (unsigned char *)a + NLA_HDRLEN <= buf + h->nlmsg_len;
			     a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len)))
				if (a->nla_type == NLMSGERR_ATTR_MSG)
					msg = (const char *)a + NLA_HDRLEN;
		}
		printf("cmd %d: error %d (%s): %s\n", cmd, e->error, strerror(-e->error), msg);
		return e->error;
	}
	if (((struct genlmsghdr *)NLMSG_DATA(h))->reserved)
		fail("cmd %d: genlmsghdr.reserved is not zero", cmd);
	check_attrs(buf + NLMSG_HDRLEN + GENL_HDRLEN, buf + h->nlmsg_len, 0, 1);
	printf("cmd %d: reply of %u bytes checked\n", cmd, h->nlmsg_len);
	return 0;
}

static int cmd_nlpad(int argc, char **argv)
{
	int family;
	struct nl_sock *sk = family_connect(&family);

	(void)argc, (void)argv;
	if (!sk)
		return fprintf(stderr, "stress nlpad: no latmon family\n"), 1;
	if (request(sk, family, LATMON_CMD_GET_INFO, NULL, 0, 0) ||
	    request(sk, family, LATMON_CMD_GET_STATS, NULL, 0, 0))
		return 1;
	printf("failures=%d\n", failures);
	return failures != 0;
}

static int cmd_trailing(int argc, char **argv)
{
	static const unsigned char junk[3] = { 1, 2, 3 };
	int family;
	struct nl_sock *sk = family_connect(&family);

	if (argc < 2 || !sk)
		return fprintf(stderr, "usage: stress trailing TGID (module loaded)\n"), 2;
	return request(sk, family, LATMON_CMD_START, junk, sizeof(junk), atoi(argv[1])) ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
		{ "bounce", cmd_bounce }, { "poll", cmd_poll }, { "as", cmd_as },
		{ "leak", cmd_leak }, { "nlpad", cmd_nlpad }, { "trailing", cmd_trailing },
	};
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "usage: stress bounce|poll|as|leak|nlpad|trailing ...\n");
	return 2;
}
