// SPDX-License-Identifier: MIT
/*
 * The text report, rendered only from the result document, so that
 * `latctl run` and `latctl report FILE.json` print the same bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "join.h"
#include "procs.h"
#include "result.h"
#include "workload.h"

/* Lookup context: the first missing or mistyped key, for one error line. */
struct rd {
	const char *bad;
};

static const cJSON *get(struct rd *r, const cJSON *o, const char *key, int type)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v || !(v->type & type)) {
		if (!r->bad)
			r->bad = key;
		return NULL;
	}
	return v;
}

static double num(struct rd *r, const cJSON *o, const char *key)
{
	const cJSON *v = get(r, o, key, cJSON_Number);

	return v ? v->valuedouble : 0;
}

/* A count or bound in [0, 2^64): anything else (a negative, 1e300) marks
 * the document damaged instead of a float-to-integer overflow (fuzz_result). */
static uint64_t count_num(struct rd *r, const cJSON *o, const char *key)
{
	double v = num(r, o, key);

	if (v >= 0 && v < 18446744073709551616.0)
		return (uint64_t)v;
	if (!r->bad)
		r->bad = key;
	return 0;
}

static const char *str(struct rd *r, const cJSON *o, const char *key)
{
	const cJSON *v = get(r, o, key, cJSON_String);

	return v ? v->valuestring : "?";
}

/* A string that may be null: "none" then. */
static const char *opt_str(struct rd *r, const cJSON *o, const char *key)
{
	const cJSON *v = get(r, o, key, cJSON_String | cJSON_NULL);

	return v && cJSON_IsString(v) && *v->valuestring ? v->valuestring : "none";
}

static const cJSON *sub(struct rd *r, const cJSON *o, const char *key)
{
	static const cJSON empty = { .type = cJSON_Object };
	const cJSON *v = get(r, o, key, cJSON_Object);

	return v ? v : &empty;
}

/* A counter that may be null (not available on this kernel). */
static void put_count(FILE *out, struct rd *r, const cJSON *o, const char *key,
		      const char *sign)
{
	const cJSON *v = get(r, o, key, cJSON_Number | cJSON_NULL);

	if (v && cJSON_IsNumber(v))
		fprintf(out, "%s%.0f", sign, v->valuedouble);
	else
		fputs("n/a", out);
}

/* "push" -> "pushes", "request" -> "requests". */
static void plural(const char *unit, char *buf, size_t len)
{
	size_t n = strlen(unit);
	int es = n && (strchr("sxz", unit[n - 1]) ||
		       (n > 1 && unit[n - 1] == 'h' && strchr("cs", unit[n - 2])));

	snprintf(buf, len, "%s%s", unit, es ? "es" : "s");
}

static void render_header(FILE *out, struct rd *r, const cJSON *doc)
{
	const cJSON *env = sub(r, doc, "environment");

	fprintf(out, "$ %s\n", str(r, doc, "command_line"));
	fprintf(out, "kernel %s on %s, %.0f CPUs online, started %s\n",
		str(r, env, "kernel_release"), str(r, env, "cpu_model"),
		num(r, env, "online_cpus"), str(r, doc, "start_time"));
	fprintf(out, "TSC %.3f GHz (%s)\n", num(r, env, "tsc_hz") / 1e9,
		str(r, env, "tsc_hz_source"));
	fprintf(out, "THP enabled=%s defrag=%s; cpufreq governor: %s; isolated CPUs: %s\n",
		opt_str(r, env, "thp_enabled"), opt_str(r, env, "thp_defrag"),
		opt_str(r, env, "cpufreq_governor"), opt_str(r, env, "isolcpus"));
}

static void render_run(FILE *out, struct rd *r, const cJSON *doc, const char *units)
{
	const cJSON *run = sub(r, doc, "run"), *clock = sub(r, doc, "clock");
	const cJSON *pinned = get(r, run, "pinned", cJSON_True | cJSON_False);

	fprintf(out, "%s, mode %s: %.0f %s, ", str(r, run, "workload"),
		opt_str(r, run, "mode"), num(r, sub(r, doc, "summary"), "count"), units);
	if (cJSON_IsTrue(pinned))
		fprintf(out, "pinned to CPU %.0f\n", num(r, run, "cpu_first"));
	else
		fprintf(out, "not pinned (first on CPU %.0f, last on CPU %.0f)\n",
			num(r, run, "cpu_first"), num(r, run, "cpu_last"));
	fprintf(out, "clock: one pair of TSC reads costs %.0f ns; every time below includes it\n",
		num(r, clock, "pair_ns"));
}

static void render_table(FILE *out, struct rd *r, const cJSON *doc, const char *unit)
{
	static const char *const keys[] = { "min_ns", "p50_ns", "p90_ns", "p99_ns",
		"p99_9_ns", "p99_99_ns", "max_ns" };
	const cJSON *s = sub(r, doc, "summary");
	char label[40];
	size_t i;

	fprintf(out, "\n%-16s %9s %9s %9s %9s %9s %9s %11s %9s\n", "", "min", "p50",
		"p90", "p99", "p99.9", "p99.99", "max", "mean");
	snprintf(label, sizeof(label), "%s (ns)", unit);
	fprintf(out, "%-16s", label);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		fprintf(out, i == 6 ? " %11.0f" : " %9.0f", num(r, s, keys[i]));
	fprintf(out, " %9.1f\n", num(r, s, "mean_ns"));
}

static void render_tail(FILE *out, struct rd *r, const cJSON *doc, const char *units)
{
	const cJSON *s = sub(r, doc, "summary");
	double p50 = num(r, s, "p50_ns");

	if (p50 <= 0)
		p50 = 1;
	fprintf(out, "tail: p99/p50 = %.1fx   p99.9/p50 = %.1fx   max/p50 = %.0fx\n",
		num(r, s, "p99_ns") / p50, num(r, s, "p99_9_ns") / p50,
		num(r, s, "max_ns") / p50);
	fprintf(out, "total %.1f ms; the slowest 0.1%% of %s take %.1f%% of it\n",
		num(r, s, "total_ns") / 1e6, units, 100 * num(r, s, "slowest_0_1_share"));
}

static void render_counters(FILE *out, struct rd *r, const cJSON *doc)
{
	const cJSON *c = sub(r, doc, "counters");

	fputs("during the timed loop: minor page faults ", out);
	put_count(out, r, c, "minor_faults", "");
	fputs(", major ", out);
	put_count(out, r, c, "major_faults", "");
	fputs("; context switches ", out);
	put_count(out, r, c, "voluntary_ctxsw", "");
	fputs(" voluntary, ", out);
	put_count(out, r, c, "involuntary_ctxsw", "");
	fputs(" involuntary (preempted)\n", out);
	fputs("migrations seen: ", out);
	put_count(out, r, c, "migrations_within", "");
	fputs(" inside an iteration, ", out);
	put_count(out, r, c, "migrations_between", "");
	fputs(" between iterations\n", out);
	fputs("huge pages: AnonHugePages ", out);
	put_count(out, r, c, "anon_huge_pages_kb", "");
	fputs(" kB after the loop; thp_fault_alloc ", out);
	put_count(out, r, c, "thp_fault_alloc", "+");
	fputs(", thp_fault_fallback ", out);
	put_count(out, r, c, "thp_fault_fallback", "+");
	fputs(" (whole system)\nfree blocks of 2 MiB or more before the run: ", out);
	put_count(out, r, c, "free_2m_blocks_before", "");
	fputc('\n', out);
}

static void render_extras(FILE *out, struct rd *r, const cJSON *doc)
{
	const char *name = str(r, sub(r, doc, "run"), "workload");
	const cJSON *extras = cJSON_GetObjectItemCaseSensitive(doc, "extras");
	const struct workload_ops *ops = lat_workload_find(name);

	if (!extras || cJSON_IsNull(extras))
		return;
	if (ops && ops->print_extras)
		ops->print_extras(extras, out);
	else if (!ops)
		fprintf(out, "(extras of workload '%s' not shown: this latctl does not know it)\n", name);
}

static void render_hist(FILE *out, struct rd *r, const cJSON *doc, const char *units)
{
	const cJSON *h = sub(r, doc, "histogram");
	const cJSON *list = get(r, h, "buckets", cJSON_Array), *b;

	fprintf(out, "\nhistogram of %s in ns: each bucket twice as wide as the one above;\n"
		"four # = ten times more %s\n", units, units);
	cJSON_ArrayForEach(b, list)
		lat_hist_print_line(out, count_num(r, b, "lo"), count_num(r, b, "hi"),
				    count_num(r, b, "count"));
}

/* "slow pushes (slower than p99.9 = 812 ns): 300, the 100000 slowest listed in the JSON result" */
static void render_slow(FILE *out, struct rd *r, const cJSON *doc, const char *units)
{
	const cJSON *s = sub(r, doc, "slow");
	double count = num(r, s, "count"), listed = num(r, s, "listed");

	get(r, s, "iterations", cJSON_Array);
	fprintf(out, "\nslow %s (slower than %s = %.0f ns): %.0f", units,
		str(r, s, "threshold"), num(r, s, "threshold_ns"), count);
	if (listed < count)
		fprintf(out, ", the %.0f slowest listed in the JSON result", listed);
	else if (count > 0)
		fputs(", all listed in the JSON result", out);
	fputc('\n', out);
}

/* Sources latmon could not attach, one line each. */
static void render_sources(FILE *out, struct rd *r, const cJSON *lm)
{
	const cJSON *src, *list = get(r, lm, "sources", cJSON_Array);
	int first = 1;

	cJSON_ArrayForEach(src, list) {
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(src, "started")))
			continue;
		fprintf(out, "%s %s (%s)", first ? "latmon sources not recorded:" : ",",
			str(r, src, "name"), str(r, src, "reason"));
		first = 0;
	}
	if (!first)
		fputc('\n', out);
}

/* Probe misses per source, e.g. "fault 0, thp-clear 0, sched 0, irq 0". */
static void render_misses(FILE *out, struct rd *r, const cJSON *lm)
{
	const cJSON *src, *list = get(r, lm, "sources", cJSON_Array);
	const char *sep = "";
	double total = 0;

	fputs("probe misses (system-wide):", out);
	cJSON_ArrayForEach(src, list) {
		double m = num(r, src, "misses");

		fprintf(out, m < 0 ? "%s %s n/a" : "%s %s %.0f", sep, str(r, src, "name"), m);
		sep = ",";
		total += m > 0 ? m : 0;
	}
	if (total > 0)
		fputs(" (LOST before reaching latmon, maybe this process's: counts and labels may be short)", out);
	fputc('\n', out);
}

/* What latmon recorded and what got lost, and the fault cross-check. */
static void render_latmon(FILE *out, struct rd *r, const cJSON *doc)
{
	const cJSON *lm = sub(r, doc, "latmon"), *ca = sub(r, doc, "causes");
	const cJSON *cn = sub(r, doc, "counters");
	const cJSON *mi = get(r, cn, "minor_faults", cJSON_Number | cJSON_NULL);
	const cJSON *ma = get(r, cn, "major_faults", cJSON_Number | cJSON_NULL);

	fprintf(out, "latmon %s: %.0f records read (buffer %.0f, --events); lost: %.0f events "
		"in latmon's rings, %.0f in latctl's buffer\n", str(r, lm, "module_version"),
		num(r, lm, "records_read"), num(r, lm, "buffer_events"),
		num(r, lm, "lost_by_latmon"), num(r, lm, "lost_by_latctl"));
	if (cJSON_IsTrue(get(r, lm, "have_stats", cJSON_True | cJSON_False)) &&
	    num(r, lm, "records_read") != num(r, lm, "records_delivered"))
		fprintf(out, "MISMATCH: latmon says it delivered %.0f records, latctl read %.0f\n",
			num(r, lm, "records_delivered"), num(r, lm, "records_read"));
	render_misses(out, r, lm);
	render_sources(out, r, lm);
	if (num(r, lm, "stale_session_stopped"))
		fprintf(out, "latmon was still recording for process %.0f, which is gone (killed?): "
			"latctl stopped that session first\n", num(r, lm, "stale_session_stopped"));
	fprintf(out, "faults in the timed loop: %.0f fault events of this process (%.0f of the "
		"measured threads); getrusage: ", num(r, ca, "faults_in_loop"),
		num(r, ca, "faults_in_loop_joined"));
	if (cJSON_IsNumber(mi) && cJSON_IsNumber(ma))
		fprintf(out, "%.0f\n", mi->valuedouble + ma->valuedouble);
	else
		fputs("n/a\n", out);
	lat_procs_render(lm, out);
	if (num(r, ca, "streams_joined") < num(r, ca, "streams"))
		fprintf(out, "%.0f of %.0f sample streams have no thread latmon followed: "
			"unattributed\n", num(r, ca, "streams") - num(r, ca, "streams_joined"),
			num(r, ca, "streams"));
}

/* The cause table and the ten slowest, and latmon's own account. */
static void render_causes(FILE *out, struct rd *r, const cJSON *doc)
{
	const cJSON *lm = sub(r, doc, "latmon");
	const cJSON *causes = get(r, doc, "causes", cJSON_Object);
	const cJSON *iters = get(r, sub(r, doc, "slow"), "iterations", cJSON_Array);

	if (strcmp(str(r, lm, "state"), "on")) {
		fprintf(out, "%s\n", str(r, lm, "line"));
		render_sources(out, r, lm);
	}
	join_print(causes, iters, out);
	if (!strcmp(str(r, lm, "state"), "on"))
		render_latmon(out, r, doc);
}

/* Every section into a memory buffer; printed only if nothing was missing. */
static int render_doc(const cJSON *doc, FILE *out, const char *origin)
{
	struct rd r = { NULL };
	char units[48], *buf = NULL;
	const char *unit;
	size_t len = 0;
	FILE *mem;

	mem = open_memstream(&buf, &len);
	if (!mem)
		return -ENOMEM;
	unit = str(&r, sub(&r, doc, "run"), "unit");
	plural(unit, units, sizeof(units));
	render_header(mem, &r, doc);
	render_run(mem, &r, doc, units);
	render_table(mem, &r, doc, unit);
	render_tail(mem, &r, doc, units);
	render_counters(mem, &r, doc);
	render_extras(mem, &r, doc);
	render_hist(mem, &r, doc, units);
	render_slow(mem, &r, doc, units);
	render_causes(mem, &r, doc);
	fclose(mem);
	if (r.bad) {
		fprintf(stderr, "latctl: %s: key \"%s\" is missing or has the wrong type; the result is damaged or from another latctl\n",
			origin, r.bad);
		free(buf);
		return -EINVAL;
	}
	fwrite(buf, 1, len, out);
	free(buf);
	return 0;
}

/*
 * Render the document as a result file holds it. cJSON writes a number with
 * 15 significant digits whenever that reads back within DBL_EPSILON, so a
 * saved value can differ from the one in memory in its last bit (max/p50 =
 * 1799.5 is saved as 1799.4999999999998 and rounds the other way). Printing
 * and parsing once here makes a run print exactly what `latctl report` will.
 */
int lat_result_render(const cJSON *doc, FILE *out, const char *origin)
{
	char *text = cJSON_PrintUnformatted(doc);
	cJSON *saved = text ? cJSON_Parse(text) : NULL;
	int ret = saved ? render_doc(saved, out, origin) : -ENOMEM;

	if (!saved)
		fprintf(stderr, "latctl: %s: out of memory while rendering the report\n", origin);
	cJSON_Delete(saved);
	free(text);
	return ret;
}
