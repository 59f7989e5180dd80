/* SPDX-License-Identifier: MIT */
/* `latctl plot`: a result document as one SVG picture (cmd_plot.c). */
#ifndef LATCTL_PLOT_H
#define LATCTL_PLOT_H

#include <stdio.h>
#include <cjson/cJSON.h>

/* Draw doc (a result, as lat_result_read returns it) as SVG into out.
 * origin names it in messages (NULL: print none). 0, -EINVAL (one line
 * said which key is missing or of the wrong type; nothing written) or
 * -ENOMEM. */
int lat_plot_svg(const cJSON *doc, const char *origin, FILE *out);

/* Draw cmp (one element of a comparison's "comparisons") as SVG into out;
 * docs are its base and new results for the histograms, or NULLs, when
 * why_no_hist says in the picture why not. 0, -EINVAL (one line on stderr
 * unless origin is NULL; nothing written) or -ENOMEM. */
int lat_plot_compare_svg(const cJSON *cmp, const cJSON *const docs[2], const char *origin,
			 const char *why_no_hist, FILE *out);

#endif /* LATCTL_PLOT_H */
