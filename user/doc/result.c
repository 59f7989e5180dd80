// SPDX-License-Identifier: MIT
/* The result document: shared wrapper, environment, sections, atomic file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/fmt.h"
#include "machine/facts.h"
#include "file/outfile.h"
#include "system/env_more.h"
#include "file/readfile.h"
#include "doc/result.h"
#include "lib/latctl.h"
#include "system/thp.h"
#include "lib/tsc.h"

static void iso_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* argv joined with spaces, words with shell metacharacters in '' quotes. */
static char *join_argv(int argc, char **argv)
{
	size_t len = 1, i;
	char *s, *p;

	for (i = 0; i < (size_t)argc; i++)
		len += strlen(argv[i]) * 4 + 3;
	s = p = malloc(len);
	if (!s)
		return NULL;
	*p = '\0';
	for (i = 0; i < (size_t)argc; i++) {
		const char *a = argv[i];
		int q = !*a || a[strcspn(a, " \t\n'\"\\$`*?&;|<>()[]{}!#~")];

		p += sprintf(p, "%s%s", i ? " " : "", q ? "'" : "");
		for (; *a; a++)
			p += *a == '\'' ? sprintf(p, "'\\''") : sprintf(p, "%c", *a);
		p += sprintf(p, "%s", q ? "'" : "");
	}
	return s;
}

cJSON *lat_result_new(int argc, char **argv)
{
	cJSON *doc = cJSON_CreateObject();
	struct utsname u;
	char now[40], *cmd = join_argv(argc, argv);

	uname(&u);
	iso_now(now, sizeof(now));
	cJSON_AddStringToObject(doc, "schema", LAT_RESULT_SCHEMA);
	cJSON_AddNumberToObject(doc, "schema_version", LAT_RESULT_SCHEMA_VERSION);
	cJSON_AddStringToObject(doc, "command_line", cmd ? cmd : "latctl");
	cJSON_AddItemToObject(doc, "argv",
			      cJSON_CreateStringArray((const char *const *)argv, argc));
	cJSON_AddStringToObject(doc, "latctl_version", LATCTL_VERSION);
	cJSON_AddStringToObject(doc, "kernel_release", u.release);
	cJSON_AddStringToObject(doc, "start_time", now);
	free(cmd);
	return doc;
}

void lat_result_finish(cJSON *doc, int exit_code)
{
	char now[40];

	iso_now(now, sizeof(now));
	cJSON_DeleteItemFromObject(doc, "end_time");
	cJSON_DeleteItemFromObject(doc, "exit_code");
	cJSON_AddStringToObject(doc, "end_time", now);
	cJSON_AddNumberToObject(doc, "exit_code", exit_code);
}

/* First line of a small file, trimmed; NULL if it cannot be read. */
static char *read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void add_string_or_null(cJSON *o, const char *key, const char *value)
{
	if (value)
		cJSON_AddStringToObject(o, key, value);
	else
		cJSON_AddNullToObject(o, key);
}

cJSON *lat_result_environment(void)
{
	cJSON *env = cJSON_CreateObject();
	char buf[256], thp[32];
	struct lat_facts facts;
	struct utsname u;

	uname(&u);
	cJSON_AddStringToObject(env, "kernel_release", u.release);
	if (!lat_cpuinfo_field("model name", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "unknown CPU");
	cJSON_AddStringToObject(env, "cpu_model", buf);
	lat_facts_read(&facts);
	cJSON_AddStringToObject(env, "machine", facts.kind);
	add_string_or_null(env, "clocksource",
			   strcmp(facts.clocksource, "unknown") ? facts.clocksource : NULL);
	cJSON_AddNumberToObject(env, "online_cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
	cJSON_AddNumberToObject(env, "tsc_hz", lat_tsc_hz());
	cJSON_AddStringToObject(env, "tsc_hz_source", lat_tsc_hz_source());
	add_string_or_null(env, "thp_enabled",
			   lat_thp_read("enabled", thp, sizeof(thp)) ? NULL : thp);
	add_string_or_null(env, "thp_defrag",
			   lat_thp_read("defrag", thp, sizeof(thp)) ? NULL : thp);
	add_string_or_null(env, "cpufreq_governor",
			   read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
				     buf, sizeof(buf)));
	add_string_or_null(env, "isolcpus",
			   read_line("/sys/devices/system/cpu/isolated", buf, sizeof(buf)));
	lat_env_more(env);
	cJSON_AddItemToObject(env, "facts", lat_facts_json(&facts));
	return env;
}

cJSON *lat_result_summary(const struct lat_summary *s)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "count", (double)s->count);
	cJSON_AddNumberToObject(o, "min_ns", s->min);
	cJSON_AddNumberToObject(o, "p50_ns", s->p50);
	cJSON_AddNumberToObject(o, "p90_ns", s->p90);
	cJSON_AddNumberToObject(o, "p99_ns", s->p99);
	cJSON_AddNumberToObject(o, "p99_9_ns", s->p999);
	cJSON_AddNumberToObject(o, "p99_99_ns", s->p9999);
	cJSON_AddNumberToObject(o, "max_ns", s->max);
	cJSON_AddNumberToObject(o, "mean_ns", s->mean);
	cJSON_AddNumberToObject(o, "total_ns", s->total);
	cJSON_AddNumberToObject(o, "slowest_0_1_share", s->slowest_0_1_share);
	return o;
}

cJSON *lat_result_histogram(const struct lat_hist *h)
{
	cJSON *o = cJSON_CreateObject(), *list = cJSON_CreateArray(), *b;
	int i;

	cJSON_AddStringToObject(o, "unit", "ns");
	cJSON_AddStringToObject(o, "buckets_are", "log2: [lo, hi] inclusive, empty buckets omitted");
	for (i = 0; i < LAT_HIST_BUCKETS; i++) {
		if (!h->count[i])
			continue;
		b = cJSON_CreateObject();
		cJSON_AddNumberToObject(b, "lo", (double)lat_hist_lo(i));
		cJSON_AddNumberToObject(b, "hi", (double)lat_hist_hi(i));
		cJSON_AddNumberToObject(b, "count", (double)h->count[i]);
		cJSON_AddItemToArray(list, b);
	}
	cJSON_AddItemToObject(o, "buckets", list);
	return o;
}

static void add_count(cJSON *o, const char *key, long long v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, (double)v);
}

/* The hypervisor's time on the loop's CPU (or every CPU) in ms, in the
 * ticks of /proc/stat: steal_ms, steal_cpu (null: every CPU), steal_tick_ms. */
static void add_steal(cJSON *o, const struct lat_counters *d)
{
	long hz = sysconf(_SC_CLK_TCK);
	double tick = hz > 0 ? 1000.0 / (double)hz : 10;

	if (d->steal_ticks < 0)
		cJSON_AddNullToObject(o, "steal_ms");
	else
		cJSON_AddNumberToObject(o, "steal_ms", (double)d->steal_ticks * tick);
	add_count(o, "steal_cpu", d->steal_cpu);
	cJSON_AddNumberToObject(o, "steal_tick_ms", tick);
}

cJSON *lat_result_counters(const struct lat_counters *d, long long migr_within,
			   long long migr_between, long long free_2m_blocks)
{
	cJSON *o = cJSON_CreateObject();

	add_count(o, "minor_faults", d->minflt);
	add_count(o, "major_faults", d->majflt);
	add_count(o, "voluntary_ctxsw", d->nvcsw);
	add_count(o, "involuntary_ctxsw", d->nivcsw);
	add_count(o, "migrations_within", migr_within);
	add_count(o, "migrations_between", migr_between);
	add_count(o, "anon_huge_pages_kb", d->anon_huge_kb);
	add_count(o, "thp_fault_alloc", d->thp_fault_alloc);
	add_count(o, "thp_fault_fallback", d->thp_fault_fallback);
	add_count(o, "compact_stall", d->compact_stall);
	add_count(o, "compact_success", d->compact_success);
	add_count(o, "compact_fail", d->compact_fail);
	add_count(o, "free_2m_blocks_before", free_2m_blocks);
	add_steal(o, d);
	return o;
}

/* ---- the file ---------------------------------------------------------- */

static struct lat_result_file *pending;

static void unlink_on_signal(void)
{
	if (pending)
		lat_outfile_unlink(&pending->out);
}

int lat_result_open(struct lat_result_file *f, const char *path)
{
	int ret;

	f->path = path;
	ret = lat_outfile_open(&f->out, strcmp(path, "-") ? path : "/dev/stdout", "--json");
	if (ret)
		return ret;
	f->open = 1;
	pending = f;
	lat_cleanup_install();
	lat_cleanup_add(unlink_on_signal);
	return 0;
}

void lat_result_abort(struct lat_result_file *f)
{
	if (!f->open)
		return;
	lat_outfile_abort(&f->out);
	f->open = 0;
	lat_cleanup_remove(unlink_on_signal);
	pending = NULL;
}

/* The document as the file holds it: printed, one newline at the end. */
static char *file_text(const cJSON *doc, size_t *len)
{
	char *text = cJSON_Print(doc), *t;

	if (!text)
		return NULL;
	*len = strlen(text);
	t = realloc(text, *len + 2);
	if (!t) {
		free(text);
		return NULL;
	}
	t[(*len)++] = '\n';
	t[*len] = '\0';
	return t;
}

int lat_result_commit(struct lat_result_file *f, const cJSON *doc)
{
	size_t len = 0;
	char *text = file_text(doc, &len);
	int ret = text ? 0 : -ENOMEM;

	if (!text)
		fprintf(stderr, "latctl: --json %s: no memory to write it\n", f->path);
	else if (f->open)
		ret = lat_outfile_commit(&f->out, text, len);
	free(text);
	lat_result_abort(f);
	return ret;
}

/* ---- reading back ------------------------------------------------------ */

/* 1 if text stops inside a string or an open object/array: cut short. */
static int looks_truncated(const char *text, size_t len)
{
	struct lat_json_shape s;

	lat_json_shape(text, len, 0, &s);
	return s.in_str || s.depth > 0;
}

/* One line saying why the text is not JSON: empty, cut short, or where. */
static void parse_error(const char *path, const char *text, size_t len)
{
	const char *at = cJSON_GetErrorPtr();
	size_t off = at && at >= text && at <= text + len ? (size_t)(at - text) : len;

	if (len == 0)
		fprintf(stderr, "latctl: %s is empty; it is not a latctl result\n", path);
	else if (looks_truncated(text, len))
		fprintf(stderr, "latctl: %s ends early at byte %zu: the file is truncated\n",
			path, len);
	else
		fprintf(stderr, "latctl: %s is not valid JSON (error near byte %zu of %zu)\n",
			path, off, len);
}

/* 0 if item (named where) is absent, null or a time: a finite number of ns
 * from 0 to LAT_RESULT_MAX_NS; else one line on stderr and -EINVAL. */
static int check_time(const char *path, const char *where, const cJSON *item)
{
	if (!item || cJSON_IsNull(item) || (cJSON_IsNumber(item) && item->valuedouble >= 0 &&
					    item->valuedouble <= LAT_RESULT_MAX_NS))
		return 0;
	if (cJSON_IsNumber(item))
		fprintf(stderr, "latctl: %s: %s is %g, not a time (0 to %.0e ns): the file was edited or damaged\n",
			path, where, item->valuedouble, LAT_RESULT_MAX_NS);
	else
		fprintf(stderr, "latctl: %s: %s is not a number: the file was edited or damaged\n",
			path, where);
	return -EINVAL;
}

/* Every *_ns of a summary object is a time. */
static int check_summary(const char *path, const char *name, const cJSON *sum)
{
	const cJSON *it;
	char where[96];
	size_t n;

	cJSON_ArrayForEach(it, sum) {
		n = it->string ? strlen(it->string) : 0;
		if (n < 3 || strcmp(it->string + n - 3, "_ns"))
			continue;
		snprintf(where, sizeof(where), "%s.%s", name, it->string);
		if (check_time(path, where, it))
			return -EINVAL;
	}
	return 0;
}

/* The times a report, compare or plot draws: the summaries (each run's
 * too), the slow threshold and each slow iteration's duration. */
static int check_times(const char *path, const cJSON *doc)
{
	const cJSON *slow = cJSON_GetObjectItemCaseSensitive(doc, "slow"), *it;
	const cJSON *rep = cJSON_GetObjectItemCaseSensitive(doc, "repeat");

	if (check_summary(path, "summary", cJSON_GetObjectItemCaseSensitive(doc, "summary")) ||
	    check_time(path, "slow.threshold_ns", cJSON_GetObjectItemCaseSensitive(slow, "threshold_ns")))
		return -EINVAL;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(slow, "iterations"))
		if (check_time(path, "slow.iterations[].duration_ns",
			       cJSON_GetObjectItemCaseSensitive(it, "duration_ns")))
			return -EINVAL;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(rep, "per_run"))
		if (check_summary(path, "repeat.per_run[].summary",
				  cJSON_GetObjectItemCaseSensitive(it, "summary")))
			return -EINVAL;
	return 0;
}

static int check_schema(const char *path, const cJSON *doc)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "schema");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");

	if (!cJSON_IsString(s) || strcmp(s->valuestring, LAT_RESULT_SCHEMA)) {
		fprintf(stderr, "latctl: %s is JSON but not a latctl result (no \"schema\": \"%s\")\n",
			path, LAT_RESULT_SCHEMA);
		return -EINVAL;
	}
	if (!cJSON_IsNumber(v) || v->valuedouble != LAT_RESULT_SCHEMA_VERSION) {
		fprintf(stderr, "latctl: %s has schema_version %g; this latctl reads version %d\n",
			path, cJSON_IsNumber(v) ? v->valuedouble : 0, LAT_RESULT_SCHEMA_VERSION);
		return -EINVAL;
	}
	return check_times(path, doc);
}

/* The first key that one object of o (at any depth) holds twice with two
 * different values; NULL if none. cJSON keeps both, and a reader sees only
 * the first; two equal copies read the same either way and pass. */
static int cmp_key(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;

	return strcmp(x->string ? x->string : "", y->string ? y->string : "");
}

/* Two equal plain values (a --repeat result of latctl 0.1 holds
 * latctl_version twice): read as one. */
static int same_scalar(const cJSON *a, const cJSON *b)
{
	return !cJSON_IsObject(a) && !cJSON_IsArray(a) && cJSON_Compare(a, b, 1);
}

/* A key that object o holds twice with two values: its members' names
 * sorted, neighbours compared (n log n). */
static const char *dup_in_object(const cJSON *o)
{
	const cJSON **v, *a;
	const char *d = NULL;
	size_t n = 0, i;

	cJSON_ArrayForEach(a, o)
		n++;
	if (n < 2)
		return NULL;
	v = malloc(n * sizeof(*v));
	if (!v)
		return "(no memory to check)";
	n = 0;
	cJSON_ArrayForEach(a, o)
		v[n++] = a;
	qsort(v, n, sizeof(*v), cmp_key);
	for (i = 0; i + 1 < n && !d; i++)
		if (!cmp_key(&v[i], &v[i + 1]) && !same_scalar(v[i], v[i + 1]))
			d = v[i]->string;
	free(v);
	return d;
}

static const char *duplicate_key(const cJSON *o)
{
	const cJSON *a;
	const char *d = cJSON_IsObject(o) ? dup_in_object(o) : NULL;

	cJSON_ArrayForEach(a, o)
		if (!d && (cJSON_IsObject(a) || cJSON_IsArray(a)))
			d = duplicate_key(a);
	return d;
}

static void defang_all(cJSON *o)
{
	cJSON *a;

	for (a = o; a; a = a->next) {
		lat_printable(a->string);
		if (cJSON_IsString(a))
			lat_printable(a->valuestring);
		if (a->child)
			defang_all(a->child);
	}
}

/* 1 if only white space follows the document. */
static int nothing_after(const char *end, const char *text, size_t len)
{
	return !end || strspn(end, " \t\r\n") == len - (size_t)(end - text);
}

int lat_json_read(const char *path, cJSON **doc)
{
	const char *end = NULL, *dup;
	size_t len = 0;
	char *text;
	int ret;

	ret = lat_read_file(path, &text, &len);
	if (ret)
		return ret;
	ret = lat_read_count_items(text, len);
	if (ret == -E2BIG)
		fprintf(stderr, "latctl: %s holds more than %zu JSON values, more than any result latctl writes; not read\n",
			path, LAT_READ_MAX_ITEMS);
	else if (ret)
		fprintf(stderr, "latctl: %s: the files given hold more than %zu JSON values in all, more than one command reads; give fewer\n",
			path, LAT_READ_MAX_TOTAL);
	if (ret) {
		free(text);
		return -E2BIG;
	}
	*doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!*doc) {
		parse_error(path, text, len);
		free(text);
		return -EINVAL;
	}
	if (!nothing_after(end, text, len)) {
		fprintf(stderr, "latctl: %s has more after its JSON document (from byte %zu of %zu): it was edited or damaged\n",
			path, (size_t)(end - text), len);
		free(text);
		cJSON_Delete(*doc);
		*doc = NULL;
		return -EINVAL;
	}
	free(text);
	defang_all(*doc);
	dup = duplicate_key(*doc);
	if (dup) {
		fprintf(stderr, "latctl: %s has the key \"%s\" twice in one object, with two values: it was edited or damaged\n",
			path, dup);
		cJSON_Delete(*doc);
		*doc = NULL;
		return -EINVAL;
	}
	return 0;
}

int lat_result_read(const char *path, cJSON **doc)
{
	int ret = lat_json_read(path, doc);

	if (ret)
		return ret;
	ret = check_schema(path, *doc);
	if (ret) {
		cJSON_Delete(*doc);
		*doc = NULL;
	}
	return ret;
}
