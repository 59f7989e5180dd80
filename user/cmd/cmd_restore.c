// SPDX-License-Identifier: MIT
/*
 * `latctl restore`: put back the settings a latctl run that died (SIGKILL,
 * the OOM killer) left changed, from the journal (settings/journal.h), and
 * say which; or say that none was left; and remove this user's temporary
 * files and --repeat scratch directories of latctl runs that died from
 * $TMPDIR, /tmp and the current directory. Exit 0, 1 when one could not be
 * put back (the journal then stays) or the journal was refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "file/outfile.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "settings/journal.h"
#include "settings/sysset.h"

static void usage(FILE *out)
{
	fputs("usage: latctl restore\n\n"
	      "Puts back the system settings (THP, mTHP sizes, compaction, the\n"
	      "--memcg cgroup) that a latctl run which died left changed, from the\n"
	      "journal in /run/latctl, and says which. Every latctl command does this\n"
	      "first by itself; this command does it alone. It also removes the\n"
	      "temporary files (.NAME.latctl-PID.XXXXXX) and --repeat scratch\n"
	      "directories of latctl runs that died, owned by you, from $TMPDIR, /tmp\n"
	      "and the current directory. Exit 0, or 1 when one could not be put back\n"
	      "or the journal was refused (it is then kept as journal.refused).\n", out);
}

static const struct lat_opt restore_opts[] = {
	LAT_OPT_HELP,
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts restore_cmd = {
	.cmd = "latctl restore", .opt = restore_opts, .usage = usage,
};

/* Leftovers of dead runs in the places latctl writes without being told. */
static void sweep(void)
{
	const char *t = getenv("TMPDIR");
	int n = 0;

	if (t && *t && strcmp(t, "/tmp"))
		n += lat_outfile_sweep_path(t);
	n += lat_outfile_sweep_path("/tmp");
	n += lat_outfile_sweep_path(".");
	if (n)
		fprintf(stderr, "latctl: restore: removed %d temporary file%s or directories of latctl runs that died\n",
			n, n == 1 ? "" : "s");
}

int cmd_restore(int argc, char **argv)
{
	if (lat_opt_only_help(&restore_cmd, argc, argv) == LAT_PARSED_HELP)
		return LAT_EXIT_OK;
	if (argc > 1) {
		fprintf(stderr, "latctl restore: takes no arguments; see 'latctl restore --help'\n");
		return LAT_EXIT_USAGE;
	}
	return lat_journal_recover(0) < 0 ? LAT_EXIT_FAIL : (sweep(), LAT_EXIT_OK);
}
