/* SPDX-License-Identifier: MIT */
/* A command's options as one table: it parses the command line, prints the
 * options part of the usage and answers --list-opts, from which the shell
 * completion takes every option and every value it offers. */
#ifndef LATCTL_OPT_H
#define LATCTL_OPT_H

#include <getopt.h>
#include <stdio.h>

/* What a command's parsing gave: go on, --help (or --list-opts) printed,
 * or a bad command line (one line says why). Every command's parser
 * returns one of them. */
enum lat_parsed { LAT_PARSED_RUN, LAT_PARSED_HELP, LAT_PARSED_BAD };

struct lat_opt {
	const char *name;	/* "iters" for --iters; NULL ends a table */
	int key;		/* 'i' (also -i), or LAT_OPT_LONG + n (long only) */
	const char *arg;	/* the value's name in the usage ("N"); NULL: a flag */
	const char *help;	/* the usage text, '\n' before each further line;
				 * NULL: printed elsewhere (a workload's own) */
	const char *values;	/* what completes the value: words, or "<file>" */
	void (*list)(FILE *out);	/* or these words, printed when asked */
};

#define LAT_OPT_LONG	256

/* The rows every command's table repeats: --help (-h), a --json flag with
 * its help, and the end of a table. */
/* clang-format off */
#define LAT_OPT_HELP		{ "help", 'h', NULL, "this text", NULL, NULL }
#define LAT_OPT_JSON(help)	{ "json", LAT_OPT_LONG, NULL, help, NULL, NULL }
#define LAT_OPT_TABLE_END	{ NULL, 0, NULL, NULL, NULL, NULL }
/* clang-format on */

struct lat_cmd_opts {
	const char *cmd;		/* "latctl run": its lines start so */
	const struct lat_opt *opt;	/* ends with a { NULL } entry */
	int width;			/* of the usage's option column */
	int posix;			/* options end at the first argument */
	const char *args;		/* what completes an argument: words, "<json>", "<file>" */
	void (*list_args)(FILE *out);	/* or these words */
	int subcommands;		/* the arguments are subcommands, with tables of their own */
	void (*usage)(FILE *out);	/* the whole usage, for --help */
};

#define LAT_OPT_MAX	64

/* One parse of a command line: getopt's tables, made from the command's. */
struct lat_optp {
	const struct lat_cmd_opts *c;
	struct option lo[LAT_OPT_MAX + 2];
	char so[2 * LAT_OPT_MAX + 4];
	char why[256];		/* the bad command line, for lat_opt_say() */
};

/* The result of lat_opt_next() that is no option's key. */
#define LAT_OPT_END	(-1)
#define LAT_OPT_DONE	(-2)	/* --help or --list-opts printed */
#define LAT_OPT_BAD	(-3)	/* an unknown option or a missing value: p->why */

/* Begin a parse of argv from its first argument on (GNU getopt reset). */
void lat_opt_begin(struct lat_optp *p, const struct lat_cmd_opts *c);

/* The next option's key (its value in optarg), or LAT_OPT_END, LAT_OPT_DONE
 * or LAT_OPT_BAD; --help prints c->usage to stdout. */
int lat_opt_next(struct lat_optp *p, int argc, char **argv);

/* The option of a key, for its name in a message. */
const struct lat_opt *lat_opt_of(const struct lat_cmd_opts *c, int key);

/* "CMD: why" on stderr; LAT_PARSED_BAD. */
enum lat_parsed lat_opt_say(const struct lat_optp *p);

/* The options part of the usage: "  -i, --iters N   help", in table order. */
void lat_opt_usage(FILE *out, const struct lat_cmd_opts *c);

/* --list-opts: "--name" (a flag) or "--name= [words]" a line each; "- words"
 * for the arguments, "+ words" when they are subcommands. */
void lat_opt_list(FILE *out, const struct lat_cmd_opts *c);

/* "CMD --help" or "CMD --list-opts" alone on a command line without other
 * options: printed, LAT_PARSED_HELP; else LAT_PARSED_RUN. */
enum lat_parsed lat_opt_only_help(const struct lat_cmd_opts *c, int argc, char **argv);

#endif /* LATCTL_OPT_H */
