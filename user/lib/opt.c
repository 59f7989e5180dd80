// SPDX-License-Identifier: MIT
/* Option tables: getopt_long's arrays, the usage's option lines and the
 * --list-opts answer, all from one struct lat_opt array per command. */
#include <ctype.h>
#include <string.h>

#include "lib/opt.h"

#define KEY_LIST_OPTS	(LAT_OPT_LONG - 1)	/* --list-opts, in every table */

static int has_short(int key)
{
	return key > 0 && key < 128 && isalnum(key);
}

void lat_opt_begin(struct lat_optp *p, const struct lat_cmd_opts *c)
{
	const struct lat_opt *o;
	size_t n = 0, s = 0;

	memset(p, 0, sizeof(*p));
	p->c = c;
	if (c->posix)
		p->so[s++] = '+';
	p->so[s++] = ':';		/* a missing value: ':', not '?' */
	for (o = c->opt; o->name && n < LAT_OPT_MAX; o++, n++) {
		p->lo[n] = (struct option){ o->name, o->arg ? required_argument : no_argument,
					    NULL, o->key };
		if (!has_short(o->key))
			continue;
		p->so[s++] = (char)o->key;
		if (o->arg)
			p->so[s++] = ':';
	}
	p->lo[n] = (struct option){ "list-opts", no_argument, NULL, KEY_LIST_OPTS };
	optind = 0;			/* a full reset of GNU getopt */
	opterr = 0;
}

static void say_bad(struct lat_optp *p, int c, char **argv)
{
	const char *given = argv[optind - 1];
	char letter[3] = { '-', (char)optopt, '\0' };

	if (c == '?' && optopt)
		given = letter;
	snprintf(p->why, sizeof(p->why), c == ':' ? "option '%s' needs a value; see '%s --help'" :
		 "unknown option '%s'; see '%s --help'", given, p->c->cmd);
}

int lat_opt_next(struct lat_optp *p, int argc, char **argv)
{
	int c = getopt_long(argc, argv, p->so, p->lo, NULL);

	if (c == -1)
		return LAT_OPT_END;
	if (c == KEY_LIST_OPTS) {
		lat_opt_list(stdout, p->c);
		return LAT_OPT_DONE;
	}
	if (c == 'h' && lat_opt_of(p->c, 'h')) {
		p->c->usage(stdout);
		return LAT_OPT_DONE;
	}
	if (c == '?' || c == ':') {
		say_bad(p, c, argv);
		return LAT_OPT_BAD;
	}
	return c;
}

const struct lat_opt *lat_opt_of(const struct lat_cmd_opts *c, int key)
{
	const struct lat_opt *o;

	for (o = c->opt; o->name; o++)
		if (o->key == key)
			return o;
	return NULL;
}

enum lat_parsed lat_opt_say(const struct lat_optp *p)
{
	fprintf(stderr, "%s: %s\n", p->c->cmd, p->why);
	return LAT_PARSED_BAD;
}

/* One option's lines: its names padded to the column, then its help. */
static void usage_of(FILE *out, const struct lat_opt *o, int width)
{
	char left[96], letter[8] = "    ";
	const char *h, *nl;

	if (has_short(o->key))
		snprintf(letter, sizeof(letter), "-%c, ", o->key);
	snprintf(left, sizeof(left), "%s--%s%s%s", letter, o->name, o->arg ? " " : "",
		 o->arg ? o->arg : "");
	fprintf(out, "  %-*s  ", width - 4, left);
	for (h = o->help; (nl = strchr(h, '\n')); h = nl + 1)
		fprintf(out, "%.*s\n%*s", (int)(nl - h), h, width, "");
	fprintf(out, "%s\n", h);
}

void lat_opt_usage(FILE *out, const struct lat_cmd_opts *c)
{
	const struct lat_opt *o;

	for (o = c->opt; o->name; o++)
		if (o->help)
			usage_of(out, o, c->width);
}

void lat_opt_list(FILE *out, const struct lat_cmd_opts *c)
{
	const struct lat_opt *o;

	for (o = c->opt; o->name; o++) {
		fprintf(out, "--%s%s", o->name, o->arg ? "=" : "");
		if (o->values)
			fprintf(out, " %s", o->values);
		if (o->list)
			o->list(out);
		fputc('\n', out);
	}
	if (!c->args && !c->list_args)
		return;
	fputc(c->subcommands ? '+' : '-', out);
	if (c->args)
		fprintf(out, " %s", c->args);
	if (c->list_args)
		c->list_args(out);
	fputc('\n', out);
}

enum lat_parsed lat_opt_only_help(const struct lat_cmd_opts *c, int argc, char **argv)
{
	if (argc != 2)
		return LAT_PARSED_RUN;
	if (!strcmp(argv[1], "--list-opts")) {
		lat_opt_list(stdout, c);
		return LAT_PARSED_HELP;
	}
	if (strcmp(argv[1], "--help") && strcmp(argv[1], "-h"))
		return LAT_PARSED_RUN;
	c->usage(stdout);
	return LAT_PARSED_HELP;
}
