// SPDX-License-Identifier: MIT
/*
 * The inputs of `latctl plot` for a comparison: BASE.json and NEW.json,
 * read and compared as `latctl compare` does; or COMPARISON.json, what
 * `compare --json` wrote, with the two results it names looked for as
 * given, then next to it. Drawn by plot_compare.c.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/compare.h"
#include "compare/pair.h"
#include "lib/latctl.h"
#include "plot/plot.h"
#include "plot/plot_int.h"
#include "doc/result.h"
#include "doc/runs.h"
#include "report/render.h"

struct job {
	cJSON *cmp;			/* one comparison */
	cJSON *docs[2];			/* the results; NULL: not found */
	const char *origin;
	char why[PATH_MAX + 96];
};

static int draw_job(void *arg, FILE *out)
{
	struct job *j = arg;

	return lat_plot_compare_svg(j->cmp, (const cJSON *const *)j->docs, j->origin, j->why, out);
}

/* BASE.json NEW.json: read both as compare does and compare them. */
static int job_of_pair(struct job *j, const char *const in[2])
{
	int i;

	for (i = 0; i < 2; i++)
		if (lat_runs_load(in[i], &j->docs[i]))
			return -EINVAL;
	j->cmp = lat_compare_json(&(struct lat_side){ (const cJSON *const *)&j->docs[0], 1 },
				  &(struct lat_side){ (const cJSON *const *)&j->docs[1], 1 }, NULL);
	if (!j->cmp)
		return -ENOMEM;
	cJSON_AddStringToObject(j->cmp, "base", in[0]);
	cJSON_AddStringToObject(j->cmp, "new", in[1]);
	j->origin = "the comparison";
	return 0;
}

/* A result a comparison names: as given, else next to the comparison;
 * -ENOENT (nothing said) when neither is there. */
static int find_result(const char *cmp_path, const char *name, cJSON **doc)
{
	char dir[PATH_MAX], path[PATH_MAX * 2 + 2];

	if (!access(name, R_OK))
		return lat_runs_load(name, doc);
	snprintf(dir, sizeof(dir), "%s", cmp_path);
	snprintf(path, sizeof(path), "%s/%s", dirname(dir), name);
	if (name[0] == '/' || access(path, R_OK))
		return -ENOENT;
	return lat_runs_load(path, doc);
}

/* COMPARISON.json: its one comparison, and the two results it names when
 * they can be read (else the picture goes without the histograms). */
static int job_of_comparison(struct job *j, cJSON *doc, const char *path)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "comparisons");
	const char *name;
	int i;

	if (cJSON_GetArraySize(list) != 1 || !cJSON_IsObject(cJSON_GetArrayItem(list, 0))) {
		fprintf(stderr, "latctl plot: %s holds %d comparisons; plot one pair: latctl plot BASE.json NEW.json\n",
			path, cJSON_GetArraySize(list));
		return -EINVAL;
	}
	j->cmp = cJSON_DetachItemFromArray((cJSON *)list, 0);
	j->origin = path;
	for (i = 0; i < 2 && !j->why[0]; i++) {
		name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j->cmp, i ? "new" : "base"));
		if (name && !find_result(path, name, &j->docs[i]))
			continue;
		snprintf(j->why, sizeof(j->why), "cannot read the %s result %s", i ? "new" : "base",
			 name ? name : "(not named)");
		fprintf(stderr, "latctl plot: %s: %s; the histograms are left out\n", path, j->why);
	}
	if (j->why[0])
		for (i = 0; i < 2; i++)
			cJSON_Delete(j->docs[i]), j->docs[i] = NULL;
	return 0;
}

/* 1: a comparison this latctl reads; 0: not a comparison; -EINVAL: a
 * comparison of another schema version (said). */
static int is_comparison(const cJSON *doc, const char *path)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "schema");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");

	if (!cJSON_IsString(s) || strcmp(s->valuestring, LAT_COMPARE_SCHEMA))
		return 0;
	if (cJSON_IsNumber(v) && v->valuedouble == LAT_COMPARE_SCHEMA_VERSION)
		return 1;
	fprintf(stderr, "latctl plot: %s has compare schema_version %g; this latctl reads version %d\n",
		path, cJSON_IsNumber(v) ? v->valuedouble : 0, LAT_COMPARE_SCHEMA_VERSION);
	return -EINVAL;
}

int lat_plot_compare_cmd(const char *const in[2], const char *out)
{
	struct job j = { 0 };
	cJSON *doc = NULL;
	int ret, i;

	if (in[1]) {
		ret = job_of_pair(&j, in);
	} else {
		if (lat_json_read(in[0], &doc))
			return LAT_EXIT_USAGE;
		ret = is_comparison(doc, in[0]);
		if (!ret) {
			cJSON_Delete(doc);
			return -1;
		}
		ret = ret < 0 ? ret : job_of_comparison(&j, doc, in[0]);
	}
	if (!ret)
		ret = lat_plot_write(out, draw_job, &j);
	cJSON_Delete(j.cmp);
	cJSON_Delete(doc);
	for (i = 0; i < 2; i++)
		cJSON_Delete(j.docs[i]);
	return ret == -ENOMEM || ret == -EIO ? LAT_EXIT_FAIL : ret ? LAT_EXIT_USAGE : LAT_EXIT_OK;
}
