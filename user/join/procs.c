// SPDX-License-Identifier: MIT
/*
 * Workloads that span threads and processes: what latmon followed (its
 * thread table counts), each sample stream's own fault events (to compare
 * with that thread's or process's getrusage/wait4), and the report lines
 * about both.
 */
#include <stdlib.h>

#include "join/causes.h"
#include "backend/monitor.h"
#include "join/procs.h"
#include "lib/rdoc.h"

cJSON *lat_monitor_threads_json(const struct lat_monitor *m)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !m->have_stats)
		return o ? (cJSON_Delete(o), cJSON_CreateNull()) : NULL;
	cJSON_AddNumberToObject(o, "max", m->info.threads_max);
	cJSON_AddNumberToObject(o, "live_at_stop", m->stats.threads);
	cJSON_AddNumberToObject(o, "followed", (double)m->stats.threads_followed);
	cJSON_AddNumberToObject(o, "refused", (double)m->stats.threads_refused);
	return o;
}

/* Fault events of thread tid that getrusage counts (not retried, not failed). */
static uint64_t fault_events_of(const struct latmon_event *ev, size_t n, uint32_t tid)
{
	uint64_t count = 0;

	for (size_t i = 0; i < n; i++)
		count += ev[i].type == LATMON_EV_FAULT && ev[i].tid == tid &&
			 !(ev[i].u.fault.flags & (LATMON_FAULT_F_RETRY | LATMON_FAULT_F_ERROR |
						  LATMON_FAULT_F_MAJOR));
	return count;
}

cJSON *lat_stream_faults_json(const struct lat_run *run, const struct latmon_event *ev,
			      size_t n_events, size_t streams)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t k = 0; a && k < streams && k < LAT_MAX_STREAMS; k++) {
		cJSON *o = cJSON_CreateObject();

		if (!cJSON_AddItemToArray(a, o))
			break;
		cJSON_AddNumberToObject(o, "tid", run->stream_tid[k]);
		cJSON_AddNumberToObject(o, "fault_events", run->stream_tid[k] ?
					(double)fault_events_of(ev, n_events, run->stream_tid[k]) : 0);
	}
	return a;
}

/* "threads" is an object when latmon ran with a session, else null (absent
 * in results of latctl before it followed forks). */
void lat_procs_render(const cJSON *latmon, FILE *out, struct lat_rd *r)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(latmon, "threads");

	if (!t || cJSON_IsNull(t))
		return;
	lat_rd_expect(r, cJSON_IsObject(t), "threads");
	fprintf(out, "latmon followed %.0f threads and processes of the workload (%.0f alive at "
		"the end, at most %.0f at once)\n", lat_rd_num(r, t, "followed"),
		lat_rd_num(r, t, "live_at_stop"), lat_rd_num(r, t, "max"));
	if (lat_rd_num(r, t, "refused"))
		fprintf(out, "LOST: %.0f threads or processes the workload created were not followed "
			"(latmon's limit of %.0f at once, module parameter max_threads): their "
			"samples are unattributed\n", lat_rd_num(r, t, "refused"), lat_rd_num(r, t, "max"));
}

void lat_stream_faults_render(const cJSON *causes, FILE *out, struct lat_rd *r)
{
	const cJSON *list = lat_rd_array(r, causes, "stream_faults"), *s;
	double sum = 0;
	int n = 0;

	cJSON_ArrayForEach(s, list) {
		sum += lat_rd_num(r, s, "fault_events");
		n++;
		lat_rd_num(r, s, "tid");
	}
	if (!sum || lat_rd_num(r, causes, "faults_in_loop_joined"))
		return;		/* the streams are this process's threads */
	fprintf(out, "fault events of the %d measured streams (the workload's other processes): "
		"%.0f (", n, sum);
	cJSON_ArrayForEach(s, list)
		fprintf(out, "%s%.0f", s == list->child ? "" : " + ", lat_rd_num(r, s, "fault_events"));
	fputs("); getrusage above counts this process and its children together\n", out);
}
