// SPDX-License-Identifier: MIT
/*
 * `latctl compare BASE.json NEW.json [MORE.json...]`, or with a side of
 * several invocations `latctl compare --baseline A1.json ... [--pool]
 * NEW.json...`: the environments side by side, then per metric each side's
 * median with its interval, the change and its significance, then the
 * change explained by causes.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/envdiff.h"
#include "compare/pair.h"
#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "doc/result.h"
#include "doc/runs.h"
#include "report/render.h"

#define MAX_FILES	64

struct compare_opts {
	const char *json_path;
	int lkp;
	int strict;
	const char *primary;	/* --metric, NULL: LAT_COMPARE_PRIMARY */
	char primary_label[64];
	const char *files[MAX_FILES]; /* the --baseline files, then the others */
	cJSON *docs[MAX_FILES];
	size_t n;
	size_t n_base;		/* --baseline files; 0: the first file is the base */
	int pool;		/* --pool: the other files are one side */
	FILE *text;		/* the tables: stdout, or nowhere with --json - */
};

enum { OPT_BASELINE = LAT_OPT_LONG, OPT_FORMAT, OPT_METRIC, OPT_POOL, OPT_STRICT };

static void usage(FILE *out);

/* Alphabetical. */
static const struct lat_opt compare_opts_table[] = {
	{ "baseline", OPT_BASELINE, "FILE",
	  "the base side (repeatable): invocations of one\n"
	  "configuration, each one unit (its runs' median)",
	  "<json>", NULL },
	{ "format", OPT_FORMAT, "F", "text (default, 80 columns) or lkp (0-day %stddev table)",
	  "text lkp", NULL },
	LAT_OPT_HELP,
	{ "json", 'j', "FILE",
	  "also write the comparison as JSON (schema latctl.compare);\n"
	  "- writes it to stdout instead of the tables",
	  "<file>", NULL },
	{ "metric", OPT_METRIC, "M",
	  "the primary metric (default p99.9; see 'latctl check --help')", NULL, lat_metric_list },
	{ "pool", OPT_POOL, NULL,
	  "with --baseline: the other files are invocations\n"
	  "of one configuration, one side, each one unit",
	  NULL, NULL },
	{ "strict", OPT_STRICT, NULL,
	  "a difference of machine or run in the environment is an\n"
	  "error (exit 1); kernel rows may differ (a kernel A/B)",
	  NULL, NULL },
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts compare_cmd = {
	.cmd = "latctl compare", .opt = compare_opts_table, .width = 21, .args = "<json>",
	.usage = usage,
};

static void usage(FILE *out)
{
	fputs("usage: latctl compare [options] BASE.json NEW.json [MORE.json...]\n"
	      "       latctl compare [options] --baseline A1.json [--baseline A2.json...]\n"
	      "                      [--pool] NEW.json [NEW2.json...]\n"
	      "\n"
	      "Compares results of 'latctl run' (best of '--repeat N', N >= 4): first the\n"
	      "environment side by side (* marks a difference), then one row per metric:\n"
	      "the median of the runs with its 95% interval on each side, the change in %\n"
	      "(Hodges-Lehmann), the Mann-Whitney U p-value (exact for small samples) and\n"
	      "the runs per side; '~' when the change is not significant. One metric is\n"
	      "primary (--metric, p99.9 by default), judged at p < 0.05 with the 95%\n"
	      "interval of its change clear of +-1%; the other rows are tested only when\n"
	      "it changed, Holm-corrected.\n"
	      "Then the change in slow time explained by causes, as count x time each.\n"
	      "More files are each compared to BASE.\n"
	      "A side of one file has its runs as units; they share a process and a boot,\n"
	      "so a drift between invocations looks like a change. With several\n"
	      "--baseline files (and --pool for the others) each invocation is one unit\n"
	      "(its runs' median), and the table gives the ICC: how alike one\n"
	      "invocation's runs are against the invocations.\n"
	      "\n"
	      "options:\n",
	      out);
	lat_opt_usage(out, &compare_cmd);
	fputs("\n"
	      "examples:\n"
	      "  latctl run grow --repeat 5 --json a.json\n"
	      "  latctl run grow --no-thp --repeat 5 --json b.json\n"
	      "  latctl compare a.json b.json\n"
	      "  latctl compare --format lkp a.json b.json    paste into a mail\n"
	      "  latctl compare bisect/good.json bisect/step-*.json\n"
	      "  latctl compare --baseline a1.json --baseline a2.json --baseline a3.json \\\n"
	      "                 --baseline a4.json --pool b1.json b2.json b3.json b4.json\n"
	      "\n"
	      "exit status: 0 compared; 1 --strict and the machines or runs differ;\n"
	      "2 bad command line or input file\n",
	      out);
}

/* --metric M: the primary metric; -1 with one line when M is none. */
static int take_metric(struct compare_opts *o, const char *name)
{
	struct lat_metric m;
	char why[512];

	if (lat_metric_given(name, &m, o->primary_label, sizeof(o->primary_label), why, sizeof(why))) {
		fprintf(stderr, "latctl compare: --metric: %s; see 'latctl check --help'\n", why);
		return -1;
	}
	o->primary = name;
	return 0;
}

/* A file given twice: with sides of invocations its runs would count
 * twice; as two results, it is compared with itself. */
static int given_twice(const struct compare_opts *o)
{
	size_t i, j;

	if (!lat_paths_twice(o->files, o->n, &i, &j))
		return 0;
	fprintf(stderr, o->n_base ?
		"latctl compare: %s and %s are one file, given twice: its runs would count twice\n" :
		"latctl compare: %s and %s are one file, given twice: a result compared with itself tells nothing\n",
		o->files[i], o->files[j]);
	return 1;
}

/* The files after the options: the base first unless --baseline gave it. */
static enum lat_parsed take_files(int argc, char **argv, struct compare_opts *o)
{
	size_t given = (size_t)(argc - optind);

	if (o->pool && !o->n_base) {
		fprintf(stderr, "latctl compare: --pool needs the base side as --baseline files\n");
		return LAT_PARSED_BAD;
	}
	if (given < (o->n_base ? 1U : 2U) || o->n + given > MAX_FILES) {
		fprintf(stderr,
			o->n_base ?
				"latctl compare: give 1 to %d results to compare with the --baseline files\n" :
				"latctl compare: give a base and 1 to %d other results: latctl compare BASE.json NEW.json\n",
			(int)(MAX_FILES - (o->n_base ? o->n_base : 1)));
		return LAT_PARSED_BAD;
	}
	for (; optind < argc; optind++)
		o->files[o->n++] = argv[optind];
	return given_twice(o) ? LAT_PARSED_BAD : LAT_PARSED_RUN;
}

/* One option of compare's; -1 after its line on stderr. */
static int take_option(struct compare_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'j':
		if (o->json_path) {
			fprintf(stderr, "latctl compare: --json given twice (%s and %s); give one file\n",
				o->json_path, arg);
			return -1;
		}
		o->json_path = arg;
		return 0;
	case OPT_STRICT:
		o->strict = 1;
		return 0;
	case OPT_POOL:
		o->pool = 1;
		return 0;
	case OPT_METRIC:
		return take_metric(o, arg);
	case OPT_BASELINE:
		if (o->n + 1 >= MAX_FILES) {
			fprintf(stderr, "latctl compare: --baseline: at most %d files\n",
				MAX_FILES - 1);
			return -1;
		}
		o->files[o->n++] = arg;
		o->n_base++;
		return 0;
	}
	if (!strcmp(arg, "text") || !strcmp(arg, "lkp")) {
		o->lkp = !strcmp(arg, "lkp");
		return 0;
	}
	fprintf(stderr, "latctl compare: --format '%s' is not valid; give text or lkp\n", arg);
	return -1;
}

static enum lat_parsed parse(int argc, char **argv, struct compare_opts *o)
{
	struct lat_optp p;
	int c;

	lat_opt_begin(&p, &compare_cmd);
	while ((c = lat_opt_next(&p, argc, argv)) != LAT_OPT_END) {
		if (c == LAT_OPT_DONE)
			return LAT_PARSED_HELP;
		if (c == LAT_OPT_BAD)
			return lat_opt_say(&p);
		if (take_option(o, c, optarg))
			return LAT_PARSED_BAD;
	}
	return take_files(argc, argv, o);
}

/* The file names without their directories, for the column heads. */
static void short_names(const struct compare_opts *o, const char **names)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		const char *slash = strrchr(o->files[i], '/');

		names[i] = slash ? slash + 1 : o->files[i];
	}
}

/* Comparison k's sides (0 .. n_pairs - 1): the base side, and the file or
 * files compared with it. */
static size_t n_pairs(const struct compare_opts *o)
{
	size_t first = o->n_base ? o->n_base : 1;

	return o->pool ? 1 : o->n - first;
}

static void pair_sides(const struct compare_opts *o, size_t k, struct lat_side *base,
		       struct lat_side *new, size_t *first_new)
{
	base->doc = (const cJSON *const *)o->docs;
	base->n = o->n_base ? o->n_base : 1;
	*first_new = base->n + k;
	new->doc = (const cJSON *const *)o->docs + *first_new;
	new->n = o->pool ? o->n - base->n : 1;
}

/* "a.json", or "a.json (+3 more)" for a side of several files. */
static void side_name(char *buf, size_t len, const char *first, size_t n)
{
	if (n > 1)
		snprintf(buf, len, "%s (+%zu more)", first, n - 1);
	else
		snprintf(buf, len, "%s", first);
}

static void print_all(const struct compare_opts *o)
{
	struct lat_side base, new;
	char bn[PATH_MAX + 32], nn[PATH_MAX + 32];
	size_t k, f;

	for (k = 0; k < n_pairs(o); k++) {
		pair_sides(o, k, &base, &new, &f);
		side_name(bn, sizeof(bn), o->files[0], base.n);
		side_name(nn, sizeof(nn), o->files[f], new.n);
		if (n_pairs(o) > 1 || base.n > 1 || new.n > 1)
			fprintf(o->text, "\n%s -> %s\n", bn, nn);
		else
			fputc('\n', o->text);
		if (o->lkp)
			lat_compare_print_lkp(o->text, &base, &new, o->primary);
		else
			lat_compare_print(o->text, &base, &new, o->primary);
	}
}

/* The whole comparison as a document of its own schema, written atomically. */
static int write_json(const struct compare_opts *o, int argc, char **argv)
{
	struct lat_result_file file = { 0 };
	cJSON *doc, *list;
	size_t k, f;
	int ret;

	if (lat_result_open(&file, o->json_path))
		return LAT_EXIT_USAGE;
	doc = lat_result_new(argc, argv);
	cJSON_ReplaceItemInObject(doc, "schema", cJSON_CreateString(LAT_COMPARE_SCHEMA));
	cJSON_ReplaceItemInObject(doc, "schema_version", cJSON_CreateNumber(LAT_COMPARE_SCHEMA_VERSION));
	cJSON_AddItemToObject(doc, "files", cJSON_CreateStringArray(o->files, (int)o->n));
	cJSON_AddItemToObject(doc, "environment", lat_env_json((const cJSON *const *)o->docs, o->n));
	list = cJSON_AddArrayToObject(doc, "comparisons");
	for (k = 0; k < n_pairs(o); k++) {
		struct lat_side base, new;
		cJSON *c;

		pair_sides(o, k, &base, &new, &f);
		c = lat_compare_json(&base, &new, o->primary);
		cJSON_AddStringToObject(c, "base", o->files[0]);
		cJSON_AddStringToObject(c, "new", o->files[f]);
		cJSON_AddItemToObject(c, "base_files",
				      cJSON_CreateStringArray(o->files, (int)base.n));
		cJSON_AddItemToObject(c, "new_files",
				      cJSON_CreateStringArray(o->files + f, (int)new.n));
		cJSON_AddItemToArray(list, c);
	}
	lat_result_finish(doc, LAT_EXIT_OK);
	ret = lat_result_commit(&file, doc);
	cJSON_Delete(doc);
	return ret ? LAT_EXIT_FAIL : 0;
}

/* One line when the machines' facts differ (machine/facts.h). */
static void machines_note(struct compare_opts *o)
{
	char names[256];
	size_t k = lat_env_facts_differ((const cJSON *const *)o->docs, o->n, names, sizeof(names));

	if (k)
		fprintf(o->text, "the machines differ in %s (marked *): a difference below may be "
			"the machine's, not the change's\n", names);
}

static int compare(struct compare_opts *o)
{
	const char *names[MAX_FILES];
	size_t differ;

	short_names(o, names);
	lat_env_print(o->text, (const cJSON *const *)o->docs, names, o->n);
	differ = lat_env_count_differences((const cJSON *const *)o->docs, o->n,
					   (1U << LAT_ENV_MACHINE) | (1U << LAT_ENV_RUN));
	if (differ && o->strict) {
		fflush(stdout);
		fprintf(stderr, "latctl compare: --strict: the machines or runs differ in %zu row%s (marked *)\n",
			differ, differ == 1 ? "" : "s");
		return LAT_EXIT_FAIL;
	}
	machines_note(o);
	print_all(o);
	return LAT_EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	size_t i;
	int ret = parse(argc, argv, &o);

	if (ret)
		return ret == LAT_PARSED_HELP ? LAT_EXIT_OK : LAT_EXIT_USAGE;
	ret = LAT_EXIT_USAGE;
	for (i = 0; i < o.n; i++)
		if (lat_runs_load(o.files[i], &o.docs[i]))
			goto out;
	o.text = o.json_path && !strcmp(o.json_path, "-") ? fopen("/dev/null", "w") : stdout;
	ret = o.text ? compare(&o) : LAT_EXIT_FAIL;
	if (o.text && o.text != stdout)
		fclose(o.text);
	if (ret == LAT_EXIT_OK && o.json_path)
		ret = write_json(&o, lat_main_argc, lat_main_argv);
out:
	for (i = 0; i < o.n; i++)
		cJSON_Delete(o.docs[i]);
	return ret;
}
