// SPDX-License-Identifier: MIT
/*
 * The text of the cause table and of the slowest iterations, rendered from
 * their JSON objects (so a saved result prints the same as the run).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/fmt.h"
#include "report/breakdown.h"
#include "report/render.h"
#include "events/evtype.h"
#include "join/join.h"
#include "lib/rdoc.h"

static void print_cause_row(const cJSON *row, const cJSON *est, FILE *out, struct lat_rd *r)
{
	char med[24], max[24], own[64], label[24];

	snprintf(own, sizeof(own), "%s %s / %s", lat_rd_str(r, row, "own"),
		 lat_fmt_time(med, sizeof(med), lat_rd_num(r, row, "own_median_ns")),
		 lat_fmt_time(max, sizeof(max), lat_rd_num(r, row, "own_max_ns")));
	fprintf(out, "  %-13s %8.0f %8.0f %8.1f%%   %s\n",
		lat_mark_label(lat_rd_str(r, row, "label"), lat_is_listed(est, lat_rd_str(r, row, "label")),
			   label, sizeof(label)),
		lat_rd_num(r, row, "primary"), lat_rd_num(r, row, "present"),
		100 * lat_rd_num(r, row, "share"), lat_rd_num(r, row, "own_count") ? own : "-");
}

/* "thp-zero twice in 11 of 11 slow iterations (allocator 58%, clear
 * 42% of it): <note>", the parts largest first. */
static void print_twice(const cJSON *row, FILE *out, struct lat_rd *r)
{
	const cJSON *v[JOIN_NR_LABELS];
	double total, sum, twice = lat_rd_opt_count(r, row, "twice");
	int n, i;

	/* written together, for a label with parts */
	lat_rd_expect(r, !cJSON_GetObjectItemCaseSensitive(row, "parts_ns") ==
		      !cJSON_GetObjectItemCaseSensitive(row, "twice"), "twice");
	if (!twice)
		return;
	total = lat_rd_num(r, row, "total_ns");
	n = lat_by_value(r, lat_rd_obj(r, row, "parts_ns"), "parts_ns", v, &sum);
	fprintf(out, "%s twice in %.0f of %.0f slow iterations (", lat_rd_str(r, row, "label"),
		twice, lat_rd_num(r, row, "present"));
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s %.0f%%", i ? ", " : "", v[i]->string,
			total > 0 ? 100 * v[i]->valuedouble / total : 0);
	fprintf(out, " of it): %s\n", lat_rd_str(r, row, "twice_note"));
}

static void print_losses(const cJSON *e, FILE *out, struct lat_rd *r)
{
	double lost = lat_rd_num(r, e, "lost_events"), records = lat_rd_num(r, e, "lost_records");
	double incomplete = lat_rd_num(r, e, "incomplete_iterations");
	double gaps = lat_rd_num(r, e, "seq_gaps");

	if (lost || records)
		fprintf(out, "LOST: %.0f events dropped (%.0f lost records); %.0f slow "
			"iterations overlap them and are labelled incomplete.\n",
			lost, records, incomplete);
	if (gaps)
		fprintf(out, "BUG: %.0f holes in latmon's record numbers (counted as lost); "
			"please report it with the JSON file.\n", gaps);
	if (!lost && !records)
		fprintf(out, "No event was lost.\n");
}

/* The steal the backend read while the threads ran, and where it went. */
static void print_steal(const cJSON *e, FILE *out, struct lat_rd *r)
{
	double ns = lat_rd_opt_count(r, e, "steal_ns");
	double in_slow = lat_rd_opt_count(r, e, "steal_in_slow_ns");
	char a[24], b[24];

	if (!ns)
		return;
	fprintf(out,
		"Steal: the hypervisor ran something else for %s while the threads ran;\n"
		"  %s of it lies in slow iterations (label steal).\n",
		lat_fmt_time(a, sizeof(a), ns), lat_fmt_time(b, sizeof(b), in_slow));
	if (ns - in_slow >= 1)
		fprintf(out,
			"  The other %s was not found whole in one's unexplained time: it fell\n"
			"  in fast iterations or inside recorded events.\n",
			lat_fmt_time(a, sizeof(a), ns - in_slow));
}

/* The uncovered stretches the hypervisor probe's idle gaps named, if used. */
static void print_stretches(const cJSON *causes, FILE *out, struct lat_rd *r)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(causes, "hypervisor_stretches");
	double named, refused, limit;
	char gap[24], typ[24];

	if (!h)
		return;
	named = lat_rd_num(r, h, "named");
	refused = lat_rd_num(r, h, "refused");
	limit = lat_rd_num(r, h, "limit");
	lat_fmt_time(gap, sizeof(gap), lat_rd_num(r, h, "gap_min_ns"));
	lat_fmt_time(typ, sizeof(typ), lat_rd_num(r, h, "typical_ns"));
	if (refused)
		fprintf(out,
			"Hypervisor: %.0f slow iterations held %s or more that no event covers beyond\n"
			"  an ordinary iteration (%s): more than the hypervisor probe's idle gaps\n"
			"  explain in this run (%.0f at most), so they stay unexplained.\n",
			refused, gap, typ, limit);
	else
		fprintf(out,
			"Hypervisor: %.0f slow iterations held %s or more that no event covers beyond\n"
			"  an ordinary iteration (%s); the hypervisor probe saw such gaps %.0f times\n"
			"  a second in a loop doing nothing, more than interrupts and switches could\n"
			"  make: that time is hypervisor~ (up to %.0f stretches in this run).\n",
			named, gap, typ, lat_rd_num(r, h, "probe_gaps_per_s"), limit);
}

static void print_event_stats(const cJSON *causes, FILE *out, struct lat_rd *r)
{
	const cJSON *e = lat_rd_obj(r, causes, "events");

	if (!lat_rd_bool(r, causes, "module")) {
		fprintf(out, "No kernel events (no backend recorded; the events line above says why): only migration and realloc\n"
			"can be named; the rest of each slow iteration is unattributed.\n");
		return;
	}
	fprintf(out, "Kernel events: %.0f recorded, %.0f inside slow iterations, "
		"%.0f of other threads, %.0f malformed.\n", lat_rd_num(r, e, "given"),
		lat_rd_num(r, e, "used"), lat_rd_num(r, e, "other_thread"), lat_rd_num(r, e, "bad"));
	print_losses(e, out, r);
	print_steal(e, out, r);
	print_stretches(causes, out, r);
}

static void print_causes(const cJSON *causes, const cJSON *iters, const cJSON *est, FILE *out,
			 struct lat_rd *r)
{
	const cJSON *rows = lat_rd_array(r, causes, "causes"), *row;
	double thr_ns = lat_rd_num(r, causes, "slow_threshold_ns");
	double slow = lat_rd_num(r, causes, "slow_iterations");
	char total[24], thr[24];

	fprintf(out, "Causes of the %.0f slow iteration%s", slow, slow == 1 ? "" : "s");
	if (thr_ns > 0)
		fprintf(out, " (>= %s)", lat_fmt_time(thr, sizeof(thr), thr_ns));
	fprintf(out, ", %s in total:\n",
		lat_fmt_time(total, sizeof(total), lat_rd_num(r, causes, "slow_total_ns")));
	fprintf(out, "  %-13s %8s %8s %9s   %s\n", "cause", "primary", "present",
		"share", "own duration: median / max");
	cJSON_ArrayForEach(row, rows)
		print_cause_row(row, est, out, r);
	fprintf(out, "  primary: the largest part of an iteration; present: any part of it;\n"
		"  share: of the total slow time, each tick counted once (innermost cause).\n");
	lat_kinds_render(out, r, causes, iters);
	cJSON_ArrayForEach(row, rows)
		print_twice(row, out, r);
	print_event_stats(causes, out, r);
}

struct iter_key {
	double ticks;
	const cJSON *it;
};

static int cmp_iter_desc(const void *a, const void *b)
{
	double x = ((const struct iter_key *)a)->ticks;
	double y = ((const struct iter_key *)b)->ticks;

	return x < y ? 1 : x > y ? -1 : 0;
}


/* "thread 5753 markers_prog of pid 5750, its iteration 175": who ran it,
 * when the run has more than one stream. */
static void print_who(const cJSON *it, FILE *out, int *parts)
{
	const cJSON *tid = cJSON_GetObjectItemCaseSensitive(it, "tid");
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(it, "pid");
	const cJSON *comm = cJSON_GetObjectItemCaseSensitive(it, "comm");
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(it, "stream_index");

	lat_detail_part(out, parts);
	if (cJSON_IsNumber(tid))
		fprintf(out, "thread %d", tid->valueint);
	else
		fputs("a thread", out);
	if (cJSON_IsString(comm))
		fprintf(out, " %s", comm->valuestring);
	if (cJSON_IsNumber(pid) && (!cJSON_IsNumber(tid) || pid->valueint != tid->valueint))
		fprintf(out, " of pid %d", pid->valueint);
	if (cJSON_IsNumber(at))
		fprintf(out, ", its iteration %.0f", at->valuedouble);
}

/* The details line of one iteration: who ran it (streams), each record
 * type's part, then the iteration's own; nothing when there is nothing to
 * say. */
static void print_detail(const cJSON *it, int streams, FILE *out, struct lat_rd *r)
{
	double lost = lat_rd_opt_count(r, it, "lost_events");
	int parts = 0;
	size_t i;

	if (streams)
		print_who(it, out, &parts);
	/* written exactly for the incomplete iterations */
	lat_rd_expect(r, lat_rd_bool(r, it, "incomplete") ==
		      !!cJSON_GetObjectItemCaseSensitive(it, "lost_events"), "lost_events");
	for (i = 0; i < lat_n_evtypes; i++)
		if (lat_evtypes[i]->detail)
			lat_evtypes[i]->detail(it, out, &parts, r);
	if (lat_rd_bool(r, it, "migrated")) {
		lat_detail_part(out, &parts);
		fputs("moved to another CPU", out);
	}
	if (lost) {
		lat_detail_part(out, &parts);
		fprintf(out, "%.0f events lost around it", lost);
	}
	if (parts)
		fputc('\n', out);
}

/* One line per iteration, and one more with its details. */
static void print_iter(const cJSON *it, const cJSON *est, int streams, FILE *out,
		       struct lat_rd *r)
{
	double cpu_begin = lat_rd_num(r, it, "cpu_begin"), cpu_end = lat_rd_num(r, it, "cpu_end");
	char d[24];

	fprintf(out, "  %10.0f %10s  cpu %.0f", lat_rd_num(r, it, "index"),
		lat_fmt_time(d, sizeof(d), lat_rd_num(r, it, "duration_ns")), cpu_begin);
	if (cpu_end != cpu_begin)
		fprintf(out, "->%.0f", cpu_end);
	fprintf(out, "  %s%s: ", lat_rd_str(r, it, "primary"), lat_rd_bool(r, it, "incomplete") ?
		" (events lost: breakdown not trusted)" : "");
	lat_print_breakdown(it, est, out, r);
	print_detail(it, streams, out, r);
}

static void print_slowest(const cJSON *iters, const cJSON *est, FILE *out, struct lat_rd *r)
{
	int n = cJSON_GetArraySize(iters), i = 0;
	struct iter_key *v = malloc((n ? n : 1) * sizeof(*v));
	const cJSON *it;

	if (!v) {
		fprintf(out, "(out of memory listing the slowest iterations)\n");
		return;
	}
	int streams = 0;

	cJSON_ArrayForEach(it, iters) {
		v[i++] = (struct iter_key){ lat_rd_num(r, it, "duration_ticks"), it };
		streams |= cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(it, "stream")) > 0;
	}
	qsort(v, n, sizeof(*v), cmp_iter_desc);
	if (n == 1)
		fprintf(out, "The slow iteration (index, time, CPU, primary cause: breakdown):\n");
	else
		fprintf(out, "The %d slowest iterations (index, time, CPU, primary cause: breakdown):\n",
			n < 10 ? n : 10);
	for (i = 0; i < n && i < 10; i++)
		print_iter(v[i].it, est, streams, out, r);
	free(v);
}

/* 1 if the task that preempted it is latctl's own (its reader, the BPF
 * ring's consumer, the progress ticker: their names begin with latctl). */
static int by_observer(const cJSON *it)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "preemptor");
	const char *comm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "comm"));

	return comm && !strncmp(comm, "latctl", 6);
}

/* The observer named: how many slow iterations latctl's own threads
 * preempted, and how to keep them off the measured CPU. */
static void print_observer(const cJSON *iters, FILE *out)
{
	const cJSON *it;
	int n = 0, primary = 0;

	cJSON_ArrayForEach(it, iters) {
		const char *pr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "primary"));

		if (!by_observer(it))
			continue;
		n++;
		primary += pr && !strcmp(pr, "preemption");
	}
	if (n)
		fprintf(out, "latctl's own threads (the observer: its event reader) preempted %d of the listed slow "
			"iterations, %d of them as their primary cause; --cpu N pins the workload to CPU N and latctl's reader to another\n",
			n, primary);
}

void lat_render_causes(FILE *out, struct lat_rd *r, const cJSON *causes, const cJSON *iters,
		       const cJSON *estimated)
{
	if (causes)
		print_causes(causes, iters, estimated, out, r);
	if (iters && cJSON_GetArraySize(iters) > 0)
		print_observer(iters, out);
	if (iters && cJSON_GetArraySize(iters) > 0)
		print_slowest(iters, estimated, out, r);
}

void join_print(const cJSON *causes, const cJSON *iters, FILE *out)
{
	struct lat_rd r = { NULL };

	lat_render_causes(out, &r, causes, iters, NULL);
}
