/* SPDX-License-Identifier: MIT */
/* Command-line options of `latctl run`: the parser of struct lat_opts
 * (doc/runopts.h), the core's rows then every workload's. */
#ifndef LATCTL_OPTS_H
#define LATCTL_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "doc/runopts.h"
#include "lib/opt.h"

/* Parse `run` options into o: run, --help printed, or a bad command line
 * (one line printed on stderr; exit 2). */
enum lat_parsed lat_opts_parse(int argc, char **argv, struct lat_opts *o);

void lat_opts_usage(FILE *out);

/* The option table of `run`: the core's options, then every workload's
 * (--vm rebuilds the guest's command line from it). */
const struct lat_cmd_opts *lat_opts_table(void);

#endif /* LATCTL_OPTS_H */
