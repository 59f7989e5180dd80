// SPDX-License-Identifier: MIT
/* The report lines of a workload that spans threads and processes: what
 * latmon followed, and each sample stream's own fault events. */
#include "lib/rdoc.h"
#include "report/render.h"

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
	fprintf(out, "fault events of the %d measured stream%s (the workload's other processes): "
		"%.0f (", n, n == 1 ? "" : "s", sum);
	cJSON_ArrayForEach(s, list)
		fprintf(out, "%s%.0f", s == list->child ? "" : " + ", lat_rd_num(r, s, "fault_events"));
	fputs("); getrusage above counts this process and its children together\n", out);
}
