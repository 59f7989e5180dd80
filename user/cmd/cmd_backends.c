// SPDX-License-Identifier: MIT
/*
 * `latctl backends [--json]`: which event backends this kernel allows and
 * why not the others, one line (backend_caps.h) or a JSON object. Exit 0
 * when at least one records causes here, 1 when none does.
 */
#include <stdio.h>
#include <string.h>

#include "backend/backend_caps.h"
#include "cmd/cmd.h"
#include "lib/json.h"
#include "lib/latctl.h"
#include "lib/opt.h"

/* {"latmon": {"usable", "loaded", "why"}, "bpf": {"usable", "why"}} */
static int print_json(const struct lat_backend_caps *c)
{
	cJSON *doc = cJSON_CreateObject(), *lm = cJSON_AddObjectToObject(doc, "latmon");
	cJSON *bpf = cJSON_AddObjectToObject(doc, "bpf");
	char *s;

	cJSON_AddBoolToObject(lm, "usable", c->latmon_loaded || c->latmon_loadable);
	cJSON_AddBoolToObject(lm, "loaded", c->latmon_loaded);
	cJSON_AddStringToObject(lm, "why", c->latmon_why);
	cJSON_AddBoolToObject(bpf, "usable", c->bpf);
	cJSON_AddStringToObject(bpf, "why", c->bpf_why);
	s = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!s)
		return -1;
	puts(s);
	cJSON_free(s);
	return 0;
}

static void usage(FILE *out)
{
	fputs("usage: latctl backends [--json]\n\n"
	      "Prints in one line which event backends (latmon, bpf) this kernel\n"
	      "allows and why not the others; --json as a JSON object\n"
	      "{\"latmon\": {\"usable\", \"loaded\", \"why\"}, \"bpf\": {\"usable\", \"why\"}}.\n\n"
	      "exit status: 0 when at least one backend records causes here, else 1.\n", out);
}

static const struct lat_opt backends_opts[] = {
	LAT_OPT_HELP,
	LAT_OPT_JSON("the answer as JSON"),
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts backends_cmd = {
	.cmd = "latctl backends", .opt = backends_opts, .usage = usage,
};

int cmd_backends(int argc, char **argv)
{
	struct lat_backend_caps c;
	char line[400];

	if (lat_opt_only_help(&backends_cmd, argc, argv) == LAT_PARSED_HELP)
		return LAT_EXIT_OK;
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--json"))) {
		fprintf(stderr, "latctl backends: unknown argument '%s'; it takes only --json\n", argv[1]);
		return LAT_EXIT_USAGE;
	}
	lat_backend_caps(&c);
	lat_backend_caps_line(&c, line, sizeof(line));
	if (argc == 2 ? print_json(&c) : puts(line) < 0)
		return LAT_EXIT_FAIL;
	return c.latmon_loaded || c.latmon_loadable || c.bpf ? LAT_EXIT_OK : LAT_EXIT_FAIL;
}
