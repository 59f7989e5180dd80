// SPDX-License-Identifier: MIT
/*
 * Workload options: each workload declares its own (struct lat_wl_opt in
 * its wl_NAME.c); this file parses them by type into the workload's config,
 * rejects another workload's option, and prints and records them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "workload/workload.h"

static int parse_flag(const char *opt, const char *arg, void *dst)
{
	(void)opt, (void)arg;
	*(int *)dst = 1;
	return 0;
}

static int parse_count(const char *opt, const char *arg, void *dst)
{
	uint64_t v;

	if (lat_opt_parse_count(opt, arg, 1, LAT_WL_COUNT_MAX, &v))
		return -EINVAL;
	*(int *)dst = (int)v;
	return 0;
}

static int parse_rate(const char *opt, const char *arg, void *dst)
{
	int ret = lat_parse_double(arg, dst);

	if (!ret && *(double *)dst > 1e9)
		ret = -ERANGE;
	return ret ? lat_opt_bad_value(opt, arg, ret, "requests per second, e.g. 1000 (at most 1e9)") : 0;
}

static int parse_duration(const char *opt, const char *arg, void *dst)
{
	double ns;
	int ret = lat_parse_duration_ns(arg, 0, &ns);

	if (ret)
		return lat_opt_bad_value(opt, arg, ret,
					 "a time with its unit, such as 10s or 500ms (a bare number is refused)");
	*(double *)dst = ns / 1e9;
	return 0;
}

static cJSON *json_bool(const void *v) { return cJSON_CreateBool(*(const int *)v); }
static cJSON *json_int(const void *v) { return cJSON_CreateNumber(*(const int *)v); }
static cJSON *json_double(const void *v) { return cJSON_CreateNumber(*(const double *)v); }

/* What each type of option is, by enum lat_wl_opt_type. */
static const struct {
	int has_value;
	int (*parse)(const char *opt, const char *arg, void *dst);
	cJSON *(*json)(const void *v);
} types[] = {
	[LAT_WL_OPT_FLAG]	= { 0, parse_flag, json_bool },
	[LAT_WL_OPT_COUNT]	= { 1, parse_count, json_int },
	[LAT_WL_OPT_RATE]	= { 1, parse_rate, json_double },
	[LAT_WL_OPT_DURATION]	= { 1, parse_duration, json_double },
};

/* ops's declaration of an option named name, or NULL. */
static const struct lat_wl_opt *declared(const struct workload_ops *ops, const char *name)
{
	const struct lat_wl_opt *opt;

	for (opt = ops->opts; opt && opt->name; opt++)
		if (!strcmp(opt->name, name))
			return opt;
	return NULL;
}

/* The distinct options, built once from the workload table. */
static const struct lat_wl_opt *distinct[LAT_WL_OPT_MAX + 1];

static void collect(void)
{
	const struct workload_ops *const *w;
	const struct lat_wl_opt *opt;
	size_t n = 0, i;

	for (w = lat_workloads; *w; w++) {
		for (opt = (*w)->opts; opt && opt->name; opt++) {
			for (i = 0; i < n && strcmp(distinct[i]->name, opt->name); i++)
				;
			if (i < n)
				continue;
			if (n == LAT_WL_OPT_MAX) {
				fprintf(stderr, "latctl: more than %d workload options; raise LAT_WL_OPT_MAX\n",
					LAT_WL_OPT_MAX);
				abort();
			}
			distinct[n++] = opt;
		}
	}
}

const struct lat_wl_opt *lat_wl_opt_at(size_t i)
{
	if (!distinct[0])
		collect();
	return i < LAT_WL_OPT_MAX ? distinct[i] : NULL;
}

int lat_wl_opt_has_value(const struct lat_wl_opt *opt)
{
	return types[opt->type].has_value;
}

int lat_wl_opt_parse(const struct lat_wl_opt *opt, const char *arg, void *dst)
{
	char name[64];

	snprintf(name, sizeof(name), "--%s", opt->name);
	return types[opt->type].parse(name, arg, dst) ? -EINVAL : 0;
}

int lat_wl_opts_apply(const struct workload_ops *ops, const char *const wl_arg[LAT_WL_OPT_MAX])
{
	const struct lat_wl_opt *opt, *mine;
	size_t i;

	if (ops->config)
		memset(ops->config, 0, ops->config_size);
	for (i = 0; (opt = lat_wl_opt_at(i)); i++) {
		if (!wl_arg[i])
			continue;
		mine = declared(ops, opt->name);
		if (!mine) {
			fprintf(stderr, "latctl: --%s does not apply to %s; 'latctl list' shows what each workload takes\n",
				opt->name, ops->name);
			return -EINVAL;
		}
		if (lat_wl_opt_parse(mine, wl_arg[i], (char *)ops->config + mine->offset))
			return -EINVAL;
	}
	return 0;
}

void lat_wl_opts_print(const struct workload_ops *ops, const char *indent, FILE *out)
{
	const struct lat_wl_opt *opt;
	char name[64];

	for (opt = ops->opts; opt && opt->name; opt++) {
		snprintf(name, sizeof(name), "--%s%s%s", opt->name, opt->arg ? " " : "",
			 opt->arg ? opt->arg : "");
		fprintf(out, "%s%-16s %s\n", indent, name, opt->help);
	}
}

void lat_wl_opts_usage(FILE *out)
{
	const struct workload_ops *const *w;

	fputs("options of one workload (the others reject them):\n", out);
	for (w = lat_workloads; *w; w++) {
		if (!(*w)->opts || !(*w)->opts->name)
			continue;
		fprintf(out, "  %s:\n", (*w)->name);
		lat_wl_opts_print(*w, "      ", out);
	}
}

void lat_wl_opts_json(cJSON *j, const struct workload_ops *ops)
{
	static const double zero[2];	/* 0 as an int or a double */
	const struct lat_wl_opt *opt, *mine;
	size_t i;

	for (i = 0; (opt = lat_wl_opt_at(i)); i++) {
		mine = ops ? declared(ops, opt->name) : NULL;
		if (mine)
			cJSON_AddItemToObject(j, mine->json_key, types[mine->type].json(
				(const char *)ops->config + mine->offset));
		else
			cJSON_AddItemToObject(j, opt->json_key, types[opt->type].json(zero));
	}
}
