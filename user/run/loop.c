// SPDX-License-Identifier: MIT
/* The workload's phase (setup, samples, teardown) and the timed loop's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/latctl.h"
#include "lib/progress.h"
#include "lib/tsc.h"
#include "run/phases.h"
#include "system/memmap.h"
#include "system/mmenv.h"

/* Shared anonymous sample array, written once so no fault lands in the loop. */
static int alloc_samples(struct lat_run *run)
{
	size_t bytes = run->cap * sizeof(*run->samples);

	run->samples = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run->samples == MAP_FAILED) {
		run->samples = NULL;
		fprintf(stderr, "latctl: cannot map %zu MiB for %zu samples: %s; use a smaller --iters\n",
			bytes >> 20, run->cap, strerror(errno));
		return -ENOMEM;
	}
	memset(run->samples, 0xff, bytes);
	return 0;
}

/* Stream 0 is the thread that calls run(): this one. */
static int name_own_stream(struct lat_run *run)
{
	struct lat_stream *s = lat_run_stream(run, 0);

	if (!s) {
		fprintf(stderr, "latctl: out of memory\n");
		return -ENOMEM;
	}
	s->tid = (uint32_t)gettid();
	s->pid = (uint32_t)getpid();
	if (prctl(PR_GET_NAME, s->comm))
		s->comm[0] = '\0';
	return 0;
}

/* The workload's setup, the sample array, stream 0 named. LAT_EXIT_*. */
int lat_phase_workload(struct lat_run_ctx *c)
{
	struct lat_run *run = &c->run;
	int ret = run->ops->setup ? run->ops->setup(run) : 0;

	if (ret == -EINVAL)		/* bad input, reported by the workload */
		return LAT_EXIT_USAGE;
	if (ret == -ENOENT || ret == -EACCES)	/* exec's command, said as a shell */
		return ret == -ENOENT ? LAT_EXIT_NOT_FOUND : LAT_EXIT_CANNOT_RUN;
	if (ret) {
		fprintf(stderr, "latctl: %s: setup failed: %s\n", run->ops->name, strerror(-ret));
		return LAT_EXIT_FAIL;
	}
	c->set_up = 1;
	if (!run->cap)
		run->cap = run->iters;
	if (alloc_samples(run) || name_own_stream(run))
		return LAT_EXIT_FAIL;
	return 0;
}

void lat_phase_workload_undo(struct lat_run_ctx *c)
{
	if (c->set_up && c->run.ops->teardown)
		c->run.ops->teardown(&c->run);
	if (c->run.samples)
		munmap(c->run.samples, c->run.cap * sizeof(*c->run.samples));
	lat_run_streams_free(&c->run);
}

/*
 * On a terminal, one still line while the loop is timed (no ticker there).
 * In a --vm guest, whose output the host relays without progress lines, a
 * line of its own where the host shows progress (LATCTL_VM_GUEST=tty): the
 * user sees when Ctrl-C reaches a running loop.
 */
static void show_timing(const struct lat_run *run)
{
	const char *guest = getenv("LATCTL_VM_GUEST");
	char line[96];

	if (guest && !strcmp(guest, "tty")) {
		fprintf(stderr, "\r\033[Klatctl: in the VM: timing %s; Ctrl-C now stops it and reports\n",
			run->ops->name);
		return;
	}
	snprintf(line, sizeof(line), "timing %s (this line holds still: nothing interrupts the loop)",
		 run->ops->name);
	lat_progress_hold(line);
}


/* What the loop's return and its samples make of the run. */
static int loop_status(struct lat_run_ctx *c, int ret)
{
	struct lat_run *run = &c->run;

	if (ret == -EINVAL)
		return LAT_EXIT_USAGE;
	if (ret == -ENOEXEC)	/* exec's command did not start; it said why */
		return run->exit_status;
	if (!ret && run->n == 0 && c->interrupted) {
		fprintf(stderr, "latctl: interrupted before the first iteration; nothing to report\n");
		return LAT_EXIT_INTERRUPTED;
	}
	if (ret || run->n == 0) {
		fprintf(stderr, "latctl: %s: the timed run failed: %s\n", run->ops->name,
			ret ? strerror(-ret) : run->fail_why[0] ? run->fail_why : "no iteration recorded");
		/* exec: the command ran; its failure stays its own */
		return !ret && run->exit_status ? run->exit_status : LAT_EXIT_FAIL;
	}
	if (c->interrupted)
		run->exit_status = LAT_EXIT_INTERRUPTED;
	return 0;
}

/* The mappings of every process that ran the loop, while they are there:
 * what the faults were on (system/memmap.h). */
static void snapshot_maps(const struct lat_run *run)
{
	size_t k;

	lat_memmap_clear();
	lat_memmap_snapshot(getpid());
	for (k = 0; k < run->n_streams; k++)
		if (run->streams[k].pid && run->streams[k].pid != (uint32_t)getpid())
			lat_memmap_snapshot((pid_t)run->streams[k].pid);
}

/* The timed loop between two counter reads, then recording stopped and
 * exec's iterations taken from the records. LAT_EXIT_*. */
int lat_phase_loop(struct lat_run_ctx *c)
{
	struct lat_run *run = &c->run;
	uint16_t cpu;
	int ret;

	c->tsc_before = lat_tsc(&cpu);
	lat_counters_read(&c->before, c->opts.cpu); /* smaps_rollup: long with a large mapping */
	show_timing(run);		/* last: a Ctrl-C after it finds the loop running */
	ret = run->ops->run(run);
	c->interrupted = lat_stop_requested != 0;	/* later: the data is whole */
	lat_counters_read(&c->after, c->opts.cpu);
	c->tsc_after = lat_tsc(&cpu);
	lat_mm_env_leave();
	lat_run_hv_end(&c->hv);
	lat_progress_done();
	snapshot_maps(run);
	lat_backend_stop(&c->sess, run);
	if (!ret && run->ops->from_events)
		ret = run->ops->from_events(run, c->sess.buf.ev, c->sess.buf.n);
	return loop_status(c, ret);
}
