// SPDX-License-Identifier: MIT
/* latctl check: its result files read, refused when they cannot be judged
 * (a failed run, lost events, a file given twice, another machine). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compare/envdiff.h"
#include "cmd/check.h"
#include "report/render.h"

/* Why a document cannot be judged (failed, incomplete), 0 when it can. */
static int unusable(const cJSON *doc, const char *path, char *why, size_t len)
{
	const cJSON *ec = cJSON_GetObjectItemCaseSensitive(doc, "exit_code");
	double code = cJSON_GetNumberValue(ec);
	size_t n = lat_runs_count(doc), i;
	double lost;

	if (!cJSON_IsNumber(ec)) {
		snprintf(why, len, "%s: the result has no exit code: not a whole result of latctl run", path);
		return 1;
	}
	if (code != 0) {
		snprintf(why, len, "%s: the run failed (exit code %g)", path, code);
		return 1;
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "incomplete"))) {
		snprintf(why, len, "%s: the result is marked incomplete", path);
		return 1;
	}
	for (i = 0; i < n; i++) {
		const cJSON *rc = cJSON_GetObjectItemCaseSensitive(lat_run_at(doc, i), "exit_code");

		if (cJSON_IsNumber(rc) && rc->valuedouble != 0) {
			snprintf(why, len, "%s: run %zu of %zu failed (exit code %g)", path, i + 1, n,
				 rc->valuedouble);
			return 1;
		}
		lost = lat_run_lost(lat_run_at(doc, i));
		if (lost > 0) {
			snprintf(why, len, "%s: incomplete: run %zu of %zu lost %.0f events; rerun with more --events or fewer iterations",
				 path, i + 1, n, lost);
			return 1;
		}
	}
	return 0;
}

/* The environment rows that must match the baseline: machine and run. */
static int env_matches(struct check_opts *o, const cJSON *base, const cJSON *doc, const char *path)
{
	const cJSON *docs[2] = { base, doc };
	const struct lat_env_row *r = lat_env_first_difference(docs, 2,
		(1U << LAT_ENV_MACHINE) | (1U << LAT_ENV_RUN));
	char a[256], b[256];

	if (!r)
		return 1;
	snprintf(o->why, sizeof(o->why), "%s: the environment differs from the baseline: %s is '%s' there, '%s' here",
		 path, r->name, r->get(base, r, a, sizeof(a)), r->get(doc, r, b, sizeof(b)));
	return 0;
}

/* Every file of both sides against the baseline's first. */
int check_sides_match(struct check_opts *o, const struct side *base, const struct side *new)
{
	size_t i;

	for (i = 1; i < base->n; i++)
		if (!env_matches(o, base->doc[0], base->doc[i], base->path[i]))
			return 0;
	for (i = 0; i < new->n; i++)
		if (!env_matches(o, base->doc[0], new->doc[i], new->path[i]))
			return 0;
	return 1;
}

/* A result file that may be missing: a run that failed or timed out; a
 * baseline that is not there is a wrong path. */
static int load(struct check_opts *o, const char *path, cJSON **doc, int baseline)
{
	if (access(path, R_OK)) {
		snprintf(o->why, sizeof(o->why), baseline ? "--baseline %s: %s" :
			 "no result in %s: the run failed or timed out (%s)", path, strerror(errno));
		return -1;
	}
	if (lat_runs_load(path, doc)) {	/* it printed why */
		snprintf(o->why, sizeof(o->why), "%s is not a usable result (see above)", path);
		return -1;
	}
	if (unusable(*doc, path, o->why, sizeof(o->why))) {
		cJSON_Delete(*doc);
		*doc = NULL;
		return -1;
	}
	return 0;
}

/* 1 with o->why when a file is given twice, on one side or both: its
 * runs would count as independent twice. */
int check_given_twice(struct check_opts *o, const struct side *base, const struct side *new)
{
	const char *paths[2 * MAX_SIDE];
	size_t n = 0, i, j;

	for (i = 0; i < base->n; i++)
		paths[n++] = base->path[i];
	for (i = 0; i < new->n; i++)
		paths[n++] = new->path[i];
	if (!lat_paths_twice(paths, n, &i, &j))
		return 0;
	snprintf(o->why, sizeof(o->why),
		 "%s and %s are one file, given twice%s: its runs would count twice", paths[i],
		 paths[j], i < base->n && j >= base->n ? " (as --baseline and as a result)" : "");
	return 1;
}

/* The files of a side, loaded; -1 with o->why at the first that fails. */
int check_load_side(struct check_opts *o, char *const *paths, size_t n, struct side *s,
		     int baseline)
{
	for (s->n = 0; s->n < n; s->n++) {
		s->path[s->n] = paths[s->n];
		if (load(o, paths[s->n], &s->doc[s->n], baseline))
			return -1;
	}
	snprintf(s->name, sizeof(s->name), n > 1 ? "%s (+%zu more)" : "%s", n ? paths[0] : "", n - 1);
	return 0;
}

void check_free_side(struct side *s)
{
	for (size_t i = 0; i < s->n; i++)
		cJSON_Delete(s->doc[i]);
	s->n = 0;
}

/* One run of doc i as a detached copy: its run of the repeat list, or the
 * document itself without a repeat section. */
static cJSON *run_copy(const cJSON *doc, size_t i)
{
	cJSON *c = cJSON_Duplicate(lat_run_at(doc, i), 1);

	if (c)
		cJSON_DeleteItemFromObjectCaseSensitive(c, LAT_REPEAT_KEY);
	return c;
}

int check_runs_together(struct side *s)
{
	cJSON *rep, *list;
	size_t i, j;

	if (s->n < 2)
		return 0;
	list = cJSON_CreateArray();
	for (i = 0; list && i < s->n; i++)
		for (j = 0; j < lat_runs_count(s->doc[i]); j++)
			if (!cJSON_AddItemToArray(list, run_copy(s->doc[i], j)))
				goto nomem;
	rep = list ? cJSON_CreateObject() : NULL;
	if (!rep || !cJSON_AddItemToObject(rep, LAT_REPEAT_RUNS_KEY, list))
		goto nomem;
	cJSON_DeleteItemFromObjectCaseSensitive(s->doc[0], LAT_REPEAT_KEY);
	if (!cJSON_AddItemToObject(s->doc[0], LAT_REPEAT_KEY, rep)) {
		cJSON_Delete(rep);
		return -1;
	}
	snprintf(s->name, sizeof(s->name), "%s (+%zu more, their runs together)", s->path[0],
		 s->n - 1);
	for (i = 1; i < s->n; i++)
		cJSON_Delete(s->doc[i]);
	s->n = 1;
	return 0;
nomem:
	cJSON_Delete(list);
	return -1;
}
