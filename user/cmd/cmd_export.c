// SPDX-License-Identifier: MIT
/*
 * `latctl export RESULT.json -o FILE.pftrace`: the result as a Perfetto
 * trace (export/perfetto.c), written atomically, and one line saying what
 * is in it and what is not.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "export/perfetto.h"
#include "file/outfile.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "report/render.h"

#define DEFAULT_MAX_SLOW 100000

static void usage(FILE *out);

static const struct lat_opt export_opts[] = {
	LAT_OPT_HELP,
	{ "max", 'n', "N",
	  "at most the N slowest iterations (default 100000,\n"
	  "every one a result lists); the rest are counted",
	  NULL, NULL },
	{ "output", 'o', "FILE", "write the trace to FILE (atomically); - for stdout", "<file>",
	  NULL },
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts export_cmd = {
	.cmd = "latctl export",
	.opt = export_opts,
	.width = 21,
	.args = "<json>",
	.usage = usage,
};

static void usage(FILE *out)
{
	fputs("usage: latctl export RESULT.json -o FILE.pftrace\n\n"
	      "Writes a result of 'latctl run --json' as a Perfetto trace, for\n"
	      "ui.perfetto.dev and trace_processor: a track per measured thread with\n"
	      "each slow iteration a slice named by its primary cause, the kernel's\n"
	      "spans inside it (fault, thp-zero, preemption, interrupt, ...) as nested\n"
	      "slices with their records' times, and a counter track of the\n"
	      "iteration's time. Times are on CLOCK_BOOTTIME, through the clock\n"
	      "snapshot the run took: a system trace recorded meanwhile (perfetto,\n"
	      "trace-cmd) opens beside it, aligned. The ordinary iterations around\n"
	      "the 10 slowest are slices too (100 on each side); the others are not\n"
	      "in a result (its histogram counts them).\n\n"
	      "options:\n",
	      out);
	lat_opt_usage(out, &export_cmd);
	fputs("\nexamples:\n"
	      "  latctl run grow --thp always --json r.json && latctl export r.json -o r.pftrace\n"
	      "  cat system.pftrace r.pftrace > both.pftrace   (one file: both traces)\n",
	      out);
}

static enum lat_parsed parse_args(int argc, char **argv, const char **in, const char **out,
				  uint64_t *max)
{
	struct lat_optp p;
	int c;

	lat_opt_begin(&p, &export_cmd);
	while ((c = lat_opt_next(&p, argc, argv)) != LAT_OPT_END) {
		if (c == LAT_OPT_DONE)
			return LAT_PARSED_HELP;
		if (c == LAT_OPT_BAD)
			return lat_opt_say(&p);
		if (c == 'n' && lat_opt_parse_count("--max", optarg, 1, 100000000, max))
			return LAT_PARSED_BAD;
		if (c == 'o' && *out) {
			fprintf(stderr,
				"latctl export: -o given twice (%s and %s); give one file\n", *out,
				optarg);
			return LAT_PARSED_BAD;
		}
		if (c == 'o')
			*out = optarg;
	}
	if (optind + 1 != argc) {
		fprintf(stderr,
			"latctl export: give one result file: latctl export RESULT.json -o FILE.pftrace\n");
		return LAT_PARSED_BAD;
	}
	*in = argv[optind];
	if (!*out) {
		fprintf(stderr,
			"latctl export: give the trace's file: -o FILE.pftrace (or -o - for stdout)\n");
		return LAT_PARSED_BAD;
	}
	return LAT_PARSED_RUN;
}

/* What the file holds, and what the result did not have. */
static void say(const char *out, const struct lat_export_stats *st, size_t bytes)
{
	fprintf(stderr,
		"latctl export: %s: %zu slow iterations on %zu thread tracks, %zu kernel spans "
		"(%zu cut to nest), %zu ordinary iterations around the slowest, %.1f KiB",
		out, st->slow, st->threads, st->spans, st->clipped, st->ordinary, bytes / 1024.0);
	if (st->left_out)
		fprintf(stderr, "; %zu faster slow iterations left out (--max)", st->left_out);
	fputs("\n", stderr);
	if (st->runs > 1)
		fprintf(stderr,
			"latctl export: a --repeat result: its run 1 of %zu (the others keep only their summaries)\n",
			st->runs);
	if (!st->snapshot)
		fputs("latctl export: the result has no clock snapshot (an older latctl): times are the TSC's, not CLOCK_BOOTTIME; a system trace will not line up\n",
		      stderr);
	if (st->slow && !st->have_spans)
		fputs("latctl export: the result has no kernel spans (an older latctl): slices without the kernel's events inside\n",
		      stderr);
}

/* The trace into out (atomically, as file/outfile.h says), or stdout. */
static int write_trace(const char *out, const struct lat_pb *b)
{
	struct lat_outfile f;
	int ret;

	if (!strcmp(out, "-")) {
		if (isatty(STDOUT_FILENO)) {
			fprintf(stderr,
				"latctl export: not writing a binary trace onto a terminal; give -o FILE.pftrace\n");
			return -EINVAL;
		}
		fwrite(b->buf, 1, b->len, stdout); /* a failed stdout: main says it */
		return 0;
	}
	if (lat_outfile_open(&f, out, "-o"))
		return -EINVAL;
	ret = lat_outfile_commit(&f, (const char *)b->buf, b->len) ? -EIO : 0;
	lat_outfile_abort(&f);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	uint64_t max = DEFAULT_MAX_SLOW;
	struct lat_export_stats st;
	struct lat_pb b;
	cJSON *doc = NULL;
	int ret = parse_args(argc, argv, &in, &out, &max);

	if (ret)
		return ret == LAT_PARSED_HELP ? LAT_EXIT_OK : LAT_EXIT_USAGE;
	if (lat_runs_load(in, &doc))
		return LAT_EXIT_USAGE;
	lat_pb_init(&b);
	ret = lat_perfetto_trace(doc, (size_t)max, &b, &st);
	cJSON_Delete(doc);
	if (ret == -EINVAL)
		fprintf(stderr,
			"latctl export: %s: no TSC frequency in the result; it cannot be put on a clock\n",
			in);
	else if (ret)
		fprintf(stderr, "latctl export: %s: %s\n", in, strerror(-ret));
	if (!ret)
		ret = write_trace(out, &b);
	if (!ret)
		say(out, &st, b.len);
	lat_pb_free(&b);
	return !ret ? LAT_EXIT_OK : ret == -EINVAL ? LAT_EXIT_USAGE : LAT_EXIT_FAIL;
}
