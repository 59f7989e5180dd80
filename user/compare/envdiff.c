// SPDX-License-Identifier: MIT
/* Environment rows of result documents side by side, differences marked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/envdiff.h"
#include "doc/runopts.h"
#include "lib/fmt.h"

#define ENV_WIDTH	80
#define ENV_NAME	16

static const cJSON *member(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A JSON scalar as text. */
static const char *scalar(const cJSON *v, char *buf, size_t len)
{
	if (cJSON_IsString(v))
		return *v->valuestring ? v->valuestring : "none";
	if (cJSON_IsNumber(v))
		snprintf(buf, len, "%.15g", v->valuedouble);
	else if (cJSON_IsBool(v))
		snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "yes" : "no");
	else
		snprintf(buf, len, "none");
	return buf;
}

static const char *get_plain(const cJSON *doc, const struct lat_env_row *row,
			     char *buf, size_t len)
{
	const cJSON *o = row->section ? member(doc, row->section) : doc;

	return scalar(member(o, row->key), buf, len);
}

/* An option whose 0 means the default (--iters, --events, --ring). */
static const char *get_option(const cJSON *doc, const struct lat_env_row *row, char *buf,
			      size_t len)
{
	const cJSON *v = member(member(doc, row->section), row->key);

	return cJSON_IsNumber(v) && v->valuedouble == 0 ? "default" : get_plain(doc, row, buf, len);
}

/* One parameter of the kernel command line (key "preempt" matches
 * "preempt=full"), or "none". */
static const char *get_param(const cJSON *doc, const struct lat_env_row *row,
			     char *buf, size_t len)
{
	const cJSON *c = member(member(doc, "environment"), "cmdline");
	const char *p = cJSON_IsString(c) ? c->valuestring : "";
	size_t k = strlen(row->key), w;

	for (; *p; p += w + strspn(p + w, " ")) {
		w = strcspn(p, " ");
		if (!strncmp(p, row->key, k) && (p[k] == '=' || p + k == p + w)) {
			snprintf(buf, len, "%.*s", (int)w, p);
			return buf;
		}
		if (!w)
			break;
	}
	return "none";
}

/* The member of o after last in the order of names that keep() takes (NULL:
 * all), NULL past the end: the objects are small, a selection is enough. */
static const cJSON *next_by_name(const cJSON *o, const char *last, int (*keep)(const cJSON *))
{
	const cJSON *best = NULL, *v;

	cJSON_ArrayForEach(v, o)
		if (strcmp(v->string, last) > 0 && (!keep || keep(v)) &&
		    (!best || strcmp(v->string, best->string) < 0))
			best = v;
	return best;
}

/* "name=value ..." of an object's members, in sorted order of names. */
static const char *get_object(const cJSON *doc, const struct lat_env_row *row,
			      char *buf, size_t len)
{
	const cJSON *o = member(member(doc, row->section), row->key), *best;
	const char *last = "";
	size_t used = 0;

	if (!cJSON_IsObject(o))
		return "none";
	buf[0] = '\0';
	for (;;) {
		best = next_by_name(o, last, NULL);
		if (!best || used >= len)
			break;
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
					 best->string, cJSON_IsString(best) ? best->valuestring : "?");
		last = best->string;
	}
	return buf;
}

/* latmon's version and the sources it started. */
static const char *get_latmon(const cJSON *doc, const struct lat_env_row *row,
			      char *buf, size_t len)
{
	const cJSON *m = member(doc, "latmon"), *s;
	char state[64];
	size_t used;

	(void)row;
	used = (size_t)snprintf(buf, len, "%s %s", scalar(member(m, "state"), state, sizeof(state)),
				cJSON_IsString(member(m, "module_version")) ?
				member(m, "module_version")->valuestring : "");
	cJSON_ArrayForEach(s, member(m, "sources"))
		if (cJSON_IsTrue(member(s, "started")) && cJSON_IsString(member(s, "name")) &&
		    used < len)
			used += (size_t)snprintf(buf + used, len - used, " %s",
						 member(s, "name")->valuestring);
	return buf;
}

/* Any JSON value compactly ("none" for absent or null). */
static const char *get_json(const cJSON *doc, const struct lat_env_row *row,
			    char *buf, size_t len)
{
	const cJSON *v = row->section ? member(member(doc, row->section), row->key) : member(doc, row->key);
	char *t;

	if (!v || cJSON_IsNull(v))
		return "none";
	if (!cJSON_IsObject(v) && !cJSON_IsArray(v))
		return scalar(v, buf, len);
	t = cJSON_PrintUnformatted(v);
	snprintf(buf, len, "%s", t ? t : "?");
	free(t);
	return buf;
}

/* The machine fact row->key of the environment's "facts" (machine/facts.h). */
static const cJSON *fact_of(const cJSON *doc, const struct lat_env_row *row)
{
	return member(member(member(doc, "environment"), "facts"), row->key);
}

static const char *get_fact(const cJSON *doc, const struct lat_env_row *row,
			    char *buf, size_t len)
{
	const cJSON *v = fact_of(doc, row);

	if (cJSON_IsNumber(v) && strstr(row->key, "_ns"))
		return lat_fmt_time(buf, len, v->valuedouble);
	return scalar(v, buf, len);
}

/* The TSC frequency to 10 MHz: calibrations of one machine agree to that. */
static const char *get_tsc(const cJSON *doc, const struct lat_env_row *row,
			   char *buf, size_t len)
{
	const cJSON *v = member(member(doc, row->section), row->key);

	if (!cJSON_IsNumber(v))
		return "none";
	snprintf(buf, len, "%.2f GHz", round(v->valuedouble / 1e7) / 100);
	return buf;
}

static int row_of_option(const char *key);

/* An option's value says it was given: not 0, false, null or "". */
static int given(const cJSON *v)
{
	return (cJSON_IsNumber(v) && v->valuedouble != 0) || cJSON_IsTrue(v) ||
	       (cJSON_IsString(v) && *v->valuestring) || cJSON_IsObject(v) || cJSON_IsArray(v);
}

/* An option no other row shows, and given. */
static int shown_here(const cJSON *v)
{
	return !row_of_option(v->string) && given(v);
}

/* Every option of the run that no other row shows and that was given (a
 * workload's own: --threads, --rate, ...), "name=value" in sorted order. */
static const char *get_options(const cJSON *doc, const struct lat_env_row *row,
			       char *buf, size_t len)
{
	const cJSON *o = member(doc, "options"), *best;
	const char *last = "";
	char val[64];
	size_t used = 0;

	(void)row;
	buf[0] = '\0';
	for (;;) {
		best = next_by_name(o, last, shown_here);
		if (!best || used >= len)
			break;
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
					 best->string, scalar(best, val, sizeof(val)));
		last = best->string;
	}
	return used ? buf : "none";
}

/* The rows before the core options' and after them. */
/* clang-format off */
static const struct lat_env_row rows_before[] = {
	{ "kernel",	   LAT_ENV_KERNEL,  get_plain,  "environment", "kernel_release" },
	{ "init_on_alloc", LAT_ENV_KERNEL,  get_param,  NULL, "init_on_alloc" },
	{ "preempt",	   LAT_ENV_KERNEL,  get_param,  NULL, "preempt" },
	{ "thp cmdline",   LAT_ENV_KERNEL,  get_param,  NULL, "transparent_hugepage" },
	{ "mitigations arg", LAT_ENV_KERNEL, get_param, NULL, "mitigations" },
	{ "cmdline",	   LAT_ENV_KERNEL,  get_plain,  "environment", "cmdline" },
	{ "mitigations",   LAT_ENV_KERNEL,  get_object, "environment", "mitigations" },
	{ "latmon",	   LAT_ENV_KERNEL,  get_latmon, NULL, NULL },
	{ "thp",	   LAT_ENV_KERNEL,  get_plain,  "environment", "thp_enabled" },
	{ "thp defrag",	   LAT_ENV_KERNEL,  get_plain,  "environment", "thp_defrag" },
	{ "mthp",	   LAT_ENV_KERNEL,  get_object, "environment", "mthp" },
	{ "zero page",	   LAT_ENV_KERNEL,  get_fact,   NULL, "zero_page" },
	{ "clocksource",   LAT_ENV_KERNEL,  get_fact,   NULL, "clocksource" },
	{ "first touch",   LAT_ENV_KERNEL,  get_fact,   NULL, "first_touch_ns" },
	{ "system call",   LAT_ENV_KERNEL,  get_fact,   NULL, "syscall_ns" },
	{ "cgroup",	   LAT_ENV_KERNEL,  get_fact,   NULL, "cgroup" },
	{ "bpf",	   LAT_ENV_KERNEL,  get_fact,   NULL, "bpf" },
	{ "modules",	   LAT_ENV_KERNEL,  get_fact,   NULL, "modules" },
	{ "device",	   LAT_ENV_DEVICE,  get_plain,  "environment", "device" },
	{ "hypervisor",	   LAT_ENV_MACHINE, get_fact,   NULL, "hypervisor" },
	{ "pmu",	   LAT_ENV_MACHINE, get_fact,   NULL, "pmu" },
	{ "tsc flags",	   LAT_ENV_MACHINE, get_fact,   NULL, "tsc_flags" },
	{ "thp sizes",	   LAT_ENV_MACHINE, get_fact,   NULL, "thp_sizes" },
	{ "cpu",	   LAT_ENV_MACHINE, get_plain,  "environment", "cpu_model" },
	{ "tsc",	   LAT_ENV_MACHINE, get_tsc,    "environment", "tsc_hz" },
	{ "cpus online",   LAT_ENV_MACHINE, get_plain,  "environment", "online_cpus" },
	{ "microcode",	   LAT_ENV_MACHINE, get_plain,  "environment", "microcode" },
	{ "governor",	   LAT_ENV_MACHINE, get_plain,  "environment", "cpufreq_governor" },
	{ "smt",	   LAT_ENV_MACHINE, get_plain,  "environment", "smt" },
	{ "isolated cpus", LAT_ENV_MACHINE, get_plain,  "environment", "isolcpus" },
	{ "workload",	   LAT_ENV_RUN,     get_plain,  "run", "workload" },
	{ "mode",	   LAT_ENV_RUN,     get_plain,  "run", "mode" },
};
/* A workload's option with a row of its own, fourth among the options'. */
#define HUGEPAGE_AT 4
static const struct lat_env_row hugepage_row =
	{ "--hugepage",	   LAT_ENV_RUN,     get_plain,  "options", "hugepage" };
static const struct lat_env_row rows_after[] = {
	{ "wl options",	   LAT_ENV_RUN,     get_options, NULL, NULL },
	{ "--fragment",	   LAT_ENV_RUN,     get_json,   "mm", "fragment" },
	{ "--memcg",	   LAT_ENV_RUN,     get_json,   "mm", "memcg" },
	{ "backend",	   LAT_ENV_RUN,     get_plain,  "backend", "name" },
	{ "latctl",	   LAT_ENV_RUN,     get_plain,  NULL, "latctl_version" },
};
/* clang-format on */

#define N_BEFORE (sizeof(rows_before) / sizeof(rows_before[0]))
#define N_AFTER (sizeof(rows_after) / sizeof(rows_after[0]))

/* Every row: the fixed ones, and between them one per core option its
 * table row marks for compare (doc/runopts.c), in the table's order. */
static struct lat_env_row env_rows_all[N_BEFORE + 65 + N_AFTER];
static char env_row_names[64][32];
static size_t env_rows_n;

/* The row of core option o into *row; its name kept in env_row_names[k]. */
static void option_row(const struct lat_run_opt *o, size_t k, struct lat_env_row *row)
{
	snprintf(env_row_names[k], sizeof(env_row_names[k]), "--%s", o->opt.name);
	*row = (struct lat_env_row){ o->row ? o->row : env_row_names[k], LAT_ENV_RUN,
				     o->env == LAT_ROPT_ENV_GIVEN ? get_option : get_plain,
				     "options", o->json };
}

static void env_rows_make(void)
{
	struct lat_env_row *rows = env_rows_all + N_BEFORE;
	size_t i, k = 0, n = 0;
	int at;

	memcpy(env_rows_all, rows_before, sizeof(rows_before));
	for (at = 1; at <= 64 && k < 64; at++) {
		if (at == HUGEPAGE_AT)
			rows[n++] = hugepage_row;
		for (i = 0; i < lat_n_run_opts && k < 64; i++)
			if (lat_run_opts[i].env != LAT_ROPT_ENV_NONE &&
			    lat_run_opts[i].row_at == at)
				option_row(&lat_run_opts[i], k++, &rows[n++]);
	}
	memcpy(rows + n, rows_after, sizeof(rows_after));
	env_rows_n = N_BEFORE + n + N_AFTER;
}

static const struct lat_env_row *env_rows(void)
{
	if (!env_rows_n)
		env_rows_make();
	return env_rows_all;
}

static size_t env_n_rows(void)
{
	env_rows();
	return env_rows_n;
}

/* Options no row compares that no core option's row writes: the number
 * of runs is each side's n; the workload has its row of "run". */
static const char *const not_compared[] = { "repeat", "workload" };

/* 1 when key is an option with a row of its own or none at all. */
static int row_of_option(const char *key)
{
	size_t r;

	for (r = 0; r < sizeof(not_compared) / sizeof(not_compared[0]); r++)
		if (!strcmp(key, not_compared[r]))
			return 1;
	if (lat_run_opt_of_json(key))
		return 1;
	for (r = 0; r < env_n_rows(); r++)
		if (env_rows()[r].section && !strcmp(env_rows()[r].section, "options") &&
		    !strcmp(env_rows()[r].key, key))
			return 1;
	return 0;
}

size_t lat_env_count_differences(const cJSON *const *docs, size_t n, unsigned int sides)
{
	size_t r, d = 0;

	for (r = 0; r < env_n_rows(); r++)
		d += (sides & (1U << env_rows()[r].side)) &&
		     lat_env_row_differs(&env_rows()[r], docs, n);
	return d;
}

/*
 * The share by which a row's numbers may differ and still be the same: the
 * kernel calibrates the TSC at each boot (0.1-1% apart between boots under
 * emulation on a busy host, one machine still); a measured cost (a first
 * touch, a system call) moves with the load of the box, so two are apart
 * when one is twice the other; every other row's text must match.
 */
static double tolerance(const struct lat_env_row *row)
{
	if (row->get == get_fact && strstr(row->key, "_ns"))
		return 0.5;	/* measured costs: apart when twice as much */
	return row->get == get_tsc ? 0.01 : 0;
}

/* Row values of a and b apart by more than the row's tolerance; -1 when
 * either is not a number. */
static int apart(const struct lat_env_row *row, const cJSON *a, const cJSON *b)
{
	const cJSON *x = row->get == get_fact ? fact_of(a, row) : member(member(a, row->section), row->key);
	const cJSON *y = row->get == get_fact ? fact_of(b, row) : member(member(b, row->section), row->key);

	if (!cJSON_IsNumber(x) || !cJSON_IsNumber(y))
		return -1;
	return fabs(x->valuedouble - y->valuedouble) >
	       tolerance(row) * fmax(fabs(x->valuedouble), fabs(y->valuedouble));
}

int lat_env_row_differs(const struct lat_env_row *row, const cJSON *const *docs, size_t n)
{
	char a[4096], b[4096];
	const char *first = row->get(docs[0], row, a, sizeof(a));
	size_t i;
	int far;

	for (i = 1; i < n; i++) {
		far = tolerance(row) > 0 ? apart(row, docs[0], docs[i]) : -1;
		if (far == 1 || (far == -1 && strcmp(first, row->get(docs[i], row, b, sizeof(b)))))
			return 1;
	}
	return 0;
}

const struct lat_env_row *lat_env_first_difference(const cJSON *const *docs, size_t n,
						   unsigned int sides)
{
	size_t r;

	for (r = 0; r < env_n_rows(); r++)
		if ((sides & (1U << env_rows()[r].side)) &&
		    lat_env_row_differs(&env_rows()[r], docs, n))
			return &env_rows()[r];
	return NULL;
}

/* One cell: the text cut to width, "..." marking a cut; the last of a
 * line is not padded. */
static void cell(FILE *out, const char *text, int width, int last)
{
	if ((int)strlen(text) <= width)
		fprintf(out, " %-*s", last ? 0 : width, text);
	else
		fprintf(out, " %.*s...", width - 3, text);
}

/* The rows that differ and whose value a cell cut, each file's value in
 * full. */
static void print_cut(FILE *out, const cJSON *const *docs, const char *const *names, size_t n,
		      int width)
{
	char buf[4096];
	size_t r, i;
	int head = 0;

	for (r = 0; r < env_n_rows(); r++) {
		int cut = 0;

		for (i = 0; i < n; i++)
			cut |= (int)strlen(env_rows()[r].get(docs[i], &env_rows()[r], buf,
							     sizeof(buf))) > width;
		if (!cut || !lat_env_row_differs(&env_rows()[r], docs, n))
			continue;
		if (!head++)
			fprintf(out, "in full, the rows that differ and were cut above:\n");
		for (i = 0; i < n; i++)
			fprintf(out, "  %s, %s: %s\n", env_rows()[r].name, names[i],
				env_rows()[r].get(docs[i], &env_rows()[r], buf, sizeof(buf)));
	}
}

/* A row to show: every row but the device's where no document has one. */
static int row_shown(const struct lat_env_row *row, const cJSON *const *docs, size_t n)
{
	size_t i;

	if (row->side != LAT_ENV_DEVICE)
		return 1;
	for (i = 0; i < n; i++)
		if (cJSON_IsString(member(member(docs[i], row->section), row->key)))
			return 1;
	return 0;
}

void lat_env_devices(const cJSON *const *docs, size_t n, char *buf, size_t len)
{
	size_t i, j, used = 0;
	const char *d;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++) {
		d = cJSON_GetStringValue(member(member(docs[i], "environment"), "device"));
		for (j = 0; d && j < i; j++)
			if (!strcmp(d,
				    cJSON_GetStringValue(member(member(docs[j], "environment"), "device")) ?:
					    ""))
				d = NULL;
		if (d)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 d);
	}
}

size_t lat_env_print(FILE *out, const cJSON *const *docs, const char *const *names, size_t n)
{
	int width = (ENV_WIDTH - 2 - ENV_NAME) / (int)n - 1, d;
	size_t r, i, differ = 0;
	char buf[4096];

	if (width < 8)		/* many files: past 80 columns rather than unreadable */
		width = 8;
	fprintf(out, "environment (* differs)\n  %-*s", ENV_NAME, "");
	for (i = 0; i < n; i++)
		cell(out, names[i], width, i + 1 == n);
	fputc('\n', out);
	for (r = 0; r < env_n_rows(); r++) {
		if (!row_shown(&env_rows()[r], docs, n))
			continue;
		d = lat_env_row_differs(&env_rows()[r], docs, n);
		differ += (size_t)d;
		fprintf(out, "%c %-*s", d ? '*' : ' ', ENV_NAME, env_rows()[r].name);
		for (i = 0; i < n; i++)
			cell(out, env_rows()[r].get(docs[i], &env_rows()[r], buf, sizeof(buf)),
			     width, i + 1 == n);
		fputc('\n', out);
	}
	print_cut(out, docs, names, n, width);
	return differ;
}

cJSON *lat_env_json(const cJSON *const *docs, size_t n)
{
	static const char *const sides[] = { "", "kernel", "machine", "run", "device" };
	cJSON *rows = cJSON_CreateArray(), *o, *vals;
	char buf[4096];
	size_t r, i;

	for (r = 0; r < env_n_rows(); r++) {
		const struct lat_env_row *row = &env_rows()[r];

		if (!row_shown(row, docs, n))
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", row->name);
		cJSON_AddStringToObject(o, "side", sides[row->side]);
		vals = cJSON_AddArrayToObject(o, "values");
		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(vals, cJSON_CreateString(row->get(docs[i], row, buf, sizeof(buf))));
		cJSON_AddBoolToObject(o, "differs", lat_env_row_differs(row, docs, n));
		cJSON_AddItemToArray(rows, o);
	}
	return rows;
}

size_t lat_env_facts_differ(const cJSON *const *docs, size_t n, char *buf, size_t len)
{
	size_t r, k = 0, used = 0;

	buf[0] = '\0';
	for (r = 0; r < env_n_rows(); r++) {
		if (env_rows()[r].get != get_fact || !lat_env_row_differs(&env_rows()[r], docs, n))
			continue;
		k++;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 env_rows()[r].name);
	}
	return k;
}
