// SPDX-License-Identifier: MIT
/*
 * The text of the cause table and of the slowest iterations, rendered from
 * their JSON objects (so a saved result prints the same as the run).
 */
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "evtype.h"
#include "join.h"
#include "json.h"

/* "812 ns", "3.4 us", "1.25 ms", "2.00 s" */
static const char *fmt_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

static void print_cause_row(const cJSON *row, FILE *out)
{
	char med[24], max[24], own[64];

	snprintf(own, sizeof(own), "%s %s / %s", lat_json_str(row, "own"),
		 fmt_ns(lat_json_num(row, "own_median_ns"), med, sizeof(med)),
		 fmt_ns(lat_json_num(row, "own_max_ns"), max, sizeof(max)));
	fprintf(out, "  %-13s %8.0f %8.0f %8.1f%%   %s\n", lat_json_str(row, "label"),
		lat_json_num(row, "primary"), lat_json_num(row, "present"), 100 * lat_json_num(row, "share"),
		lat_json_num(row, "own_count") ? own : "-");
}

static void print_event_stats(const cJSON *causes, FILE *out)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(causes, "events");

	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(causes, "module"))) {
		fprintf(out, "No kernel events (latmon was not recording): only migration and realloc\n"
			"can be named; the rest of each slow iteration is unattributed.\n");
		return;
	}
	fprintf(out, "Kernel events: %.0f recorded, %.0f inside slow iterations, "
		"%.0f of other threads, %.0f malformed.\n", lat_json_num(e, "given"), lat_json_num(e, "used"),
		lat_json_num(e, "other_thread"), lat_json_num(e, "bad"));
	if (lat_json_num(e, "lost_events") || lat_json_num(e, "lost_records"))
		fprintf(out, "LOST: %.0f events dropped (%.0f lost records); %.0f slow "
			"iterations overlap them and are labelled incomplete.\n",
			lat_json_num(e, "lost_events"), lat_json_num(e, "lost_records"),
			lat_json_num(e, "incomplete_iterations"));
	if (lat_json_num(e, "seq_gaps"))
		fprintf(out, "BUG: %.0f holes in latmon's record numbers (counted as lost); "
			"please report it with the JSON file.\n", lat_json_num(e, "seq_gaps"));
	if (!lat_json_num(e, "lost_events") && !lat_json_num(e, "lost_records"))
		fprintf(out, "No event was lost.\n");
}

static void print_causes(const cJSON *causes, FILE *out)
{
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(causes, "causes"), *row;
	char total[24], thr[24];

	fprintf(out, "Causes of the %.0f slow iterations", lat_json_num(causes, "slow_iterations"));
	if (lat_json_num(causes, "slow_threshold_ns") > 0)
		fprintf(out, " (>= %s)", fmt_ns(lat_json_num(causes, "slow_threshold_ns"), thr, sizeof(thr)));
	fprintf(out, ", %s in total:\n",
		fmt_ns(lat_json_num(causes, "slow_total_ns"), total, sizeof(total)));
	fprintf(out, "  %-13s %8s %8s %9s   %s\n", "cause", "primary", "present",
		"share", "own duration: median / max");
	cJSON_ArrayForEach(row, rows)
		print_cause_row(row, out);
	fprintf(out, "  primary: the largest part of an iteration; present: any part of it;\n"
		"  share: of the total slow time, each tick counted once (innermost cause).\n");
	print_event_stats(causes, out);
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

/* "thp-zero 97%, fault 2%, unexplained <1%": the breakdown, largest first,
 * each with what it was (lat_label_note); then a newline. */
void lat_print_breakdown(const cJSON *it, FILE *out)
{
	const cJSON *bd = cJSON_GetObjectItemCaseSensitive(it, "breakdown_ticks"), *l;
	const cJSON *v[JOIN_NR_LABELS];
	double d = lat_json_num(it, "duration_ticks");
	int n = 0, i, j;

	cJSON_ArrayForEach(l, bd) {
		if (n == JOIN_NR_LABELS || !cJSON_IsNumber(l))
			continue;
		for (j = n++; j > 0 && v[j - 1]->valuedouble < l->valuedouble; j--)
			v[j] = v[j - 1];
		v[j] = l;
	}
	for (i = 0; i < n; i++) {
		double pct = d > 0 ? 100 * v[i]->valuedouble / d : 0;

		fprintf(out, pct < 0.5 ? "%s%s <1%%" : "%s%s %.0f%%", i ? ", " : "",
			v[i]->string, pct);
		lat_label_note(it, v[i]->string, out);
	}
	fputc('\n', out);
}

/* The details line of one iteration: each record type's part, then the
 * iteration's own; nothing when there is nothing to say. */
static void print_detail(const cJSON *it, FILE *out)
{
	int parts = 0;
	size_t i;

	for (i = 0; i < lat_n_evtypes; i++)
		if (lat_evtypes[i]->detail)
			lat_evtypes[i]->detail(it, out, &parts);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "migrated"))) {
		lat_detail_part(out, &parts);
		fputs("moved to another CPU", out);
	}
	if (lat_json_num(it, "lost_events")) {
		lat_detail_part(out, &parts);
		fprintf(out, "%.0f events lost around it", lat_json_num(it, "lost_events"));
	}
	if (parts)
		fputc('\n', out);
}

/* One line per iteration, and one more with its details. */
static void print_iter(const cJSON *it, FILE *out)
{
	char d[24];

	fprintf(out, "  %10.0f %10s  cpu %.0f", lat_json_num(it, "index"),
		fmt_ns(lat_json_num(it, "duration_ns"), d, sizeof(d)), lat_json_num(it, "cpu_begin"));
	if (lat_json_num(it, "cpu_end") != lat_json_num(it, "cpu_begin"))
		fprintf(out, "->%.0f", lat_json_num(it, "cpu_end"));
	fprintf(out, "  %s%s: ", lat_json_str(it, "primary"),
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "incomplete")) ?
		" (events lost: breakdown not trusted)" : "");
	lat_print_breakdown(it, out);
	print_detail(it, out);
}

static void print_slowest(const cJSON *iters, FILE *out)
{
	int n = cJSON_GetArraySize(iters), i = 0;
	struct iter_key *v = malloc((n ? n : 1) * sizeof(*v));
	const cJSON *it;

	if (!v) {
		fprintf(out, "(out of memory listing the slowest iterations)\n");
		return;
	}
	cJSON_ArrayForEach(it, iters)
		v[i++] = (struct iter_key){ lat_json_num(it, "duration_ticks"), it };
	qsort(v, n, sizeof(*v), cmp_iter_desc);
	fprintf(out, "The %d slowest iterations (index, time, CPU, primary cause: breakdown):\n",
		n < 10 ? n : 10);
	for (i = 0; i < n && i < 10; i++)
		print_iter(v[i].it, out);
	free(v);
}

void join_print(const cJSON *causes, const cJSON *iters, FILE *out)
{
	if (causes)
		print_causes(causes, out);
	if (iters && cJSON_GetArraySize(iters) > 0)
		print_slowest(iters, out);
}
