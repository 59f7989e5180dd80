// SPDX-License-Identifier: MIT
/*
 * `latctl plot RESULT.json [-o FILE.svg]`, or two results, or a comparison:
 * the arguments, then the plot library (plot/) draws, written atomically.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "doc/result.h"
#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "plot/plot.h"
#include "plot/plot_int.h"

struct one_result {
	const cJSON *doc;
	const char *in;
};

static int draw_one(void *arg, FILE *out)
{
	const struct one_result *r = arg;

	return lat_plot_svg(r->doc, r->in, out);
}

static void usage(FILE *out);

static const struct lat_opt plot_opts[] = {
	LAT_OPT_HELP,
	{ "output", 'o', "FILE", "write the picture to FILE (atomically)", "<file>", NULL },
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts plot_cmd = {
	.cmd = "latctl plot", .opt = plot_opts, .width = 21, .args = "<json>", .usage = usage,
};

static void usage(FILE *out)
{
	fputs("usage: latctl plot RESULT.json [-o FILE.svg]\n"
	      "       latctl plot BASE.json NEW.json [-o FILE.svg]\n"
	      "       latctl plot COMPARISON.json [-o FILE.svg]\n\n"
	      "Draws a result of 'latctl run --json' as one SVG picture: the log2 histogram\n"
	      "of every iteration, each bar split into the iterations under the slow\n"
	      "threshold and the slow ones by primary cause, and the timeline of the slow\n"
	      "iterations (number against duration) marked by cause. Colours are safe for\n"
	      "colour-blind readers, and hatching and mark shapes keep the causes apart\n"
	      "in greyscale. With -o - the SVG goes to standard output (without -o too,\n"
	      "unless that is a terminal: 33 KB of SVG is refused there).\n\n"
	      "Given two results (or what 'latctl compare --json' wrote), it draws the\n"
	      "comparison: both histograms bar beside bar (base left, new right), each\n"
	      "split by cause; every percentile's median and interval on both sides\n"
	      "with the change and its significance; and each cause's change in slow\n"
	      "time, as compare explains it.\n\n"
	      "options:\n", out);
	lat_opt_usage(out, &plot_cmd);
	fputs("\nexamples:\n"
	      "  latctl run grow --json r.json && latctl plot r.json -o r.svg\n"
	      "  latctl plot a.json b.json -o ab.svg    (two results of run --repeat 5)\n"
	      "  latctl compare a.json b.json --json c.json && latctl plot c.json -o c.svg\n"
	      "  rsvg-convert r.svg -o r.png    (a PNG, with librsvg2-bin)\n", out);
}

/* One or two files and -o FILE, in any order. */
static enum lat_parsed parse_args(int argc, char **argv, const char **in, const char **out)
{
	struct lat_optp p;
	int c;

	lat_opt_begin(&p, &plot_cmd);
	while ((c = lat_opt_next(&p, argc, argv)) != LAT_OPT_END) {
		if (c == LAT_OPT_DONE)
			return LAT_PARSED_HELP;
		if (c == LAT_OPT_BAD)
			return lat_opt_say(&p);
		if (*out) {		/* -o: the only option with a value */
			fprintf(stderr, "latctl plot: -o given twice (%s and %s); give one file\n", *out, optarg);
			return LAT_PARSED_BAD;
		}
		*out = optarg;
	}
	if (optind + 2 < argc) {
		fprintf(stderr, "latctl plot: unexpected argument '%s'; give one result file, or two to compare\n",
			argv[optind + 2]);
		return LAT_PARSED_BAD;
	}
	if (optind < argc) {
		in[0] = argv[optind];
		in[1] = optind + 1 < argc ? argv[optind + 1] : NULL;
		return LAT_PARSED_RUN;
	}
	fprintf(stderr, "latctl plot: give one result file: latctl plot RESULT.json -o FILE.svg\n");
	return LAT_PARSED_BAD;
}

int cmd_plot(int argc, char **argv)
{
	const char *in[2] = { NULL, NULL }, *out = NULL;
	struct one_result r = { NULL, NULL };
	cJSON *doc = NULL;
	int ret = parse_args(argc, argv, in, &out);

	if (ret)
		return ret == LAT_PARSED_HELP ? LAT_EXIT_OK : LAT_EXIT_USAGE;
	if (!out && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "latctl plot: not writing SVG onto a terminal; give -o FILE.svg (or -o - for stdout)\n");
		return LAT_EXIT_USAGE;
	}
	if (out && !strcmp(out, "-"))
		out = NULL;		/* stdout, asked for */
	ret = lat_plot_compare_cmd(in, out);
	if (ret >= 0)
		return ret;
	if (lat_result_read(in[0], &doc))
		return LAT_EXIT_USAGE;
	r = (struct one_result){ doc, in[0] };
	ret = lat_plot_write(out, draw_one, &r);
	cJSON_Delete(doc);
	return ret == -ENOMEM || ret == -EIO ? LAT_EXIT_FAIL : ret ? LAT_EXIT_USAGE : LAT_EXIT_OK;
}
