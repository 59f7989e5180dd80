// SPDX-License-Identifier: MIT
/* Runs of a result document and the metrics compare and check read. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/rdoc.h"
#include "events/evtype.h"
#include "events/iter.h"
#include "doc/result.h"
#include "doc/runs.h"

const struct lat_metric lat_metrics[] = {
	{ "p50",	LAT_METRIC_SUMMARY,	"p50_ns",	"ns", 0 },
	{ "p90",	LAT_METRIC_SUMMARY,	"p90_ns",	"ns", 0 },
	{ "p99",	LAT_METRIC_SUMMARY,	"p99_ns",	"ns", 0 },
	{ "p99.9",	LAT_METRIC_SUMMARY,	"p99_9_ns",	"ns", 0 },
	{ "p99.99",	LAT_METRIC_SUMMARY,	"p99_99_ns",	"ns", 0 },
	{ "max",	LAT_METRIC_SUMMARY,	"max_ns",	"ns", 0 },
	{ "mean",	LAT_METRIC_SUMMARY,	"mean_ns",	"ns", 0 },
	{ "faults/iter", LAT_METRIC_PER_ITER,	"minor_faults",	"", 0 },
	{ "huge pages",	LAT_METRIC_COUNTER,	"thp_fault_alloc", "", 1 },
	{ "fault:p50",	LAT_METRIC_FAULT,	"p50",		"ns", 0 },
	{ "fault:p90",	LAT_METRIC_FAULT,	"p90",		"ns", 0 },
	{ "fault:p99",	LAT_METRIC_FAULT,	"p99",		"ns", 0 },
};
const size_t lat_n_metrics = sizeof(lat_metrics) / sizeof(lat_metrics[0]);

/* Prefixes of the per-cause metrics. */
static const struct {
	const char *prefix;
	enum lat_metric_kind kind;
	const char *unit;
} cause_metrics[] = {
	{ "count:", LAT_METRIC_CAUSE_COUNT, "" },
	{ "share:", LAT_METRIC_CAUSE_SHARE, "%" },
	{ "own:",   LAT_METRIC_CAUSE_OWN,   "ns" },
};

static const cJSON *member(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const cJSON *run_list(const cJSON *doc)
{
	const cJSON *list = member(member(doc, LAT_REPEAT_KEY), LAT_REPEAT_RUNS_KEY);

	return cJSON_IsArray(list) ? list : NULL;
}

size_t lat_runs_count(const cJSON *doc)
{
	const cJSON *list = run_list(doc);

	return list ? (size_t)cJSON_GetArraySize(list) : 1;
}

const cJSON *lat_run_at(const cJSON *doc, size_t i)
{
	const cJSON *list = run_list(doc);

	return list ? cJSON_GetArrayItem(list, (int)i) : doc;
}

/* The statistics a fault kind's metric takes ("fault.cow:p50"). */
static const char *const kind_stats[] = { "p50", "p90", "p99", "max", "count" };

/* "fault.KIND:STAT" into *m, key "KIND:STAT" in label_buf; -EINVAL if name
 * is not of that form (the kind and statistic are checked by
 * lat_metric_given). */
static int parse_kind_metric(const char *name, struct lat_metric *m, char *label_buf, size_t len)
{
	const char *colon;

	if (strncmp(name, "fault.", 6) || !(colon = strchr(name + 6, ':')) || colon == name + 6)
		return -EINVAL;
	snprintf(label_buf, len, "%s", name + 6);
	*m = (struct lat_metric){ name, LAT_METRIC_FAULT_KIND, label_buf,
				  strcmp(colon + 1, "count") ? "ns" : "", 0 };
	return 0;
}

/* Whether "KIND:STAT" names a kind and a statistic. */
static bool kind_metric_known(const char *key)
{
	size_t klen = strcspn(key, ":"), i;
	unsigned int k;
	bool kind = false, stat = false;

	for (k = 1; lat_fault_kind_name(k); k++)
		kind |= strlen(lat_fault_kind_name(k)) == klen &&
			!strncmp(lat_fault_kind_name(k), key, klen);
	for (i = 0; i < sizeof(kind_stats) / sizeof(kind_stats[0]); i++)
		stat |= key[klen] == ':' && !strcmp(key + klen + 1, kind_stats[i]);
	return kind && stat;
}

int lat_metric_parse(const char *name, struct lat_metric *m, char *label_buf, size_t len)
{
	size_t i, n;

	if (!parse_kind_metric(name, m, label_buf, len))
		return 0;
	for (i = 0; i < lat_n_metrics; i++)
		if (!strcmp(name, lat_metrics[i].name)) {
			*m = lat_metrics[i];
			return 0;
		}
	for (i = 0; i < sizeof(cause_metrics) / sizeof(cause_metrics[0]); i++) {
		n = strlen(cause_metrics[i].prefix);
		if (strncmp(name, cause_metrics[i].prefix, n) || !name[n])
			continue;
		snprintf(label_buf, len, "%s", name + n);
		*m = (struct lat_metric){ name, cause_metrics[i].kind, label_buf,
					  cause_metrics[i].unit, 0 };
		return 0;
	}
	return -EINVAL;
}

int lat_metric_given(const char *name, struct lat_metric *m, char *label_buf, size_t len,
		     char *why, size_t wlen)
{
	size_t used = 0;
	int l;

	if (lat_metric_parse(name, m, label_buf, len)) {
		snprintf(why, wlen, "unknown metric '%s'", name);
		return -EINVAL;
	}
	if (m->kind == LAT_METRIC_FAULT_KIND) {
		if (kind_metric_known(m->key))
			return 0;
		used = (size_t)snprintf(why, wlen, "unknown fault kind or statistic in %s; fault.KIND:STAT with KIND one of", name);
		for (l = 1; lat_fault_kind_name((unsigned int)l) && used < wlen; l++)
			used += (size_t)snprintf(why + used, wlen - used, " %s",
						 lat_fault_kind_name((unsigned int)l));
		if (used < wlen)
			snprintf(why + used, wlen - used, " and STAT p50, p90, p99, max or count");
		return -EINVAL;
	}
	if (m->kind != LAT_METRIC_CAUSE_COUNT && m->kind != LAT_METRIC_CAUSE_SHARE &&
	    m->kind != LAT_METRIC_CAUSE_OWN)
		return 0;
	if (join_label_by_name(m->key) >= 0)
		return 0;
	used = (size_t)snprintf(why, wlen, "unknown cause '%s' in %s; the causes are", m->key, name);
	for (l = 0; l < JOIN_NR_LABELS && used < wlen; l++)
		if (join_label_by_name(join_label_name(l)) == l)
			used += (size_t)snprintf(why + used, wlen - used, " %s", join_label_name(l));
	return -EINVAL;
}

void lat_metric_list(FILE *out)
{
	size_t i, c;
	int l;

	for (i = 0; i < lat_n_metrics; i++)
		if (!strchr(lat_metrics[i].name, ' '))	/* a shell word each */
			fprintf(out, " %s", lat_metrics[i].name);
	for (c = 0; c < sizeof(cause_metrics) / sizeof(cause_metrics[0]); c++)
		for (l = 0; l < JOIN_NR_LABELS; l++)
			if (join_label_by_name(join_label_name(l)) == l)
				fprintf(out, " %s%s", cause_metrics[c].prefix, join_label_name(l));
	for (l = 1; lat_fault_kind_name((unsigned int)l); l++)
		fprintf(out, " fault.%s:p50 fault.%s:count", lat_fault_kind_name((unsigned int)l),
			lat_fault_kind_name((unsigned int)l));
}


static double num(const cJSON *o, const char *key)
{
	const cJSON *v = member(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* A fault kind's statistic: NaN where the run has no kinds; where it has
 * them but none of this kind, 0 faults and no percentile. */
static double kind_value(const cJSON *run, const char *key)
{
	const cJSON *kinds = member(member(run, "causes"), "fault_kinds");
	size_t klen = strcspn(key, ":");
	char kind[32];

	if (!cJSON_IsObject(kinds) || klen >= sizeof(kind))
		return NAN;
	snprintf(kind, sizeof(kind), "%.*s", (int)klen, key);
	if (!member(kinds, kind))
		return strcmp(key + klen, ":count") ? NAN : 0;
	return num(member(kinds, kind), key + klen + 1);
}

/* The entry of label in a run's cause table, NULL when it did not occur. */
static const cJSON *cause_entry(const cJSON *run, const char *label)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, member(member(run, "causes"), "causes")) {
		const cJSON *l = member(c, "label");

		if (cJSON_IsString(l) && !strcmp(l->valuestring, label))
			return c;
	}
	return NULL;
}

double lat_metric_value(const cJSON *run, const struct lat_metric *m)
{
	const cJSON *c;

	switch (m->kind) {
	case LAT_METRIC_SUMMARY:
		return num(member(run, "summary"), m->key);
	case LAT_METRIC_PER_ITER:
		return num(member(run, "counters"), m->key) / num(member(run, "summary"), "count");
	case LAT_METRIC_COUNTER:
		return num(member(run, "counters"), m->key);
	case LAT_METRIC_CAUSE_COUNT:
		c = cause_entry(run, m->key);
		return c ? num(c, "present") : 0;
	case LAT_METRIC_CAUSE_SHARE:
		c = cause_entry(run, m->key);
		return c ? num(c, "share") : 0;
	case LAT_METRIC_FAULT:
		return num(member(member(run, "causes"), "fault_ns"), m->key);
	case LAT_METRIC_FAULT_KIND:
		return kind_value(run, m->key);
	case LAT_METRIC_CAUSE_OWN:
		c = cause_entry(run, m->key);
		return c && num(c, "own_count") > 0 ? num(c, "own_median_ns") : NAN;
	}
	return NAN;
}

size_t lat_metric_values(const cJSON *doc, const struct lat_metric *m, double **vals)
{
	size_t n = lat_runs_count(doc), i, k = 0;
	double v;

	*vals = malloc((n ? n : 1) * sizeof(**vals));
	if (!*vals)
		return 0;
	for (i = 0; i < n; i++) {
		v = lat_metric_value(lat_run_at(doc, i), m);
		if (!isnan(v))
			(*vals)[k++] = v;
	}
	return k;
}

static int has_label(const cJSON *list, const char *label)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, list)
		if (!strcmp(s->valuestring, label))
			return 1;
	return 0;
}

void lat_runs_cause_labels(const cJSON *doc, cJSON *list)
{
	size_t n = lat_runs_count(doc), i;
	const cJSON *c, *l;

	for (i = 0; i < n; i++)
		cJSON_ArrayForEach(c, member(member(lat_run_at(doc, i), "causes"), "causes")) {
			l = member(c, "label");
			if (cJSON_IsString(l) && !has_label(list, l->valuestring))
				cJSON_AddItemToArray(list, cJSON_CreateString(l->valuestring));
		}
}

void lat_runs_fault_kinds(const cJSON *doc, cJSON *list)
{
	size_t n = lat_runs_count(doc), i;
	const cJSON *k;

	for (i = 0; i < n; i++)
		cJSON_ArrayForEach(k, member(member(lat_run_at(doc, i), "causes"), "fault_kinds"))
			if (k->string && strcmp(k->string, "none") && !has_label(list, k->string))
				cJSON_AddItemToArray(list, cJSON_CreateString(k->string));
}

/* Key paths every run must hold, with their type. */
static const struct {
	const char *section, *key;
	int type;
} run_keys[] = {
	{ "summary",  "count",		cJSON_Number },
	{ "summary",  "p50_ns",		cJSON_Number },
	{ "summary",  "p90_ns",		cJSON_Number },
	{ "summary",  "p99_ns",		cJSON_Number },
	{ "summary",  "p99_9_ns",	cJSON_Number },
	{ "summary",  "p99_99_ns",	cJSON_Number },
	{ "summary",  "max_ns",		cJSON_Number },
	{ "summary",  "mean_ns",	cJSON_Number },
	{ "counters", "minor_faults",	cJSON_Number | cJSON_NULL },
	{ "counters", "thp_fault_alloc", cJSON_Number | cJSON_NULL },
	{ "causes",   "causes",		cJSON_Array },
	{ "causes",   "events",		cJSON_Object },
	{ "causes",   "slow_total_ns",	cJSON_Number },
	{ "latmon",   "state",		cJSON_String },
	{ "latmon",   "lost_by_latmon",	cJSON_Number },
	{ "latmon",   "lost_by_latctl",	cJSON_Number },
	{ NULL,       "exit_code",	cJSON_Number },
};

/* Every key of run_keys through the strict reader; one line names the first
 * missing or mistyped one. */
static int check_run(const cJSON *run, const char *path, size_t i)
{
	struct lat_rd r = { NULL };
	size_t k;

	for (k = 0; k < sizeof(run_keys) / sizeof(run_keys[0]); k++)
		lat_rd_get(&r, run_keys[k].section ? lat_rd_obj(&r, run, run_keys[k].section) : run,
			   run_keys[k].key, run_keys[k].type);
	if (!r.bad)
		return 0;
	fprintf(stderr, "latctl: %s: run %zu: key \"%s\" is missing or has the wrong type; the result is damaged or from another latctl\n",
		path, i + 1, r.bad);
	return -EINVAL;
}

int lat_runs_check(const cJSON *doc, const char *path)
{
	const cJSON *rep = member(doc, LAT_REPEAT_KEY);
	size_t n = lat_runs_count(doc), i;

	if (rep && (!run_list(doc) || !n)) {
		fprintf(stderr, "latctl: %s: \"%s\" has no list of runs \"%s\"; the result is damaged\n",
			path, LAT_REPEAT_KEY, LAT_REPEAT_RUNS_KEY);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		if (check_run(lat_run_at(doc, i), path, i))
			return -EINVAL;
	return 0;
}

int lat_runs_read(const char *path, cJSON **doc)
{
	int ret = lat_result_read(path, doc);

	if (!ret && lat_runs_check(*doc, path))
		ret = -EINVAL;
	if (ret && *doc) {
		cJSON_Delete(*doc);
		*doc = NULL;
	}
	return ret;
}

double lat_run_lost(const cJSON *run)
{
	static const char *const lat_keys[] = { "lost_by_latmon", "lost_by_latctl" };
	static const char *const ev_keys[] = { "lost_records", "lost_events", "incomplete_iterations" };
	const cJSON *mon = cJSON_GetObjectItemCaseSensitive(run, "latmon");
	const cJSON *ev = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(run, "causes"), "events");
	double n = 0;
	size_t i;

	for (i = 0; i < sizeof(lat_keys) / sizeof(lat_keys[0]); i++)
		n += cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(mon, lat_keys[i]));
	for (i = 0; i < sizeof(ev_keys) / sizeof(ev_keys[0]); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(ev, ev_keys[i]);

		n += cJSON_IsNumber(v) ? v->valuedouble : 0;
	}
	return n;
}

int lat_paths_twice(const char *const *paths, size_t n, size_t *i, size_t *j)
{
	struct stat *st = calloc(n ? n : 1, sizeof(*st));
	size_t a, b;

	for (a = 0; st && a < n; a++)
		if (stat(paths[a], &st[a]))
			st[a].st_ino = 0; /* a missing file: said when it is read */
	for (a = 0; st && a < n; a++)
		for (b = a + 1; st[a].st_ino && b < n; b++)
			if (st[a].st_dev == st[b].st_dev && st[a].st_ino == st[b].st_ino) {
				*i = a;
				*j = b;
				free(st);
				return 1;
			}
	free(st);
	return 0;
}
