// SPDX-License-Identifier: MIT
/* The phases of one run, in order, and the driver that undoes them. */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/latctl.h"
#include "lib/tsc.h"
#include "run/phases.h"
#include "system/mmenv.h"
#include "system/sysinfo.h"
#include "system/thp.h"

void lat_run_ctx_init(struct lat_run_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->sess.mon.fd = -1;
}

static int pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "latctl: --cpu %d: cannot run there (%s); this machine has %ld CPUs online, numbered from 0\n",
			cpu, strerror(errno), sysconf(_SC_NPROCESSORS_ONLN));
		return -EINVAL;
	}
	return 0;
}

/* Result file, CPU, THP, --memcg and --fragment: what must be right before
 * any work is done. */
static int phase_settings(struct lat_run_ctx *c)
{
	lat_cleanup_install();
	lat_cleanup_phase("during set-up: nothing measured; what it changed is put back");
	if (c->opts.json_path && lat_result_open(&c->file, c->opts.json_path))
		return LAT_EXIT_USAGE;
	if (pin_cpu(c->opts.cpu))
		return LAT_EXIT_USAGE;
	if (c->opts.thp && lat_thp_set(c->opts.thp))
		return LAT_EXIT_FAIL;
	if (c->opts.no_thp && lat_thp_disable_self())
		return LAT_EXIT_FAIL;
	if (lat_mm_env_prepare(&c->opts.mm))
		return LAT_EXIT_FAIL;
	return 0;
}

static void phase_settings_undo(struct lat_run_ctx *c)
{
	lat_result_abort(&c->file);
	lat_mm_env_restore();
	lat_thp_restore();
}

static int phase_hypervisor(struct lat_run_ctx *c)
{
	return lat_run_hv_begin(&c->hv);
}

static void phase_hypervisor_undo(struct lat_run_ctx *c)
{
	lat_run_hv_free(&c->hv);
}

/* The backend first: latmon's tsc_khz is the TSC's frequency. */
static int phase_backend(struct lat_run_ctx *c)
{
	const struct workload_ops *ops = c->run.ops;
	int ret;

	ret = lat_backend_open(&c->sess, c->opts.backend, c->opts.events, c->opts.ring,
			       (ops->wants_syscalls ? LAT_BACKEND_SYSCALLS : 0) |
				       (ops->other_process ? LAT_BACKEND_APART : 0));
	if (ret)
		return ret == -EINVAL ? LAT_EXIT_USAGE : LAT_EXIT_FAIL;
	c->run.tsc_hz = lat_tsc_hz();
	c->pair_ns = (double)lat_tsc_pair_cost() * 1e9 / c->run.tsc_hz;
	c->free_2m = lat_buddy_free_2m_blocks();
	return 0;
}

static void phase_backend_undo(struct lat_run_ctx *c)
{
	lat_backend_close(&c->sess);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The tightest of three readings of the TSC around the system's clocks. */
static void clock_snap(struct lat_clock_snap *snap)
{
	struct lat_clock_snap s;
	uint64_t t0, t1;
	uint16_t cpu;
	int i;

	snap->spread_ticks = UINT64_MAX;
	for (i = 0; i < 3; i++) {
		t0 = lat_tsc(&cpu);
		s.boottime_ns = clock_ns(CLOCK_BOOTTIME);
		s.monotonic_ns = clock_ns(CLOCK_MONOTONIC);
		t1 = lat_tsc(&cpu);
		s.tsc = t0 + (t1 - t0) / 2;
		s.spread_ticks = t1 - t0;
		if (s.spread_ticks < snap->spread_ticks)
			*snap = s;
	}
}

/* Recording on; a Ctrl-C from here on stops the loop and reports. */
static int phase_start(struct lat_run_ctx *c)
{
	clock_snap(&c->snap);
	if (lat_backend_start(&c->sess, c->opts.cpu))
		return LAT_EXIT_FAIL;
	lat_cleanup_install();
	lat_cleanup_soft_stop(1);
	lat_cleanup_phase("before its report: what it changed is put back, nothing written");
	if (lat_mm_env_enter())		/* --memcg: latctl's own memory stays outside */
		return LAT_EXIT_FAIL;
	return 0;
}

const struct lat_run_phase lat_run_phases[] = {
	{ "settings", phase_settings, phase_settings_undo },
	{ "hypervisor", phase_hypervisor, phase_hypervisor_undo },
	{ "backend", phase_backend, phase_backend_undo },
	{ "workload", lat_phase_workload, lat_phase_workload_undo },
	{ "start", phase_start, NULL },
	{ "loop", lat_phase_loop, NULL },
	{ "result", lat_phase_result, NULL },
	{ NULL, NULL, NULL },
};

int lat_run_all(struct lat_run_ctx *c)
{
	size_t i, done;
	int ret = 0;

	for (done = 0; lat_run_phases[done].name && !ret; done++)
		ret = lat_run_phases[done].run(c);
	for (i = done; i-- > 0;)
		if (lat_run_phases[i].undo)
			lat_run_phases[i].undo(c);
	return ret ? ret : c->run.exit_status;	/* exec: the command's, if it failed */
}
