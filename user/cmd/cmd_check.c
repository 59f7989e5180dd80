// SPDX-License-Identifier: MIT
/*
 * `latctl check RESULT.json ...`: a verdict for `git bisect run`: 0 good,
 * 1 bad, 125 cannot tell (too few runs, lost events, another environment,
 * a failed or missing run). Never 2 or 128+: in a bisect 2 would mark the
 * commit bad and 128+ would abort it, so a bad command line is 125 too.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/check.h"
#include "compare/envdiff.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "run/opts.h"
#include "compare/pair.h"
#include "compare/metric_list.h"
#include "doc/runs.h"

enum {
	OPT_BASELINE = LAT_OPT_LONG,
	OPT_DRY_RUN,
	OPT_LOOKS,
	OPT_MAX,
	OPT_METRIC,
	OPT_POOL,
	OPT_REGRESSION,
	OPT_RUNS_TOGETHER,
};

#define MAX_LOOKS 100

static void usage(FILE *out);

/* Alphabetical. */
static const struct lat_opt check_opts_table[] = {
	{ "baseline", OPT_BASELINE, "GOOD.json",
	  "compare with this result (needs 4+ runs a side);\n"
	  "repeatable: invocations of the good kernel, each\n"
	  "one unit (its median; needs 4+ of them)",
	  "<json>", NULL },
	{ "dry-run", OPT_DRY_RUN, NULL,
	  "check the options and read each --baseline, judge\n"
	  "nothing: 0 when a check could run (a bisect\n"
	  "driver's test before its first build)",
	  NULL, NULL },
	LAT_OPT_HELP,
	{ "looks", OPT_LOOKS, "K",
	  "this is one of at most K looks of a driver that\n"
	  "adds runs until check decides: each look's bounds\n"
	  "at 95% over the K (Bonferroni; default 1)",
	  NULL, NULL },
	{ "max", OPT_MAX, "METRIC=LIMIT",
	  "e.g. p99.9=2us, share:thp-zero=20%,\n"
	  "count:compaction=0, faults/iter=0.01 (repeatable)",
	  NULL, lat_metric_list },
	{ "metric", OPT_METRIC, "METRIC", "what --baseline compares (default p99.9; repeatable)",
	  NULL, lat_metric_list },
	{ "pool", OPT_POOL, NULL,
	  "the RESULT files are invocations of one kernel:\n"
	  "judged together, each one unit",
	  NULL, NULL },
	{ "regression", OPT_REGRESSION, "PCT", "tolerated worsening with --baseline (default 10%)",
	  NULL, NULL },
	{ "runs-together", OPT_RUNS_TOGETHER, NULL,
	  "the RESULT files are one kernel's, their runs\n"
	  "taken together, each run one unit (as a one-file\n"
	  "--baseline's are)",
	  NULL, NULL },
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts check_cmd = {
	.cmd = "latctl check", .opt = check_opts_table, .width = 28, .args = "<json>",
	.usage = usage,
};

static void usage(FILE *out)
{
	fputs("usage: latctl check [options] RESULT.json [MORE.json...]\n"
	      "\n"
	      "Says whether results of 'latctl run' are good, for 'git bisect run'.\n"
	      "Absolute limits (--max) hold for the median over a result's runs;\n"
	      "relative to a baseline, a metric is bad when it is significantly worse\n"
	      "(Mann-Whitney U, p < 0.05, as in compare) by more than --regression.\n"
	      "\n"
	      "options:\n", out);
	lat_opt_usage(out, &check_cmd);
	fputs("\n"
	      "metrics: p50 p90 p99 p99.9 p99.99 max mean faults/iter, 'huge pages' (fewer\n"
	      "is worse), fault:p50 fault:p90 fault:p99 (every page fault of the loop, with\n"
	      "a backend), count:CAUSE (slow iterations with it), share:CAUSE, own:CAUSE\n"
	      "(median time)\n"
	      "\n"
	      "examples:\n"
	      "  latctl check --max p99.9=2us r.json\n"
	      "  latctl check --baseline good.json --regression 10% step.json\n"
	      "  latctl check --baseline g1.json --baseline g2.json --baseline g3.json \\\n"
	      "               --baseline g4.json --pool n1.json n2.json n3.json n4.json\n"
	      "  git bisect run scripts/bisect/bisect-step.sh --baseline good.json -- grow --no-thp\n"
	      "\n"
	      "exit status: 0 good; 1 bad; 125 cannot tell (too few runs, lost events,\n"
	      "the environment differs from the baseline, the run failed or left no\n"
	      "result, bad command line); one line says which and why\n", out);
}

/* The verdict: one line, on stdout for good and bad, stderr for 125. */
static int verdict(int code, const char *why)
{
	if (code == CHECK_SKIP)
		fprintf(stderr, "latctl check: cannot tell (125): %s\n", why);
	else
		printf("latctl check: %s: %s\n", code == CHECK_GOOD ? "good" : "bad", why);
	return code;
}

/* LIMIT in the metric's unit: a time for ns, a percentage for shares. */
static int parse_limit(const struct lat_metric *m, const char *s, double *v)
{
	char *end;

	if (!strcmp(m->unit, "ns") && !strcmp(s, "0")) {
		*v = 0;
		return 0;
	}
	if (!strcmp(m->unit, "ns"))
		return lat_parse_duration_ns(s, 0, v);	/* a bare number is no time */
	*v = strtod(s, &end);
	if (end == s || *v < 0 || !isfinite(*v))
		return -1;
	if (!strcmp(m->unit, "%")) {
		*v /= 100;
		return strcmp(end, "%") ? -1 : 0;
	}
	return *end ? -1 : 0;
}

/* What a limit of unit looks like. */
static const char *limit_hint(const char *unit)
{
	if (!strcmp(unit, "ns"))
		return "a time with its unit: 800ns, 2us, 1.5ms or 1s (a bare number is refused)";
	return !strcmp(unit, "%") ? "a percentage such as 20%" : "a number";
}

/* "METRIC=LIMIT" (with_limit) or "METRIC" into l; spec is cut at '='.
 * -1 with one line in why. */
static int add_metric(struct limit *l, char *spec, int with_limit, char *why, size_t len)
{
	char *eq = strchr(spec, '=');

	if (with_limit != (eq != NULL)) {
		snprintf(why, len, "%s", with_limit ? "give METRIC=LIMIT, e.g. p99.9=2us" :
			 "give a metric name, e.g. p99.9");
		return -1;
	}
	if (eq)
		*eq = '\0';
	if (lat_metric_given(spec, &l->m, l->label, sizeof(l->label), why, len))
		return -1;
	if (eq && parse_limit(&l->m, eq + 1, &l->max)) {
		snprintf(why, len, "limit '%s' of %s is not valid; give %s", eq + 1, spec,
			 limit_hint(l->m.unit));
		return -1;
	}
	return 0;
}

/* --regression PCT ("10%"; a bare number is refused). */
static int parse_regression(const char *s, double *pct)
{
	char *end;

	*pct = strtod(s, &end);
	return end == s || strcmp(end, "%") || *pct < 0 || !isfinite(*pct) ? -1 : 0;
}

/* --max or --metric (opt) into list[*n]; -1 with o->why set when it is bad. */
static int take_metric(struct check_opts *o, const char *opt, struct limit *list, size_t *n,
		       char *arg, int with_limit)
{
	char why[512] = "too many";

	if (*n < MAX_LIMITS && !add_metric(&list[*n], arg, with_limit, why, sizeof(why))) {
		++*n;
		return 0;
	}
	snprintf(o->why, sizeof(o->why), "%s: %s", opt, why);
	return -1;
}

/* One option into o; -1 with o->why set when it is bad. */
static int take_option(struct check_opts *o, int c, char *arg)
{
	switch (c) {
	case OPT_POOL:
		o->pool = 1;
		return 0;
	case OPT_DRY_RUN:
		o->dry_run = 1;
		return 0;
	case OPT_RUNS_TOGETHER:
		o->pool = o->as_runs = 1;
		return 0;
	case OPT_LOOKS:
		if (!lat_parse_u64(arg, 1, MAX_LOOKS, &o->looks))
			return 0;
		snprintf(o->why, sizeof(o->why), "--looks '%s' is not valid; give a whole number from 1 to %d",
			 arg, MAX_LOOKS);
		return -1;
	case OPT_BASELINE:
		if (o->n_baseline < MAX_SIDE) {
			o->baseline[o->n_baseline++] = arg;
			return 0;
		}
		snprintf(o->why, sizeof(o->why), "--baseline: at most %d files", MAX_SIDE);
		return -1;
	case OPT_REGRESSION:
		if (!parse_regression(arg, &o->regression))
			return 0;
		snprintf(o->why, sizeof(o->why),
			 "--regression '%s' is not valid; give a percentage such as 10%%", arg);
		return -1;
	case OPT_MAX:
		return take_metric(o, "--max", o->limits, &o->n_limits, arg, 1);
	default:
		return take_metric(o, "--metric", o->metrics, &o->n_metrics, arg, 0);
	}
}

static char default_metric[] = "p99.9";

/* The options into o; a bad command line is in o->why. */
static enum lat_parsed parse(int argc, char **argv, struct check_opts *o)
{
	struct lat_optp p;
	int c;

	o->regression = DEFAULT_REGRESSION;
	o->looks = 1;
	lat_opt_begin(&p, &check_cmd);
	while ((c = lat_opt_next(&p, argc, argv)) != LAT_OPT_END) {
		if (c == LAT_OPT_DONE)
			return LAT_PARSED_HELP;
		if (c == LAT_OPT_BAD) {
			snprintf(o->why, sizeof(o->why), "%s", p.why);
			return LAT_PARSED_BAD;
		}
		if (take_option(o, c, optarg))
			return LAT_PARSED_BAD;
	}
	if (optind >= argc && !o->dry_run)
		snprintf(o->why, sizeof(o->why), "give a result: latctl check --max p99.9=2us RESULT.json");
	else if (argc - optind > MAX_SIDE)
		snprintf(o->why, sizeof(o->why), "at most %d results at once", MAX_SIDE);
	else if (!o->n_limits && !o->n_baseline)
		snprintf(o->why, sizeof(o->why), "nothing to check: give --max METRIC=LIMIT or --baseline GOOD.json");
	else if (o->n_metrics && !o->n_baseline)
		snprintf(o->why, sizeof(o->why), "--metric needs --baseline GOOD.json");
	if (!o->n_baseline || o->n_metrics)
		return o->why[0] ? LAT_PARSED_BAD : LAT_PARSED_RUN;
	add_metric(&o->metrics[0], default_metric, 0, o->why, sizeof(o->why));
	o->n_metrics = 1;
	return o->why[0] ? LAT_PARSED_BAD : LAT_PARSED_RUN;
}

/* Absolute limits: the first one exceeded, or all hold. */
static int check_limits(struct check_opts *o, const cJSON *doc, const char *path)
{
	char v[32], lim[32];
	size_t i, runs = lat_runs_count(doc);
	double med;

	for (i = 0; i < o->n_limits; i++) {
		const struct limit *l = &o->limits[i];

		med = lat_metric_median(doc, &l->m);
		if (isnan(med)) {
			snprintf(o->why, sizeof(o->why), "%s: %s has no value (this kernel or run did not report it)",
				 path, l->m.name);
			return CHECK_SKIP;
		}
		lat_pair_fmt(v, sizeof(v), med, l->m.unit);
		lat_pair_fmt(lim, sizeof(lim), l->max, l->m.unit);
		if (med > l->max) {
			snprintf(o->why, sizeof(o->why), "%s: %s %s > %s (median of %zu run%s)", path,
				 l->m.name, v, lim, runs, runs == 1 ? "" : "s");
			return CHECK_BAD;
		}
		snprintf(o->why, sizeof(o->why), "%s: %s %s <= %s%s (median of %zu run%s)", path,
			 l->m.name, v, lim, o->n_limits > 1 ? " and every other limit holds" : "",
			 runs, runs == 1 ? "" : "s");
	}
	return CHECK_GOOD;
}

/* What would settle an undecided change, after o->why: the runs a side
 * that would likely put the one-sided bound past the limit (its distance
 * from the estimate shrinks as 1 / sqrt(n)), or why runs will not. */
static void unsettled(struct check_opts *o, double est, double bound, size_t n)
{
	double need = INFINITY, dist = fabs(est - o->regression), width = fabs(bound - est);
	size_t len = strlen(o->why);

	if (isfinite(est) && isfinite(width) && dist >= 1e-9)
		need = ceil((double)n * (width / dist) * (width / dist));
	if (isfinite(est) && (!isfinite(width) || bound <= -100))
		snprintf(o->why + len, sizeof(o->why) - len,
			 "too few runs a side for a bound at this confidence (each metric and look asks more of it)");
	else if (need <= 1000)
		snprintf(o->why + len, sizeof(o->why) - len,
			 "about %.0f runs a side would likely settle it (run --repeat %.0f)", need, need);
	else if (isfinite(est) && dist < 1)
		snprintf(o->why + len, sizeof(o->why) - len,
			 "the change sits at the limit: more runs will not settle it soon");
	else
		snprintf(o->why + len, sizeof(o->why) - len,
			 "the runs spread too widely: over 1000 runs a side would be needed (a metric that varies less, such as fault:p50, settles sooner)");
}

/* The change in the direction of worse: +% is worse for most metrics, a
 * loss of huge pages for that one. The one-sided 95% bounds, ordered. */
static void worse(const struct lat_metric *m, const struct lat_pair *p, double *est,
		  double *lo, double *hi)
{
	int d = m->lower_worse ? -1 : 1;

	*est = isnan(p->change_pct) ? d * INFINITY : d * p->change_pct;
	*lo = d > 0 ? p->bound_lo : -p->bound_hi;
	*hi = d > 0 ? p->bound_hi : -p->bound_lo;
}

/* 1 with o->why when some run of the side has m and another has not: a
 * verdict on the runs that have it would rest on fewer than were made. */
static int side_gap(struct check_opts *o, const struct side *s, const struct lat_metric *m,
		    const char *what)
{
	size_t i, j, runs, with = 0, gap_doc = 0, gap_run = 0, total = 0;

	for (i = 0; i < s->n; i++) {
		runs = lat_runs_count(s->doc[i]);
		for (j = 0; j < runs; j++, total++) {
			if (!isnan(lat_metric_value(lat_run_at(s->doc[i], j), m)))
				with++;
			else if (!gap_run)
				gap_doc = i, gap_run = j + 1;
		}
	}
	if (!with || with == total)
		return 0;
	snprintf(o->why, sizeof(o->why), "%s: %s has no value in run %zu of %zu of %s, and a value in %zu other run%s: a verdict needs it in every run",
		 what, m->name, gap_run, lat_runs_count(s->doc[gap_doc]), s->path[gap_doc], with,
		 with == 1 ? "" : "s");
	return 1;
}

/* The confidence of a two-sided interval whose one-sided bounds err at
 * most (1 - LAT_PAIR_BOUND_CONF) / 2 over `over` tests (Bonferroni). */
static double conf_over(size_t over)
{
	return 1 - (1 - LAT_PAIR_BOUND_CONF) / (double)over;
}

/* "with 95% confidence", "... over the 2 metrics and 3 looks". */
static void conf_text(char *buf, size_t len, size_t k, size_t looks, int bad)
{
	int metrics = bad && k > 1;

	if (!metrics && looks == 1) {
		snprintf(buf, len, "with 95%% confidence");
		return;
	}
	snprintf(buf, len, "with 95%% confidence over the ");
	if (metrics)
		snprintf(buf + strlen(buf), len - strlen(buf), "%zu metrics%s", k,
			 looks > 1 ? " and " : "");
	if (looks > 1)
		snprintf(buf + strlen(buf), len - strlen(buf), "%zu looks", looks);
}

/* One of k metrics against the baseline, at one of o->looks looks: bad
 * when the change is shown to be worse than --regression (its one-sided
 * lower bound above it, at 95% over the k metrics and the looks:
 * Bonferroni, each at 5% / (k x looks)), good when it is shown to be within
 * (the one-sided upper bound below it, at 95% over the looks; all k must
 * be), else 125. */
static int check_one(struct check_opts *o, const struct side *bs, const struct side *ns,
		     const struct lat_metric *m, size_t k)
{
	const char *path = ns->name;
	char b[32], w[32], head[PATH_MAX + 160], conf[96], gconf[96];
	struct lat_pair p, pk, pg;
	double est, lo, hi, any;

	if (side_gap(o, bs, m, "the baseline") || side_gap(o, ns, m, path))
		return CHECK_SKIP;
	if (lat_pair_sides((const cJSON *const *)bs->doc, bs->n, (const cJSON *const *)ns->doc,
			   ns->n, m, &p) ||
	    lat_pair_sides_conf((const cJSON *const *)bs->doc, bs->n, (const cJSON *const *)ns->doc,
				ns->n, m, conf_over(k * o->looks), &pk) ||
	    lat_pair_sides_conf((const cJSON *const *)bs->doc, bs->n, (const cJSON *const *)ns->doc,
				ns->n, m, conf_over(o->looks), &pg))
		return CHECK_SKIP;
	if (p.missing) {
		snprintf(o->why, sizeof(o->why), "%s: %s has no value in %s (this kernel or run did not report it)",
			 path, m->name, p.base.n ? path : "the baseline");
		return CHECK_SKIP;
	}
	worse(m, &pk, &any, &lo, &any);		/* bad: over metrics and looks */
	worse(m, &pg, &any, &any, &hi);		/* good: over the looks */
	worse(m, &p, &est, &any, &any);
	conf_text(conf, sizeof(conf), k, o->looks, 1);
	conf_text(gconf, sizeof(gconf), k, o->looks, 0);
	lat_pair_fmt(b, sizeof(b), p.base.median, m->unit);
	lat_pair_fmt(w, sizeof(w), p.new.median, m->unit);
	if (isfinite(est))
		snprintf(head, sizeof(head), "%s: %s %s -> %s (%s%+.1f%%", path, m->name, b, w,
			 m->lower_worse ? "worse by " : "", est);
	else /* a change from 0 has no finite ratio */
		snprintf(head, sizeof(head), "%s: %s %s -> %s (from 0", path, m->name, b, w);
	if (lo > o->regression) {
		snprintf(o->why, sizeof(o->why), "%s, at least %+.1f%% %s, p=%.3f, n=%zu+%zu) over --regression %g%%",
			 head, lo, conf, p.p, p.base.n, p.new.n, o->regression);
		return CHECK_BAD;
	}
	if (hi < o->regression) {
		snprintf(o->why, sizeof(o->why), "%s, at most %+.1f%% %s, p=%.3f, n=%zu+%zu) within --regression %g%%",
			 head, hi, gconf, p.p, p.base.n, p.new.n, o->regression);
		return CHECK_GOOD;
	}
	snprintf(o->why, sizeof(o->why), "%s, bounds %+.1f%% .. %+.1f%% %s, p=%.3f, n=%zu+%zu): neither shown within nor over --regression %g%%; ",
		 head, lo, hi, conf, p.p, p.base.n, p.new.n, o->regression);
	unsettled(o, est, est > o->regression ? lo : hi, p.base.n < p.new.n ? p.base.n : p.new.n);
	return CHECK_SKIP;
}

/* The unit of a side in units_note: "invocations, " when it pools files. */
static const char *unit_of(const struct side *sd)
{
	return sd->n > 1 ? "invocations, " : "runs, ";
}

static const char mixed_note[] =
	"; mixed units: the side of one file has the runs of one invocation, "
	"whose spread lacks the drift between invocations (give each side several files)";

/* " [units: invocations, base 4, new 4; ICC ...: base 0.31, new 0.12]" when a
 * side pools; the new side's unit is named only when it differs. */
static void units_note(struct check_opts *o, const struct side *bs, const struct side *ns,
		       const struct lat_metric *m)
{
	double ib = lat_side_icc((const cJSON *const *)bs->doc, bs->n, m);
	double in = lat_side_icc((const cJSON *const *)ns->doc, ns->n, m);
	int mixed = (bs->n > 1) != (ns->n > 1);
	size_t len = strlen(o->why);
	char bicc[32], nicc[32];

	if (bs->n == 1 && ns->n == 1)
		return;
	lat_icc_fmt(bicc, sizeof(bicc), "base", ib);
	lat_icc_fmt(nicc, sizeof(nicc), "new", in);
	snprintf(o->why + len, sizeof(o->why) - len,
		 " [units: %sbase %zu, %snew %zu; ICC of the runs in one invocation: %s, %s%s]",
		 unit_of(bs), lat_side_units((const cJSON *const *)bs->doc, bs->n),
		 mixed ? unit_of(ns) : "", lat_side_units((const cJSON *const *)ns->doc, ns->n),
		 bicc, nicc, mixed ? mixed_note : "");
}

/* " [the machines differ in zero page, first touch]" after the verdict. */
static void machines_note(struct check_opts *o, const struct side *bs, const struct side *ns)
{
	const cJSON *docs[2] = { bs->doc[0], ns->doc[0] };
	size_t len = strlen(o->why);
	char names[256];

	if (lat_env_facts_differ(docs, 2, names, sizeof(names)))
		snprintf(o->why + len, sizeof(o->why) - len, " [the machines differ in %s]", names);
}

/* " [devices: baseline qemu-01; new qemu-02]" when the two sides ran on
 * lab devices that are not the same ones. */
static void devices_note(struct check_opts *o, const struct side *bs, const struct side *ns)
{
	char b[256], n[256];
	size_t len = strlen(o->why);

	lat_env_devices((const cJSON *const *)bs->doc, bs->n, b, sizeof(b));
	lat_env_devices((const cJSON *const *)ns->doc, ns->n, n, sizeof(n));
	if ((b[0] || n[0]) && strcmp(b, n))
		snprintf(o->why + len, sizeof(o->why) - len, " [devices: baseline %s; %s %s]",
			 b[0] ? b : "none named", ns->name, n[0] ? n : "none named");
}

/* Relative check of every --metric, in any order: bad when one is shown
 * bad, else 125 when one cannot be told, else good. */
static int check_baseline(struct check_opts *o, const struct side *bs, struct side *ns)
{
	static char why[sizeof(o->why)];
	size_t need = lat_pair_min_runs(), i, nb, nn;
	int ret = CHECK_GOOD;

	if (!check_sides_match(o, bs, ns))
		return CHECK_SKIP;
	if (o->as_runs && check_runs_together(ns)) {
		snprintf(o->why, sizeof(o->why), "out of memory taking the runs together");
		return CHECK_SKIP;
	}
	nb = lat_side_units((const cJSON *const *)bs->doc, bs->n);
	nn = lat_side_units((const cJSON *const *)ns->doc, ns->n);
	if (nb < need || nn < need) {
		snprintf(o->why, sizeof(o->why), "too few runs: the baseline has %zu, %s has %zu; a significant difference needs %zu a side (run --repeat %zu, or %zu invocations)",
			 nb, ns->name, nn, need, need, need);
		return CHECK_SKIP;
	}
	for (i = 0; i < o->n_metrics && ret != CHECK_BAD; i++) {
		int r = check_one(o, bs, ns, &o->metrics[i].m, o->n_metrics);

		units_note(o, bs, ns, &o->metrics[i].m);
		if (r == CHECK_BAD || (r == CHECK_SKIP && ret == CHECK_GOOD)) {
			ret = r;
			memcpy(why, o->why, sizeof(why));
		}
	}
	if (ret != CHECK_GOOD)
		memcpy(o->why, why, sizeof(why));
	else if (o->n_metrics > 1)
		snprintf(o->why + strlen(o->why), sizeof(o->why) - strlen(o->why),
			 "; the other %zu --metric within too", o->n_metrics - 1);
	machines_note(o, bs, ns);
	devices_note(o, bs, ns);
	return ret;
}

/* Verdict of one side: each file's limits first, then the baseline. */
static int check_side(struct check_opts *o, const struct side *base, char *const *paths, size_t n)
{
	static struct side new;
	size_t i;
	int ret = CHECK_GOOD;

	if (check_load_side(o, paths, n, &new, 0) || check_given_twice(o, base, &new))
		ret = CHECK_SKIP;
	for (i = 0; i < new.n && ret == CHECK_GOOD; i++)
		ret = check_limits(o, new.doc[i], new.path[i]);
	if (ret == CHECK_GOOD && base->n)
		ret = check_baseline(o, base, &new);
	check_free_side(&new);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	static struct check_opts o;
	static struct side base;
	int ret, i;

	memset(&o, 0, sizeof(o));
	ret = parse(argc, argv, &o);
	if (ret)
		return ret == LAT_PARSED_HELP ? CHECK_GOOD : verdict(CHECK_SKIP, o.why);
	if (check_load_side(&o, (char *const *)o.baseline, o.n_baseline, &base, 1)) {
		check_free_side(&base);
		return verdict(CHECK_SKIP, o.why);
	}
	if (o.dry_run) {
		check_free_side(&base);
		printf("latctl check: the options are valid%s\n", o.n_baseline ? " and every --baseline is usable" : "");
		return CHECK_GOOD;
	}
	ret = CHECK_GOOD;
	if (o.pool)
		ret = check_side(&o, &base, argv + optind, (size_t)(argc - optind));
	for (i = optind; !o.pool && i < argc && ret == CHECK_GOOD; i++)
		ret = check_side(&o, &base, argv + i, 1);
	check_free_side(&base);
	return verdict(ret, o.why);
}
