// SPDX-License-Identifier: MIT
/* `latctl list [--json]`: the workloads, their modes, default size and
 * options. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/json.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "run/opts.h"
#include "workload/workload.h"

static void print_text(void)
{
	const struct workload_ops *const *w;

	for (w = lat_workloads; *w; w++) {
		printf("%-8s %s\n", (*w)->name, (*w)->summary);
		if ((*w)->modes)
			printf("         modes: %s (the first is the default)\n", (*w)->modes);
		printf("         default --iters %llu, --slow %s\n", (unsigned long long)(*w)->default_iters,
		       (*w)->default_slow ? (*w)->default_slow : LAT_DEFAULT_SLOW);
		lat_wl_opts_print(*w, "         ", stdout);
	}
}

/* {"workloads": [{"name", "summary", "modes": [...], "default_iters",
 * "unit", "options": [{"name", "arg", "help"}]}]} */
static cJSON *workload_json(const struct workload_ops *w)
{
	cJSON *o = cJSON_CreateObject(), *modes = cJSON_CreateArray(), *opts = cJSON_CreateArray();
	const struct lat_wl_opt *opt;
	const char *p = w->modes;
	char mode[32];
	size_t n;

	cJSON_AddStringToObject(o, "name", w->name);
	cJSON_AddStringToObject(o, "summary", w->summary);
	for (; p && *p; p += n + (p[n] == '|')) {
		n = strcspn(p, "|");
		snprintf(mode, sizeof(mode), "%.*s", (int)n, p);
		cJSON_AddItemToArray(modes, cJSON_CreateString(mode));
	}
	cJSON_AddItemToObject(o, "modes", modes);
	cJSON_AddNumberToObject(o, "default_iters", (double)w->default_iters);
	cJSON_AddStringToObject(o, "default_slow", w->default_slow ? w->default_slow : LAT_DEFAULT_SLOW);
	cJSON_AddStringToObject(o, "unit", w->unit_name);
	for (opt = w->opts; opt && opt->name; opt++) {
		cJSON *j = cJSON_CreateObject();

		cJSON_AddStringToObject(j, "name", opt->name);
		cJSON_AddItemToObject(j, "arg", opt->arg ? cJSON_CreateString(opt->arg) : cJSON_CreateNull());
		cJSON_AddStringToObject(j, "help", opt->help);
		cJSON_AddItemToArray(opts, j);
	}
	cJSON_AddItemToObject(o, "options", opts);
	return o;
}

static int print_json(void)
{
	const struct workload_ops *const *w;
	cJSON *doc = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(doc, "workloads");
	char *s;

	for (w = lat_workloads; *w; w++)
		cJSON_AddItemToArray(a, workload_json(*w));
	s = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!s)
		return LAT_EXIT_FAIL;
	puts(s);
	cJSON_free(s);
	return LAT_EXIT_OK;
}

static void usage(FILE *out)
{
	fputs("usage: latctl list [--json]\n\n"
	      "Lists each workload with its modes (the first is the default), its\n"
	      "default --iters and --slow and its own options of 'latctl run'; --json as a\n"
	      "JSON object {\"workloads\": [...]}.\n", out);
}

static const struct lat_opt list_opts[] = {
	LAT_OPT_HELP,
	LAT_OPT_JSON("the list as JSON"),
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts list_cmd = {
	.cmd = "latctl list", .opt = list_opts, .usage = usage,
};

int cmd_list(int argc, char **argv)
{
	if (lat_opt_only_help(&list_cmd, argc, argv) == LAT_PARSED_HELP)
		return LAT_EXIT_OK;
	if (argc == 2 && !strcmp(argv[1], "--json"))
		return print_json();
	if (argc > 1) {
		fprintf(stderr, "latctl list: unknown argument '%s'; it takes only --json\n", argv[1]);
		return LAT_EXIT_USAGE;
	}
	print_text();
	return LAT_EXIT_OK;
}
