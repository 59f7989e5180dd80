// SPDX-License-Identifier: MIT
/*
 * A latmon session seen from latctl (design in monitor.h): GET_INFO, START,
 * the reader thread, STOP, the drain, GET_STATS, and its JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <unistd.h>

#include "backend/backend_caps.h"
#include "backend/monitor.h"
#include "lib/tsc.h"

#define NOT_LOADED "latmon is not loaded: causes need the module; make load (root) loads it, or use --vm"
#define NO_PERM "latmon is loaded but needs root (CAP_SYS_ADMIN): causes need it; run latctl as root or use `--vm`"

static const char *const state_names[] = {
	[LAT_MON_ABSENT] = "absent",
	[LAT_MON_NOPERM] = "no-permission",
	[LAT_MON_FAILED] = "failed",
	[LAT_MON_ON] = "on",
};

/* The run goes on without events; line says why. */
static void set_off(struct lat_monitor *m, enum lat_monitor_state st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_off(struct lat_monitor *m, enum lat_monitor_state st, const char *fmt, ...)
{
	va_list ap;

	m->state = st;
	va_start(ap, fmt);
	vsnprintf(m->line, sizeof(m->line), fmt, ap);
	va_end(ap);
}

/* latmon is not there: why it cannot be where the kernel refuses modules
 * (the same reason `latctl backends` gives), else how to load it. */
static void not_loaded(struct lat_monitor *m)
{
	const char *why = lat_modules_refused();

	if (why)
		set_off(m, LAT_MON_ABSENT, "latmon is not loaded and cannot be: %s", why);
	else
		set_off(m, LAT_MON_ABSENT, NOT_LOADED);
}

/* A failed netlink request: permission, or what latmon said. */
static void nl_failed(struct lat_monitor *m, const char *what, int err)
{
	const char *ext = latmon_nl_errmsg(m->nl);

	if (err == -EPERM || err == -EACCES)
		set_off(m, LAT_MON_NOPERM, NO_PERM);
	else
		set_off(m, LAT_MON_FAILED, "latmon: %s failed: %s%s%s; causes not recorded",
			what, strerror(-err), *ext ? ": " : "", ext);
}

/* Every source that can attach: what a workload needs is all of them. */
static uint32_t usable_sources(const struct latmon_nl_info *info)
{
	uint32_t mask = 0;
	unsigned int i;

	for (i = 0; i < info->nsources; i++)
		if (info->sources[i].state != LATMON_SRC_UNAVAILABLE &&
		    info->sources[i].id > 0 && info->sources[i].id < __LATMON_SRC_MAX)
			mask |= LATMON_SRC_BIT(info->sources[i].id);
	return mask;
}

int lat_monitor_open(struct lat_monitor *m, struct lat_evbuf *buf)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	m->buf = buf;
	ret = latmon_nl_open(&m->nl);
	if (ret == -ENOENT || (!ret && access(LATMON_DEVICE, F_OK))) {
		not_loaded(m);
		return 0;
	}
	if (ret) {
		set_off(m, LAT_MON_FAILED, "latmon: cannot open a generic netlink socket: %s; causes not recorded",
			strerror(-ret));
		return 0;
	}
	ret = latmon_nl_info(m->nl, &m->info);
	if (ret) {
		nl_failed(m, "GET_INFO", ret);
		return 0;
	}
	if (m->info.uapi_version != LATMON_UAPI_VERSION) {
		set_off(m, LAT_MON_FAILED, "latmon speaks UAPI version %u, this latctl %u: rebuild both from one tree; causes not recorded",
			m->info.uapi_version, LATMON_UAPI_VERSION);
		return 0;
	}
	if (m->info.tsc_khz)
		lat_tsc_use_hz(m->info.tsc_khz * 1000.0, "from latmon, the kernel's tsc_khz");
	m->mask = usable_sources(&m->info);
	if (!m->mask)
		set_off(m, LAT_MON_FAILED, "latmon has no usable event source (see the sources below); causes not recorded");
	else
		m->state = LAT_MON_ON;
	return 0;
}

static void drop_scratch(struct lat_monitor *m, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		lat_evbuf_drop(m->buf, &m->buf->scratch[i]);
}

/* Read whole records until EOF (after STOP): into the buffer, then scratch. */
static int read_all(struct lat_monitor *m)
{
	ssize_t r;
	size_t count;

	for (;;) {
		if (m->buf->n < m->buf->cap)
			r = read(m->fd, m->buf->ev + m->buf->n, (m->buf->cap - m->buf->n) * sizeof(*m->buf->ev));
		else
			r = read(m->fd, m->buf->scratch, sizeof(m->buf->scratch));
		if (r == 0)
			return 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		count = (size_t)r / sizeof(*m->buf->ev);
		m->buf->read_records += count;
		if (m->buf->n < m->buf->cap)
			m->buf->n += count;
		else
			drop_scratch(m, count);
	}
}

/* The reader thread: away from the measured CPU, stack warm, then read. */
static void *reader_main(void *arg)
{
	struct lat_monitor *m = arg;

	pthread_setname_np(pthread_self(), "latctl-reader");	/* in sched events */
	if (m->buf->reader_cpu >= 0)
		m->buf->reader_cpu = lat_evbuf_pin_elsewhere(m->buf->reader_cpu);
	lat_evbuf_warm_stack();
	sem_post(&m->ready);
	m->reader_err = read_all(m);
	return NULL;
}

/* /dev/latmon: absent, not ours, or busy says the line. */
static int open_device(struct lat_monitor *m)
{
	m->fd = open(LATMON_DEVICE, O_RDONLY | O_CLOEXEC);
	if (m->fd >= 0)
		return 0;
	if (errno == EACCES || errno == EPERM)
		set_off(m, LAT_MON_NOPERM, NO_PERM);
	else if (errno == ENOENT || errno == ENODEV || errno == ENXIO)
		not_loaded(m);
	else if (errno == EBUSY)
		set_off(m, LAT_MON_FAILED, "latmon: %s is open in another program (one reader at a time); causes not recorded",
			LATMON_DEVICE);
	else
		set_off(m, LAT_MON_FAILED, "latmon: cannot open %s: %s; causes not recorded",
			LATMON_DEVICE, strerror(errno));
	return -1;
}

/* EBUSY: a session of a process that is gone (a latctl killed by a signal)
 * is stopped and START tried once more; a live one is left alone. */
static int busy_session(struct lat_monitor *m, const struct latmon_nl_start_req *req)
{
	struct latmon_nl_info now;

	if (latmon_nl_info(m->nl, &now))
		return -EBUSY;
	if (!now.running || !now.tgid || kill((pid_t)now.tgid, 0) == 0 || errno != ESRCH) {
		set_off(m, LAT_MON_FAILED, "latmon is recording for process %u already (another latctl?); causes not recorded",
			now.tgid);
		return -EBUSY;
	}
	m->stale_tgid = now.tgid;
	latmon_nl_stop(m->nl);
	return latmon_nl_start(m->nl, req);
}

/* START for this process; EBUSY names the session that runs. */
static int start_session(struct lat_monitor *m)
{
	struct latmon_nl_start_req req = { .tgid = (uint32_t)getpid(), .source_mask = m->mask };
	int ret;

	ret = latmon_nl_start(m->nl, &req);
	if (ret == -EBUSY)
		ret = busy_session(m, &req);
	if (!ret) {
		m->running = 1;
		return 0;
	}
	if (m->state == LAT_MON_ON)
		nl_failed(m, "START", ret);
	return -1;
}

int lat_monitor_start(struct lat_monitor *m, int measured_cpu)
{
	int ret;

	if (m->state != LAT_MON_ON)
		return 0;
	ret = lat_evbuf_alloc(m->buf);
	if (ret) {
		set_off(m, LAT_MON_FAILED, "latmon: no memory for %zu records (--events); causes not recorded", m->buf->cap);
		return 0;
	}
	if (open_device(m) || start_session(m))
		return 0;
	m->buf->reader_cpu = measured_cpu;	/* the reader picks another one */
	sem_init(&m->ready, 0, 0);
	ret = pthread_create(&m->reader, NULL, reader_main, m);
	if (ret) {
		latmon_nl_stop(m->nl);
		m->running = 0;
		set_off(m, LAT_MON_FAILED, "latmon: cannot start the reader thread: %s; causes not recorded",
			strerror(ret));
		return 0;
	}
	m->reader_up = 1;
	sem_wait(&m->ready);
	return 0;
}

void lat_monitor_stop(struct lat_monitor *m)
{
	int ret;

	if (!m->running)
		return;
	ret = latmon_nl_stop(m->nl);
	m->running = 0;
	if (ret) {
		nl_failed(m, "STOP", ret);
		pthread_cancel(m->reader);	/* read() would not see EOF */
	}
	pthread_join(m->reader, NULL);
	m->reader_up = 0;
	sem_destroy(&m->ready);
	if (m->reader_err && m->state == LAT_MON_ON)
		set_off(m, LAT_MON_FAILED, "latmon: reading %s failed: %s; causes not recorded",
			LATMON_DEVICE, strerror(-m->reader_err));
	m->have_stats = !latmon_nl_stats(m->nl, &m->stats);
	lat_evbuf_add_own_lost(m->buf);
}

void lat_monitor_close(struct lat_monitor *m)
{
	if (m->running)
		lat_monitor_stop(m);
	if (m->fd >= 0)
		close(m->fd);
	latmon_nl_stats_free(&m->stats);
	latmon_nl_close(m->nl);
	m->fd = -1;
	m->nl = NULL;
}

/* Misses of source id in GET_STATS, or -1 when it did not say. */
static double source_misses(const struct lat_monitor *m, uint32_t id)
{
	unsigned int i;

	for (i = 0; m->have_stats && i < m->stats.nsources; i++)
		if (m->stats.sources[i].id == id)
			return (double)m->stats.sources[i].misses;
	return -1;
}

static cJSON *sources_json(const struct lat_monitor *m)
{
	cJSON *a = cJSON_CreateArray(), *o;
	const struct latmon_nl_source *s;
	unsigned int i;

	for (i = 0; i < m->info.nsources; i++) {
		s = &m->info.sources[i];
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", s->name);
		cJSON_AddStringToObject(o, "state", latmon_nl_state_name(s->state));
		cJSON_AddBoolToObject(o, "started", s->id > 0 && s->id < __LATMON_SRC_MAX &&
				      (m->mask & LATMON_SRC_BIT(s->id)));
		cJSON_AddStringToObject(o, "reason", s->reason);
		cJSON_AddStringToObject(o, "symbol", s->symbol);
		cJSON_AddNumberToObject(o, "missing", s->missing);
		cJSON_AddNumberToObject(o, "misses", source_misses(m, s->id));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* Per-CPU counts of GET_STATS; their sums go into *dropped and *read. */
static cJSON *cpus_json(const struct lat_monitor *m, double *dropped, double *read)
{
	cJSON *a = cJSON_CreateArray(), *o;
	unsigned int i;

	*dropped = *read = 0;
	for (i = 0; m->have_stats && i < m->stats.ncpus; i++) {
		const struct latmon_nl_cpu *c = &m->stats.cpus[i];

		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "cpu", c->cpu);
		cJSON_AddNumberToObject(o, "recorded", (double)c->recorded);
		cJSON_AddNumberToObject(o, "dropped", (double)c->dropped);
		cJSON_AddNumberToObject(o, "read", (double)c->read);
		cJSON_AddNumberToObject(o, "lost_records", (double)c->lost_records);
		cJSON_AddItemToArray(a, o);
		*dropped += (double)c->dropped;
		*read += (double)c->read;
	}
	return a;
}


/* Its "threads" member: the targets latmon followed. */
static cJSON *lat_monitor_threads_json(const struct lat_monitor *m)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !m->have_stats)
		return o ? (cJSON_Delete(o), cJSON_CreateNull()) : NULL;
	cJSON_AddNumberToObject(o, "max", m->info.threads_max);
	cJSON_AddNumberToObject(o, "live_at_stop", m->stats.threads);
	cJSON_AddNumberToObject(o, "followed", (double)m->stats.threads_followed);
	cJSON_AddNumberToObject(o, "refused", (double)m->stats.threads_refused);
	return o;
}

cJSON *lat_monitor_json(const struct lat_monitor *m)
{
	cJSON *o = cJSON_CreateObject();
	double dropped, delivered;

	cJSON_AddStringToObject(o, "state", state_names[m->state]);
	cJSON_AddItemToObject(o, "line", m->state == LAT_MON_ON ? cJSON_CreateNull() :
			      cJSON_CreateString(m->line));
	cJSON_AddStringToObject(o, "module_version", m->info.module_version);
	cJSON_AddNumberToObject(o, "uapi_version", m->info.uapi_version);
	cJSON_AddNumberToObject(o, "tsc_khz", m->info.tsc_khz);
	cJSON_AddItemToObject(o, "sources", sources_json(m));
	cJSON_AddItemToObject(o, "cpus", cpus_json(m, &dropped, &delivered));
	cJSON_AddBoolToObject(o, "have_stats", m->have_stats);
	cJSON_AddNumberToObject(o, "buffer_events", (double)m->buf->cap);
	cJSON_AddNumberToObject(o, "records_read", (double)m->buf->read_records);
	cJSON_AddNumberToObject(o, "records_delivered", delivered);
	cJSON_AddNumberToObject(o, "lost_by_latmon", dropped);
	cJSON_AddNumberToObject(o, "lost_by_latctl", (double)m->buf->dropped);
	cJSON_AddNumberToObject(o, "stale_session_stopped", m->stale_tgid);
	cJSON_AddItemToObject(o, "reader_cpu", m->buf->reader_cpu >= 0 && m->buf->ev ?
			      cJSON_CreateNumber(m->buf->reader_cpu) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "threads", lat_monitor_threads_json(m));
	return o;
}
