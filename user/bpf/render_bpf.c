// SPDX-License-Identifier: MIT
/* The BPF backend's lines of the text report, from the result document. */
#include <stdio.h>

#include "json.h"
#include "latbpf_user.h"

static const cJSON *member(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* Records read and lost, where. */
static void render_counts(FILE *out, const cJSON *b)
{
	const char *missing = lat_json_str(b, "missing_tracepoints");
	double lost = lat_json_num(b, "lost_in_ring") + lat_json_num(b, "lost_by_latctl");

	fprintf(out, "BPF backend: %.0f programs on static tracepoints%s%s%s; %.0f records read "
		"(ring %.0f KiB, --ring; buffer %.0f, --events); lost: %.0f events in the ring "
		"buffer, %.0f in latctl's buffer%s\n",
		lat_json_num(b, "programs"), *missing ? " (not on this kernel: " : "", missing,
		*missing ? ")" : "", lat_json_num(b, "records_read"),
		lat_json_num(b, "ring_bytes") / 1024, lat_json_num(b, "buffer_events"),
		lat_json_num(b, "lost_in_ring"), lat_json_num(b, "lost_by_latctl"),
		lost ? " (LOST: the iterations they overlap are labelled incomplete)" : "");
	if (lat_json_num(b, "other_process_records"))
		fprintf(out, "BUG: %.0f records of other processes got past the filter\n",
			lat_json_num(b, "other_process_records"));
	if (lat_json_num(b, "short_records"))
		fprintf(out, "BUG: %.0f ring entries shorter than a record were skipped\n",
			lat_json_num(b, "short_records"));
}

/* The clock mapping and its check against the stated bound. */
static void render_clock(FILE *out, const cJSON *c)
{
	fprintf(out, "BPF clock on the TSC: drift %.0f ns over %.2f s; %.0f checkpoints within "
		"%.0f ns of the mapping, pair windows %.0f / %.0f ns: error up to %.0f ns, "
		"%s the stated bound of %.0f ns%s\n",
		lat_json_num(c, "drift_ns"), lat_json_num(c, "span_s"),
		lat_json_num(c, "checkpoints"), lat_json_num(c, "residual_ns"),
		lat_json_num(c, "start_window_ns"), lat_json_num(c, "end_window_ns"),
		lat_json_num(c, "error_ns"),
		cJSON_IsTrue(member(c, "worse_than_bound")) ? "WORSE than" : "within",
		lat_json_num(c, "bound_ns"),
		cJSON_IsTrue(member(c, "worse_than_bound")) ?
		" (event times may be shifted against the iterations)" : "");
}

void lat_bpf_render(FILE *out, const cJSON *backend)
{
	const cJSON *b = member(backend, "bpf");

	if (!cJSON_IsObject(b))
		return;
	render_counts(out, b);
	render_clock(out, member(b, "clock"));
	fprintf(out, "~ estimated: fault ends (the thread's next rss_stat or switch-out, else its next "
		"fault: %.0f, %.0f of them cut at its next TSC read) and huge-page zeroing (from the "
		"order-9 allocation to the rss_stat of its fault)\n",
		lat_json_num(b, "fault_ends_open"), lat_json_num(b, "fault_ends_clipped"));
}
