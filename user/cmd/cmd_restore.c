// SPDX-License-Identifier: MIT
/*
 * `latctl restore`: put back the settings a latctl run that died (SIGKILL,
 * the OOM killer) left changed, from the journal (system/journal.h), and
 * say which; or say that none was left. Exit 0, 1 when one could not be
 * put back (the journal then stays).
 */
#include <stdio.h>

#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "system/journal.h"
#include "system/sysset.h"

static void usage(FILE *out)
{
	fputs("usage: latctl restore\n\n"
	      "Puts back the system settings (THP, mTHP sizes, compaction, the\n"
	      "--memcg cgroup) that a latctl run which died left changed, from the\n"
	      "journal in /run/latctl, and says which. Every latctl command does this\n"
	      "first by itself; this command does it alone. Exit 0, or 1 when one\n"
	      "could not be put back.\n", out);
}

static const struct lat_opt restore_opts[] = {
	{ "help", 'h', NULL, "this text", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL },
};

static const struct lat_cmd_opts restore_cmd = {
	.cmd = "latctl restore", .opt = restore_opts, .usage = usage,
};

int cmd_restore(int argc, char **argv)
{
	if (lat_opt_only_help(&restore_cmd, argc, argv) == LAT_PARSED_HELP)
		return LAT_EXIT_OK;
	if (argc > 1) {
		fprintf(stderr, "latctl restore: takes no arguments; see 'latctl restore --help'\n");
		return LAT_EXIT_USAGE;
	}
	return lat_journal_recover(0) < 0 ? LAT_EXIT_FAIL : LAT_EXIT_OK;
}
