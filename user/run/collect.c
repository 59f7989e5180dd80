// SPDX-License-Identifier: MIT
/* The result phase: the samples and the records into the result document
 * (summary, histogram, counters, the join's "slow" and "causes"), then
 * the report rendered from it and --json written. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "backend/monitor.h"
#include "join/causes.h"
#include "lib/latctl.h"
#include "lib/parse.h"
#include "report/describe.h"
#include "report/render.h"
#include "run/deliver.h"
#include "run/context.h"
#include "run/phases.h"
#include "stats/hist.h"
#include "stats/stats.h"
#include "system/mmenv.h"

/* The core's options (their table's keys), then the workload's own. */
static cJSON *options_json(const struct lat_opts *o, const struct workload_ops *ops)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "workload", o->workload);
	lat_run_opts_json(j, o);
	lat_wl_opts_json(j, ops);
	return j;
}

/* Where the samples lie on the TSC (first begin, last end) and how many
 * streams they are in: for a timeline of concurrent streams. */
static void span_json(cJSON *j, const struct lat_run *run)
{
	uint64_t first = UINT64_MAX, last = 0;
	size_t i, streams = 1;

	for (i = 0; i < run->n; i++) {
		first = run->samples[i].tsc_begin < first ? run->samples[i].tsc_begin : first;
		last = run->samples[i].tsc_end > last ? run->samples[i].tsc_end : last;
		streams += i && (run->samples[i].flags & LAT_SAMPLE_F_NEWSTREAM);
	}
	cJSON_AddNumberToObject(j, "streams", (double)streams);
	cJSON_AddNumberToObject(j, "tsc_first", (double)first);
	cJSON_AddNumberToObject(j, "tsc_last", (double)last);
}

static cJSON *run_json(const struct lat_run *run)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "workload", run->ops->name);
	cJSON_AddItemToObject(j, "mode", run->mode[0] ? cJSON_CreateString(run->mode) : cJSON_CreateNull());
	cJSON_AddStringToObject(j, "unit", run->ops->unit_name);
	cJSON_AddNumberToObject(j, "iterations", (double)run->n);
	cJSON_AddBoolToObject(j, "pinned", run->cpu >= 0);
	cJSON_AddNumberToObject(j, "cpu_first", run->samples[0].cpu_begin);
	cJSON_AddNumberToObject(j, "cpu_last", run->samples[run->n - 1].cpu_end);
	span_json(j, run);
	return j;
}

/* Migrations inside one iteration, and between consecutive iterations. */
static void count_migrations(const struct lat_run *run, long long *within,
			     long long *between)
{
	const struct lat_sample *s = run->samples;
	size_t i;

	*within = *between = 0;
	for (i = 0; i < run->n; i++) {
		*within += s[i].cpu_begin != s[i].cpu_end;
		if (i && !(s[i].flags & LAT_SAMPLE_F_NEWSTREAM))
			*between += s[i].cpu_begin != s[i - 1].cpu_end;
	}
}

/* 1 if a --slow value is a time, not a percentile. */
static bool slow_is_time(const char *slow)
{
	struct lat_threshold t;

	return !lat_parse_threshold(slow, &t) && !t.is_percentile;
}

/* The --slow threshold in ns: a percentile of the sorted latencies or a
 * time; *at_max when it is a percentile that is the slowest latency. */
static double slow_limit(const struct lat_run *run, const char *slow, const double *sorted,
			 bool *at_max)
{
	struct lat_threshold t;
	double v;

	lat_parse_threshold(slow, &t);	/* validated by lat_opts_parse */
	if (!t.is_percentile)
		return t.value;
	v = lat_percentile_sorted(sorted, run->n, t.value);
	*at_max = run->n > 0 && v >= sorted[run->n - 1];
	return v;
}

/* The join of the samples with latmon's events: "slow" and "causes". */
static int add_causes(struct lat_run_ctx *c, const double *sorted)
{
	const char *slow = lat_run_slow(&c->opts);
	int ret;
	struct lat_causes_in in = {
		.run = &c->run,
		.events = c->sess.buf.ev,
		.n_events = c->sess.buf.n,
		.have_events = lat_backend_recording(&c->sess),
		.threshold = slow,
		.tsc_before = c->tsc_before,
		.tsc_after = c->tsc_after,
	};

	in.limit_ns = slow_limit(&c->run, slow, sorted, &in.at_max);
	in.typical_ns = lat_percentile_sorted(sorted, c->run.n, 50);
	if (!c->opts.slow && !slow_is_time(slow) && in.limit_ns < LAT_SLOW_MEDIANS * in.typical_ns) {
		in.percentile_ns = in.limit_ns;	/* ordinary variation: no tail */
		in.limit_ns = LAT_SLOW_MEDIANS * in.typical_ns;
		in.at_max = false;
	}
	lat_run_hv_add(&c->hv, c->doc, &in);

	cJSON_AddItemToObject(c->doc, "latmon", lat_monitor_json(&c->sess.mon));
	cJSON_AddItemToObject(c->doc, "backend", lat_backend_json(&c->sess));
	ret = lat_causes_add(c->doc, &in);
	lat_backend_mark(c->doc, &c->sess);
	return ret;
}

/* Summary, histogram, counters and slow list from the samples. */
static int analyze(struct lat_run_ctx *c)
{
	struct lat_run *run = &c->run;
	struct lat_counters d;
	struct lat_summary s;
	struct lat_hist h = { { 0 } };
	long long within, between;
	double *ns;
	size_t i;
	int ret;

	ns = malloc(run->n * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	for (i = 0; i < run->n; i++) {
		ns[i] = lat_sample_ns(run, &run->samples[i]);
		lat_hist_add(&h, ns[i]);
	}
	lat_summary_compute(ns, run->n, &s);
	lat_counters_delta(&c->before, &c->after, &d);
	d.minflt = d.minflt > (long long)run->own_minflt ? d.minflt - (long long)run->own_minflt : 0;
	count_migrations(run, &within, &between);
	cJSON_AddItemToObject(c->doc, "summary", lat_result_summary(&s));
	cJSON_AddItemToObject(c->doc, "histogram", lat_result_histogram(&h));
	cJSON_AddItemToObject(c->doc, "counters",
			      lat_result_counters(&d, within, between, c->free_2m));
	ret = add_causes(c, ns);
	free(ns);
	return ret;
}

/* "clock"."snapshot": the TSC and the system's clocks at one moment. */
static cJSON *snapshot_json(const struct lat_clock_snap *s, double tsc_hz)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "tsc", (double)s->tsc);
	cJSON_AddNumberToObject(o, "tsc_hz", tsc_hz);
	cJSON_AddNumberToObject(o, "boottime_ns", (double)s->boottime_ns);
	cJSON_AddNumberToObject(o, "monotonic_ns", (double)s->monotonic_ns);
	cJSON_AddNumberToObject(o, "uncertainty_ns", (double)s->spread_ticks * 1e9 / tsc_hz / 2);
	return o;
}

/* {"signal": "SIGINT", "iterations_done", "iterations_asked"}: a Ctrl-C
 * ended the loop early; the document covers the iterations done. */
static void add_interrupted(cJSON *doc, const struct lat_run *run)
{
	cJSON *o = cJSON_AddObjectToObject(doc, "interrupted");

	cJSON_AddStringToObject(o, "signal", "SIGINT");
	cJSON_AddNumberToObject(o, "iterations_done", (double)run->n);
	cJSON_AddNumberToObject(o, "iterations_asked", (double)run->iters);
}

/* Build the document; print the report rendered from it; write --json. */
int lat_phase_result(struct lat_run_ctx *c)
{
	cJSON *clock, *extras = NULL;

	cJSON_AddItemToObject(c->doc, "environment", lat_result_environment());
	cJSON_AddItemToObject(c->doc, "options", options_json(&c->opts, c->run.ops));
	cJSON_AddItemToObject(c->doc, "run", run_json(&c->run));
	cJSON_AddItemToObject(c->doc, "mm", lat_mm_env_json());
	clock = cJSON_AddObjectToObject(c->doc, "clock");
	cJSON_AddNumberToObject(clock, "pair_ns", c->pair_ns);
	cJSON_AddItemToObject(clock, "snapshot", snapshot_json(&c->snap, c->run.tsc_hz));
	if (analyze(c))
		return LAT_EXIT_FAIL;
	if (c->run.ops->extras)
		extras = c->run.ops->extras(&c->run);
	lat_describe_slow_ops(extras, cJSON_GetObjectItemCaseSensitive(
			      cJSON_GetObjectItemCaseSensitive(c->doc, "slow"), "iterations"));
	cJSON_AddItemToObject(c->doc, "extras", extras ? extras : cJSON_CreateNull());
	cJSON_AddItemToObject(c->doc, "context", lat_run_context_json(&c->run));
	if (c->interrupted)
		add_interrupted(c->doc, &c->run);
	lat_result_finish(c->doc, c->run.exit_status);
	return lat_deliver(c->opts.json_path ? &c->file : NULL, c->doc, c->opts.quiet,
			   lat_report_stream(c->opts.workload));
}

