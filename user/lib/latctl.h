/* SPDX-License-Identifier: MIT */
/* What every layer of latctl shares: its exit codes, the whole command
 * line, the version. */
#ifndef LATCTL_LATCTL_H
#define LATCTL_LATCTL_H

#define LAT_EXIT_OK	0	/* the run or report worked */
#define LAT_EXIT_FAIL	1	/* the system refused: permission, memory, ... */
#define LAT_EXIT_USAGE	2	/* bad command line or bad input file */
#define LAT_EXIT_CANNOT_TELL 125	/* check: git bisect's "skip" */
#define LAT_EXIT_CANNOT_RUN 126	/* exec: the command cannot be run, as a shell's */
#define LAT_EXIT_NOT_FOUND 127	/* exec: the command is not found, as a shell's */
#define LAT_EXIT_INTERRUPTED 130 /* Ctrl-C: 128 + SIGINT, as a shell reports it */

/* The whole command line, for the result document. */
extern int lat_main_argc;
extern char **lat_main_argv;


/* Set by the Makefile from the module's version (module/latmon.h). */
#ifndef LATCTL_VERSION
#define LATCTL_VERSION "unknown"
#endif

#endif /* LATCTL_LATCTL_H */
