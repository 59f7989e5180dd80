// SPDX-License-Identifier: MIT
/* The BPF backend's lines of the text report, from the result document. */
#include <stdio.h>

#include "backend/bpf/latbpf.h"
#include "lib/rdoc.h"
#include "report/render.h"

/* Records read and lost, where. */
static void render_counts(FILE *out, struct lat_rd *r, const cJSON *b)
{
	const char *missing = lat_rd_str(r, b, "missing_tracepoints");
	double lost = lat_rd_num(r, b, "lost_in_ring") + lat_rd_num(r, b, "lost_by_latctl");

	fprintf(out, "BPF backend: %.0f programs on static tracepoints%s%s%s; %.0f records read "
		"(ring %.0f KiB, --ring; buffer %.0f, --events); lost: %.0f events in the ring "
		"buffer, %.0f in latctl's buffer%s\n",
		lat_rd_num(r, b, "programs"), *missing ? " (not on this kernel: " : "", missing,
		*missing ? ")" : "", lat_rd_num(r, b, "records_read"),
		lat_rd_num(r, b, "ring_bytes") / 1024, lat_rd_num(r, b, "buffer_events"),
		lat_rd_num(r, b, "lost_in_ring"), lat_rd_num(r, b, "lost_by_latctl"),
		lost ? " (LOST: the iterations they overlap are labelled incomplete)" : "");
	if (lat_rd_num(r, b, "other_process_records"))
		fprintf(out, "BUG: %.0f records of other processes got past the filter\n",
			lat_rd_num(r, b, "other_process_records"));
	if (lat_rd_num(r, b, "short_records"))
		fprintf(out, "BUG: %.0f ring entries shorter than a record were skipped\n",
			lat_rd_num(r, b, "short_records"));
}

/* The processes the workload forked: followed, refused (their samples are
 * unattributed), records the filter check could not cover. Nothing when
 * the workload forked none. */
static void render_followed(FILE *out, struct lat_rd *r, const cJSON *f)
{
	double followed = lat_rd_num(r, f, "followed"), refused = lat_rd_num(r, f, "refused");
	double unchecked = lat_rd_num(r, f, "unchecked_records");

	if (followed || refused)
		fprintf(out, "BPF backend followed %.0f process%s the workload forked (%.0f alive at "
			"the end, at most %.0f at once)\n", followed, followed == 1 ? "" : "es",
			lat_rd_num(r, f, "live_at_stop"),
			lat_rd_num(r, f, "max"));
	if (refused)
		fprintf(out, "LOST: %.0f process%s the workload forked %s not followed (the limit of "
			"%.0f at once, LATCTL_BPF_FOLLOW_MAX): their samples are unattributed\n",
			refused, refused == 1 ? "" : "es", refused == 1 ? "was" : "were",
			lat_rd_num(r, f, "max"));
	if (unchecked)
		fprintf(out, "%.0f records of processes past the log of %d followed ones were not "
			"checked against the filter\n", unchecked, LATBPF_FOLLOW_LOG);
}

/* The clock mapping and its check against the stated bound. */
static void render_clock(FILE *out, struct lat_rd *r, const cJSON *c)
{
	fprintf(out, "BPF clock on the TSC: drift %.0f ns over %.2f s; %.0f checkpoints within "
		"%.0f ns of the mapping, pair windows %.0f / %.0f ns: error up to %.0f ns, "
		"%s the stated bound of %.0f ns%s\n",
		lat_rd_num(r, c, "drift_ns"), lat_rd_num(r, c, "span_s"),
		lat_rd_num(r, c, "checkpoints"), lat_rd_num(r, c, "residual_ns"),
		lat_rd_num(r, c, "start_window_ns"), lat_rd_num(r, c, "end_window_ns"),
		lat_rd_num(r, c, "error_ns"),
		lat_rd_bool(r, c, "worse_than_bound") ? "WORSE than" : "within",
		lat_rd_num(r, c, "bound_ns"),
		lat_rd_bool(r, c, "worse_than_bound") ?
		" (event times may be shifted against the iterations)" : "");
}

/* The steal clock's readings, and what of steal is estimated. */
static void render_steal(FILE *out, struct lat_rd *r, const cJSON *b)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(b, "steal");
	double reads, records;

	if (!s)
		return; /* a result of an older latctl */
	reads = lat_rd_num(r, s, "reads");
	records = lat_rd_num(r, s, "records");
	if (!reads) {
		fprintf(out, "steal clock: not read (this kernel keeps none, or this is no guest "
			     "with one)\n");
		return;
	}
	fprintf(out,
		"~ estimated: where steal fell: %.0f readings of the steal clock at the "
		"threads' switches and ticks, %.0f of them moved (%.1f us); each moved reading's "
		"steal is placed whole in the first slow iteration since the reading before "
		"whose unexplained time holds it\n",
		reads, records, lat_rd_num(r, s, "recorded_ns") / 1e3);
}

void lat_bpf_render(FILE *out, struct lat_rd *r, const cJSON *backend)
{
	const cJSON *b = lat_rd_obj(r, backend, "bpf");

	render_counts(out, r, b);
	render_followed(out, r, lat_rd_obj(r, b, "followed"));
	render_clock(out, r, lat_rd_obj(r, b, "clock"));
	fprintf(out, "~ estimated: fault ends (the thread's next rss_stat or switch-out, else its next "
		"fault: %.0f, %.0f of them cut at its next TSC read) and huge-page zeroing (from the "
		"order-9 allocation to the rss_stat of its fault)\n",
		lat_rd_num(r, b, "fault_ends_open"), lat_rd_num(r, b, "fault_ends_clipped"));
	render_steal(out, r, b);
}
