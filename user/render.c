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
		lat_hist_print_line(out, (uint64_t)num(r, b, "lo"), (uint64_t)num(r, b, "hi"),
				    (uint64_t)num(r, b, "count"));
}

#define SHOW_SLOWEST 5

/* Keep the SHOW_SLOWEST slowest entries of the slow list, slowest first. */
static int pick_slowest(struct rd *r, const cJSON *list, const cJSON **top)
{
	const cJSON *it;
	int n = 0, i;

	cJSON_ArrayForEach(it, list) {
		double ns = num(r, it, "ns");

		if (n == SHOW_SLOWEST && num(r, top[n - 1], "ns") >= ns)
			continue;
		i = n < SHOW_SLOWEST ? n++ : SHOW_SLOWEST - 1;
		for (; i > 0 && num(r, top[i - 1], "ns") < ns; i--)
			top[i] = top[i - 1];
		top[i] = it;
	}
	return n;
}

static void render_slow(FILE *out, struct rd *r, const cJSON *doc,
			const char *unit, const char *units)
{
	const cJSON *s = sub(r, doc, "slow"), *top[SHOW_SLOWEST];
	const cJSON *list = get(r, s, "iterations", cJSON_Array);
	double count = num(r, s, "count"), listed = num(r, s, "listed");
	int n, i;

	fprintf(out, "slow %s (slower than %s = %.0f ns): %.0f", units,
		str(r, s, "threshold"), num(r, s, "threshold_ns"), count);
	if (listed < count)
		fprintf(out, ", the first %.0f listed in the JSON result", listed);
	else if (count > 0)
		fputs(", all listed in the JSON result", out);
	fputc('\n', out);
	n = list ? pick_slowest(r, list, top) : 0;
	for (i = 0; i < n; i++) {
		if (i == 0)
			fputs(listed < count ? "  slowest listed:" : "  slowest:", out);
		fprintf(out, "%s %s %.0f took %.0f ns", i ? "," : "", unit,
			num(r, top[i], "index"), num(r, top[i], "ns"));
	}
	if (n)
		fputc('\n', out);
}

/* Every section into a memory buffer; printed only if nothing was missing. */
int lat_result_render(const cJSON *doc, FILE *out, const char *origin)
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
	render_slow(mem, &r, doc, unit, units);
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
