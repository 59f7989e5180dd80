// SPDX-License-Identifier: MIT
/*
 * `latctl compare BASE.json NEW.json [MORE.json...]`: the environments side
 * by side, then per metric each side's median with its interval, the change
 * and its significance, then the change explained by causes.
 */
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/envdiff.h"
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
	const char *files[MAX_FILES];
	cJSON *docs[MAX_FILES];
	size_t n;
	FILE *text;		/* the tables: stdout, or nowhere with --json - */
};

enum { OPT_FORMAT = LAT_OPT_LONG, OPT_METRIC, OPT_STRICT };

static void usage(FILE *out);

/* Alphabetical. */
static const struct lat_opt compare_opts_table[] = {
	{ "format", OPT_FORMAT, "F", "text (default, 80 columns) or lkp (0-day %stddev table)",
	  "text lkp", NULL },
	{ "help", 'h', NULL, "this text", NULL, NULL },
	{ "json", 'j', "FILE", "also write the comparison as JSON (schema latctl.compare);\n"
	  "- writes it to stdout instead of the tables", "<file>", NULL },
	{ "metric", OPT_METRIC, "M", "the primary metric (default p99.9; see 'latctl check --help')",
	  NULL, lat_metric_list },
	{ "strict", OPT_STRICT, NULL, "a difference of machine or run in the environment is an\n"
	  "error (exit 1); kernel rows may differ (a kernel A/B)", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL },
};

static const struct lat_cmd_opts compare_cmd = {
	.cmd = "latctl compare", .opt = compare_opts_table, .width = 21, .args = "<json>",
	.usage = usage,
};

static void usage(FILE *out)
{
	fputs("usage: latctl compare [options] BASE.json NEW.json [MORE.json...]\n"
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
	      "\n"
	      "options:\n", out);
	lat_opt_usage(out, &compare_cmd);
	fputs("\n"
	      "examples:\n"
	      "  latctl run grow --repeat 5 --json a.json\n"
	      "  latctl run grow --no-thp --repeat 5 --json b.json\n"
	      "  latctl compare a.json b.json\n"
	      "  latctl compare --format lkp a.json b.json    paste into a mail\n"
	      "  latctl compare bisect/good.json bisect/step-*.json\n"
	      "\n"
	      "exit status: 0 compared; 1 --strict and the machines or runs differ;\n"
	      "2 bad command line or input file\n", out);
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
		if (c == 'j') {
			o->json_path = optarg;
		} else if (c == OPT_STRICT) {
			o->strict = 1;
		} else if (c == OPT_METRIC) {
			if (take_metric(o, optarg))
				return LAT_PARSED_BAD;
		} else if (!strcmp(optarg, "text") || !strcmp(optarg, "lkp")) {
			o->lkp = !strcmp(optarg, "lkp");
		} else {
			fprintf(stderr, "latctl compare: --format '%s' is not valid; give text or lkp\n", optarg);
			return LAT_PARSED_BAD;
		}
	}
	if (argc - optind < 2 || argc - optind > MAX_FILES) {
		fprintf(stderr, "latctl compare: give a base and 1 to %d other results: latctl compare BASE.json NEW.json\n",
			MAX_FILES - 1);
		return LAT_PARSED_BAD;
	}
	for (o->n = 0; optind < argc; optind++)
		o->files[o->n++] = argv[optind];
	return LAT_PARSED_RUN;
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

static void print_all(const struct compare_opts *o)
{
	size_t i;

	for (i = 1; i < o->n; i++) {
		if (o->n > 2)
			fprintf(o->text, "\n%s -> %s\n", o->files[0], o->files[i]);
		else
			fputc('\n', o->text);
		if (o->lkp)
			lat_compare_print_lkp(o->text, o->docs[0], o->docs[i], o->primary);
		else
			lat_compare_print(o->text, o->docs[0], o->docs[i], o->primary);
	}
}

/* The whole comparison as a document of its own schema, written atomically. */
static int write_json(const struct compare_opts *o, int argc, char **argv)
{
	struct lat_result_file file = { 0 };
	cJSON *doc, *list;
	size_t i;
	int ret;

	if (lat_result_open(&file, o->json_path))
		return -1;
	doc = lat_result_new(argc, argv);
	cJSON_ReplaceItemInObject(doc, "schema", cJSON_CreateString(LAT_COMPARE_SCHEMA));
	cJSON_ReplaceItemInObject(doc, "schema_version", cJSON_CreateNumber(LAT_COMPARE_SCHEMA_VERSION));
	cJSON_AddItemToObject(doc, "files", cJSON_CreateStringArray(o->files, (int)o->n));
	cJSON_AddItemToObject(doc, "environment", lat_env_json((const cJSON *const *)o->docs, o->n));
	list = cJSON_AddArrayToObject(doc, "comparisons");
	for (i = 1; i < o->n; i++) {
		cJSON *c = lat_compare_json(o->docs[0], o->docs[i], o->primary);

		cJSON_AddStringToObject(c, "base", o->files[0]);
		cJSON_AddStringToObject(c, "new", o->files[i]);
		cJSON_AddItemToArray(list, c);
	}
	lat_result_finish(doc, LAT_EXIT_OK);
	ret = lat_result_commit(&file, doc);
	cJSON_Delete(doc);
	return ret ? -1 : 0;
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
	if (ret == LAT_EXIT_OK && o.json_path && write_json(&o, lat_main_argc, lat_main_argv))
		ret = LAT_EXIT_USAGE;
out:
	for (i = 0; i < o.n; i++)
		cJSON_Delete(o.docs[i]);
	return ret;
}
