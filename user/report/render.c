// SPDX-License-Identifier: MIT
/*
 * The text report, rendered only from the result document, so that
 * `latctl run` and `latctl report FILE.json` print the same bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fmt.h"
#include "stats/hist.h"
#include "events/iter.h"
#include "lib/rdoc.h"
#include "report/render.h"
#include "doc/result.h"
#include "doc/runs.h"
#include "system/mmenv.h"
#include "workload/workload.h"

/* A counter that may be null (not available on this kernel). */
static void put_count(FILE *out, struct lat_rd *r, const cJSON *o, const char *key,
		      const char *sign)
{
	const cJSON *v = lat_rd_get(r, o, key, cJSON_Number | cJSON_NULL);

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

static void render_extras(FILE *out, struct lat_rd *r, const cJSON *doc, int head);

/* "machine: KVM guest, clock source kvm-clock", in results that say it
 * (not those of a latctl before it). */
static void render_machine(FILE *out, struct lat_rd *r, const cJSON *env)
{
	if (!cJSON_GetObjectItemCaseSensitive(env, "machine"))
		return;
	fprintf(out, "machine: %s, clock source %s\n", lat_rd_str(r, env, "machine"),
		lat_rd_opt_str(r, env, "clocksource"));
}

/* The command line, what was lost (the workload's head lines), where. */
static void render_header(FILE *out, struct lat_rd *r, const cJSON *doc)
{
	const cJSON *env = lat_rd_obj(r, doc, "environment");

	fprintf(out, "$ %s\n", lat_rd_str(r, doc, "command_line"));
	render_extras(out, r, doc, 1);
	fprintf(out, "kernel %s on %s, %.0f CPUs online, started %s\n",
		lat_rd_str(r, env, "kernel_release"), lat_rd_str(r, env, "cpu_model"),
		lat_rd_num(r, env, "online_cpus"), lat_rd_str(r, doc, "start_time"));
	render_machine(out, r, env);
	if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(env, "device")))
		fprintf(out, "lab device: %s\n", lat_rd_str(r, env, "device"));
	fprintf(out, "TSC %.3f GHz (%s)\n", lat_rd_num(r, env, "tsc_hz") / 1e9,
		lat_rd_str(r, env, "tsc_hz_source"));
	fprintf(out, "THP enabled=%s defrag=%s; cpufreq governor: %s; isolated CPUs: %s\n",
		lat_rd_opt_str(r, env, "thp_enabled"), lat_rd_opt_str(r, env, "thp_defrag"),
		lat_rd_opt_str(r, env, "cpufreq_governor"), lat_rd_opt_str(r, env, "isolcpus"));
}

/* A Ctrl-C ended the loop: how far it got, before any figure. */
static void render_interrupted(FILE *out, struct lat_rd *r, const cJSON *doc, const char *units)
{
	const cJSON *i = cJSON_GetObjectItemCaseSensitive(doc, "interrupted");

	const cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run");
	const char *wl = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "workload"));

	if (!i)
		return;
	if (wl && !strcmp(wl, "exec"))	/* its program decides how many: no "of N" */
		fprintf(out, "INTERRUPTED by %s after %.0f %s: everything below covers those\n",
			lat_rd_str(r, i, "signal"), lat_rd_num(r, i, "iterations_done"), units);
	else
		fprintf(out, "INTERRUPTED by %s after %.0f of %.0f %s: everything below covers those\n",
			lat_rd_str(r, i, "signal"), lat_rd_num(r, i, "iterations_done"),
			lat_rd_num(r, i, "iterations_asked"), units);
}

static void render_run(FILE *out, struct lat_rd *r, const cJSON *doc, const char *units)
{
	const cJSON *run = lat_rd_obj(r, doc, "run"), *clock = lat_rd_obj(r, doc, "clock");
	const cJSON *pinned = lat_rd_get(r, run, "pinned", cJSON_True | cJSON_False);

	fprintf(out, "%s, mode %s: %.0f %s, ", lat_rd_str(r, run, "workload"),
		lat_rd_opt_str(r, run, "mode"), lat_rd_num(r, lat_rd_obj(r, doc, "summary"), "count"), units);
	if (cJSON_GetObjectItemCaseSensitive(doc, LAT_REPEAT_KEY))
		fprintf(out, "run 1 of %zu (every run: at the end), ", lat_runs_count(doc));
	if (cJSON_IsTrue(pinned))
		fprintf(out, "pinned to CPU %.0f\n", lat_rd_num(r, run, "cpu_first"));
	else
		fprintf(out, "not pinned (first on CPU %.0f, last on CPU %.0f)\n",
			lat_rd_num(r, run, "cpu_first"), lat_rd_num(r, run, "cpu_last"));
	fprintf(out, "clock: one pair of TSC reads costs %.0f ns; every time below includes it\n",
		lat_rd_num(r, clock, "pair_ns"));
	render_interrupted(out, r, doc, units);
}

/* A cell of the percentile table: 16 + 8 x (1 + 7) = 80 columns. */
#define TABLE_CELL 7

static void render_table(FILE *out, struct lat_rd *r, const cJSON *doc, const char *unit)
{
	static const char *const keys[] = { "min_ns", "p50_ns", "p90_ns", "p99_ns",
		"p99_9_ns", "p99_99_ns", "max_ns" };
	const cJSON *s = lat_rd_obj(r, doc, "summary");
	char label[40], v[32];
	double mean;
	size_t i;

	fprintf(out, "\n%-16s %7s %7s %7s %7s %7s %7s %7s %7s\n", "", "min", "p50",
		"p90", "p99", "p99.9", "p99.99", "max", "mean");
	snprintf(label, sizeof(label), "%s (ns)", unit);
	fprintf(out, "%-16s", label);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		lat_fmt_ns_cell(v, sizeof(v), lat_rd_num(r, s, keys[i]), TABLE_CELL);
		fprintf(out, " %7s", v);
	}
	mean = lat_rd_num(r, s, "mean_ns");
	snprintf(v, sizeof(v), "%.1f", mean);
	if (strlen(v) > TABLE_CELL)
		lat_fmt_ns_cell(v, sizeof(v), mean, TABLE_CELL);
	fprintf(out, " %7s\n", v);
}

static void render_tail(FILE *out, struct lat_rd *r, const cJSON *doc, const char *units)
{
	const cJSON *s = lat_rd_obj(r, doc, "summary");
	double p50 = lat_rd_num(r, s, "p50_ns");

	if (p50 <= 0)
		p50 = 1;
	fprintf(out, "tail: p99/p50 = %.1fx   p99.9/p50 = %.1fx   max/p50 = %.0fx\n",
		lat_rd_num(r, s, "p99_ns") / p50, lat_rd_num(r, s, "p99_9_ns") / p50,
		lat_rd_num(r, s, "max_ns") / p50);
	fprintf(out, "total %.1f ms; the slowest 0.1%% of %s take %.1f%% of it\n",
		lat_rd_num(r, s, "total_ns") / 1e6, units, 100 * lat_rd_num(r, s, "slowest_0_1_share"));
}

/* The counter lines: each key printed after its text, in this order. */
static const struct {
	const char *text, *key, *sign;
} counter_text[] = {
	{ "during the timed loop: minor page faults ", "minor_faults", "" },
	{ ", major ", "major_faults", "" },
	{ "; context switches ", "voluntary_ctxsw", "" },
	{ " voluntary, ", "involuntary_ctxsw", "" },
	{ " involuntary (preempted)\nmigrations seen: ", "migrations_within", "" },
	{ " inside an iteration, ", "migrations_between", "" },
	{ " between iterations\nhuge pages: AnonHugePages ", "anon_huge_pages_kb", "" },
	{ " kB after the loop; thp_fault_alloc ", "thp_fault_alloc", "+" },
	{ ", thp_fault_fallback ", "thp_fault_fallback", "+" },
	{ " (whole system)\nfree blocks of 2 MiB or more before the run: ", "free_2m_blocks_before", "" },
};

/* The loop's compaction counters, in results that have them (not those
 * of a latctl before them). */
static void render_compaction(FILE *out, struct lat_rd *r, const cJSON *c)
{
	if (!cJSON_GetObjectItemCaseSensitive(c, "compact_stall"))
		return;
	fputs("compaction during the loop: compact_stall ", out);
	put_count(out, r, c, "compact_stall", "+");
	fputs(", compact_success ", out);
	put_count(out, r, c, "compact_success", "+");
	fputs(", compact_fail ", out);
	put_count(out, r, c, "compact_fail", "+");
	fputs(" (whole system: direct compaction entered, and how it ended)\n", out);
}

/* The hypervisor's time during the loop, in results that have it. */
static void render_steal(FILE *out, struct lat_rd *r, const cJSON *c)
{
	const cJSON *ms;
	char where[48];

	if (!cJSON_GetObjectItemCaseSensitive(c, "steal_ms"))
		return; /* a result of a latctl before it */
	ms = lat_rd_get(r, c, "steal_ms", cJSON_Number | cJSON_NULL);
	lat_rd_get(r, c, "steal_cpu", cJSON_Number | cJSON_NULL);
	lat_steal_where(where, sizeof(where), c);
	if (!cJSON_IsNumber(ms)) {
		fputs("steal during the loop: n/a (no steal column in /proc/stat)\n", out);
		return;
	}
	fprintf(out,
		"steal during the loop: %.0f ms %s (/proc/stat, in ticks of %.0f ms:\n"
		"  time the hypervisor ran something else on this machine's CPU)\n",
		ms->valuedouble, where, lat_rd_num(r, c, "steal_tick_ms"));
}

static void render_counters(FILE *out, struct lat_rd *r, const cJSON *doc)
{
	const cJSON *c = lat_rd_obj(r, doc, "counters");
	size_t i;

	for (i = 0; i < sizeof(counter_text) / sizeof(counter_text[0]); i++) {
		fputs(counter_text[i].text, out);
		put_count(out, r, c, counter_text[i].key, counter_text[i].sign);
	}
	fputc('\n', out);
	render_compaction(out, r, c);
	render_steal(out, r, c);
}

/* The workload's extras by print_extras (or its head lines, head). */
static void render_extras(FILE *out, struct lat_rd *r, const cJSON *doc, int head)
{
	const char *name = lat_rd_str(r, lat_rd_obj(r, doc, "run"), "workload");
	const cJSON *extras = lat_rd_get(r, doc, "extras", cJSON_Object | cJSON_NULL);
	const struct workload_ops *ops = lat_workload_find(name);

	if (!extras || cJSON_IsNull(extras))
		return;
	if (head && ops && ops->print_head)
		ops->print_head(extras, out, r);
	else if (!head && ops && ops->print_extras)
		ops->print_extras(extras, out, r);
	else if (!head && !ops)
		fprintf(out, "(extras of workload '%s' not shown: this latctl does not know it)\n", name);
}

/* Whether the run wrote its result to a file (options.json). */
static bool json_named(struct lat_rd *r, const cJSON *doc)
{
	return strcmp(lat_rd_opt_str(r, lat_rd_obj(r, doc, "options"), "json"), "none") != 0;
}

/* "slow pushes (slower than p99.9 = 812 ns): 300, the 100000 slowest listed in the JSON result" */
static void render_slow(FILE *out, struct lat_rd *r, const cJSON *doc, const char *units)
{
	const cJSON *s = lat_rd_obj(r, doc, "slow");
	double count = lat_rd_num(r, s, "count"), listed = lat_rd_num(r, s, "listed");
	const char *where = json_named(r, doc) ? "the JSON result" : "a JSON result (--json FILE)";
	char t[32];

	const cJSON *raised = cJSON_GetObjectItemCaseSensitive(s, "threshold_raised");
	char p[32];

	lat_rd_get(r, s, "iterations", cJSON_Array);
	lat_fmt_time(t, sizeof(t), lat_rd_num(r, s, "threshold_ns"));
	if (raised)
		lat_fmt_time(p, sizeof(p), lat_rd_num(r, raised, "percentile_ns"));
	if (raised && count == 0)
		fprintf(out, "\nslow %s: none slower than %.0f x the median = %s (%s = %s is ordinary "
			"variation): no tail worth explaining", units, lat_rd_num(r, raised, "medians"), t,
			lat_rd_str(r, s, "threshold"), p);
	else if (raised)
		fprintf(out, "\nslow %s (slower than %.0f x the median = %s; %s = %s is ordinary variation): %.0f",
			units, lat_rd_num(r, raised, "medians"), t, lat_rd_str(r, s, "threshold"), p, count);
	else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "threshold_is_max")))
		fprintf(out, "\nslow %s (%s = %s is the slowest; too few for a tail, those at it): %.0f",
			units, lat_rd_str(r, s, "threshold"), t, count);
	else
		fprintf(out, "\nslow %s (slower than %s = %s): %.0f", units,
			lat_rd_str(r, s, "threshold"), t, count);
	if (listed < count)
		fprintf(out, ", the %.0f slowest listed in %s", listed, where);
	else if (count > 0)
		fprintf(out, ", all listed in %s", where);
	fputc('\n', out);
}

/* Sources latmon could not attach, one line each. */
static void render_sources(FILE *out, struct lat_rd *r, const cJSON *lm)
{
	const cJSON *src, *list = lat_rd_get(r, lm, "sources", cJSON_Array);
	int first = 1;

	cJSON_ArrayForEach(src, list) {
		if (lat_rd_bool(r, src, "started"))
			continue;
		fprintf(out, "%s %s (%s)", first ? "latmon sources not recorded:" : ",",
			lat_rd_str(r, src, "name"), lat_rd_str(r, src, "reason"));
		first = 0;
	}
	if (!first)
		fputc('\n', out);
}

/* Probe misses per source, e.g. "fault 0, thp-clear 0, sched 0, irq 0". */
static void render_misses(FILE *out, struct lat_rd *r, const cJSON *lm)
{
	const cJSON *src, *list = lat_rd_get(r, lm, "sources", cJSON_Array);
	const char *sep = "";
	double total = 0;

	fputs("probe misses (system-wide):", out);
	cJSON_ArrayForEach(src, list) {
		double m = lat_rd_num(r, src, "misses");

		fprintf(out, m < 0 ? "%s %s n/a" : "%s %s %.0f", sep, lat_rd_str(r, src, "name"), m);
		sep = ",";
		total += m > 0 ? m : 0;
	}
	if (total > 0)
		fputs(" (LOST before reaching latmon, maybe this process's: counts and labels may be short)", out);
	fputc('\n', out);
}

/* What latmon recorded and what got lost, and the fault cross-check. */
static void render_fault_check(FILE *out, struct lat_rd *r, const cJSON *doc);

static void render_latmon(FILE *out, struct lat_rd *r, const cJSON *doc)
{
	const cJSON *lm = lat_rd_obj(r, doc, "latmon");

	fprintf(out, "latmon %s: %.0f records read (buffer %.0f, --events); lost: %.0f events "
		"in latmon's rings, %.0f in latctl's buffer\n", lat_rd_str(r, lm, "module_version"),
		lat_rd_num(r, lm, "records_read"), lat_rd_num(r, lm, "buffer_events"),
		lat_rd_num(r, lm, "lost_by_latmon"), lat_rd_num(r, lm, "lost_by_latctl"));
	if (cJSON_IsTrue(lat_rd_get(r, lm, "have_stats", cJSON_True | cJSON_False)) &&
	    lat_rd_num(r, lm, "records_read") != lat_rd_num(r, lm, "records_delivered"))
		fprintf(out, "MISMATCH: latmon says it delivered %.0f records, latctl read %.0f\n",
			lat_rd_num(r, lm, "records_delivered"), lat_rd_num(r, lm, "records_read"));
	render_misses(out, r, lm);
	render_sources(out, r, lm);
	if (lat_rd_num(r, lm, "stale_session_stopped"))
		fprintf(out, "latmon was still recording for process %.0f, which is gone (killed?): "
			"latctl stopped that session first\n", lat_rd_num(r, lm, "stale_session_stopped"));
	render_fault_check(out, r, doc);
}

/* The fault events of the loop against getrusage, and unjoined streams. */
static void render_fault_check(FILE *out, struct lat_rd *r, const cJSON *doc)
{
	const cJSON *ca = lat_rd_obj(r, doc, "causes"), *cn = lat_rd_obj(r, doc, "counters");
	const cJSON *mi = lat_rd_get(r, cn, "minor_faults", cJSON_Number | cJSON_NULL);
	const cJSON *ma = lat_rd_get(r, cn, "major_faults", cJSON_Number | cJSON_NULL);

	fprintf(out, "faults in the timed loop: %.0f fault events of this process (%.0f of the "
		"measured threads); getrusage: ", lat_rd_num(r, ca, "faults_in_loop"),
		lat_rd_num(r, ca, "faults_in_loop_joined"));
	if (cJSON_IsNumber(mi) && cJSON_IsNumber(ma))
		fprintf(out, "%.0f\n", mi->valuedouble + ma->valuedouble);
	else
		fputs("n/a\n", out);
	lat_stream_faults_render(ca, out, r);
	lat_procs_render(lat_rd_obj(r, doc, "latmon"), out, r);
	if (lat_rd_num(r, ca, "streams_joined") < lat_rd_num(r, ca, "streams"))
		fprintf(out, "%.0f of %.0f sample streams have no thread the backend followed: "
			"unattributed\n", lat_rd_num(r, ca, "streams") - lat_rd_num(r, ca, "streams_joined"),
			lat_rd_num(r, ca, "streams"));
}

/* Switch-ins the kernel did not report (backend.switch_ins_missed). */
static void render_missed_in(FILE *out, struct lat_rd *r, const cJSON *be)
{
	double n = be ? lat_rd_opt_count(r, be, "switch_ins_missed") : 0;

	if (!n)
		return;
	fprintf(out,
		"~ estimated: %.0f times the kernel reported a switch-out of a measured thread "
		"but not the switch-in before it (a task whose switches are not traced ran): each "
		"such time off the CPU ends at the thread's next interrupt, system call, fault or "
		"TSC read (%.0f of them), else at its next switch-out\n",
		n, lat_rd_opt_count(r, be, "switch_ins_bounded"));
}

/* The cause table and the ten slowest, and latmon's own account. */
static void render_causes(FILE *out, struct lat_rd *r, const cJSON *doc)
{
	const cJSON *lm = lat_rd_obj(r, doc, "latmon");
	const cJSON *causes = lat_rd_get(r, doc, "causes", cJSON_Object);
	const cJSON *iters = lat_rd_get(r, lat_rd_obj(r, doc, "slow"), "iterations", cJSON_Array);
	const cJSON *be = cJSON_GetObjectItemCaseSensitive(doc, "backend");	/* newer results */
	const char *backend = be ? lat_rd_str(r, be, "name") : "latmon";
	const cJSON *est = be ? lat_rd_array(r, be, "estimated_labels") : NULL;
	bool on = !strcmp(lat_rd_str(r, lm, "state"), "on");

	/* without "backend" (older results) events came from latmon only */
	lat_rd_expect(r, be || on || !lat_rd_bool(r, causes, "module"), "backend");

	if (!strcmp(backend, "bpf")) {
		fprintf(out, "events from the BPF backend: %s\n", lat_rd_str(r, be, "why"));
	} else if (!on) {
		fprintf(out, "%s\n", strcmp(backend, "none") ? lat_rd_str(r, lm, "line") :
			lat_rd_str(r, be, "why"));
		render_sources(out, r, lm);
	}
	lat_render_causes(out, r, causes, iters, est);
	lat_unexplained_render(out, r, doc, causes);
	render_missed_in(out, r, be);
	if (!strcmp(backend, "bpf")) {
		lat_bpf_render(out, r, be);
		render_fault_check(out, r, doc);
	} else if (on) {
		render_latmon(out, r, doc);
	}
}

/* Every section into a memory buffer; printed only if nothing was missing. */
static int render_doc(const cJSON *doc, FILE *out, const char *origin)
{
	struct lat_rd r = { NULL };
	char units[48], *buf = NULL;
	const char *unit;
	size_t len = 0;
	FILE *mem;

	mem = open_memstream(&buf, &len);
	if (!mem)
		return -ENOMEM;
	unit = lat_rd_str(&r, lat_rd_obj(&r, doc, "run"), "unit");
	plural(unit, units, sizeof(units));
	render_header(mem, &r, doc);
	lat_mm_env_print(lat_rd_obj(&r, doc, "mm"), mem, &r);
	/* the first screen: conditions, the table, the causes */
	render_run(mem, &r, doc, units);
	render_table(mem, &r, doc, unit);
	render_tail(mem, &r, doc, units);
	render_slow(mem, &r, doc, units);
	render_causes(mem, &r, doc);
	/* then what the kernel counted, the workload's own lines, the shape */
	fputc('\n', mem);
	render_counters(mem, &r, doc);
	render_extras(mem, &r, doc, 0);
	lat_hist_render_run(mem, &r, doc, units);
	lat_repeat_render(mem, doc, &r);
	fclose(mem);
	if (r.bad) {
		fprintf(stderr, "latctl: %s: key \"%s\" is missing or has the wrong type; the result is damaged or from another latctl\n",
			origin, r.bad);
		free(buf);
		return -EINVAL;
	}
	if (out)
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

int lat_result_check(const cJSON *doc, const char *origin)
{
	return render_doc(doc, NULL, origin);
}

int lat_runs_load(const char *path, cJSON **doc)
{
	int ret = lat_runs_read(path, doc);

	if (!ret && lat_result_check(*doc, path)) {
		cJSON_Delete(*doc);
		*doc = NULL;
		ret = -EINVAL;
	}
	return ret;
}
