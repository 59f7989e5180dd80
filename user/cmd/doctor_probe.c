// SPDX-License-Identifier: MIT
/*
 * latctl doctor --probe-hypervisor: runs the experiment of machine/hvprobe.h on
 * the CPU it starts on, prints its table and verdict, and stores them where
 * `latctl run` reads them (root, or LATCTL_VAR_DIR).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "machine/hvprobe.h"
#include "lib/fmt.h"
#include "lib/latctl.h"

#define PROBE_MB 512 /* per pass, at most an eighth of what is available */

/* MiB per pass: PROBE_MB, less where memory is short (at least 16). */
static size_t probe_mb(void)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	size_t avail = pages > 0 && size > 0 ? (size_t)pages * (size_t)size >> 20 : 0;
	size_t mb = avail / 8 < PROBE_MB ? avail / 8 : PROBE_MB;

	return mb < 16 ? 16 : mb;
}

static void print_pass(const char *name, const struct lat_hv_pass *s)
{
	char med[24] = "-";

	if (s->gaps)
		lat_fmt_ns(med, sizeof(med), s->gap_median_ns, 10);
	printf("  %-24s %8llu %12llu %10.2f %10s\n", name, (unsigned long long)s->pages,
	       (unsigned long long)s->gaps, lat_hv_rate(s), med);
}

static void print_idle(const struct lat_hv_idle *s)
{
	char med[24] = "-";

	if (s->gaps)
		lat_fmt_ns(med, sizeof(med), s->gap_median_ns, 10);
	printf("then %.2f s of a loop that only reads the TSC: a gap is a read to read of %d us to %d ms\n"
	       "  %-24s %8s %12s %10s %10s\n"
	       "  %-24s %8llu %12llu %10llu %10s\n",
	       s->secs, LAT_HV_GAP_MIN_NS / 1000, LAT_HV_GAP_MAX_NS / 1000000, "pass", "gaps",
	       "interrupts", "switches", "median", "doing nothing", (unsigned long long)s->gaps,
	       (unsigned long long)s->irqs, (unsigned long long)s->switches, med);
}

static void print_probe(const struct lat_hv_probe *p, int cpu)
{
	char name[32];
	int i;

	printf("hypervisor probe on CPU %d (%s): one write to each 4 KiB page of %zu MiB,\n"
	       "each timed; a gap is a write of %d us to %d ms (longer: the thread was preempted)\n",
	       cpu, p->machine, p->mb, LAT_HV_GAP_MIN_NS / 1000, LAT_HV_GAP_MAX_NS / 1000000);
	printf("  %-24s %8s %12s %10s %10s\n", "pass", "pages", "gaps", "per 1000", "median");
	print_pass("memory never had", &p->fresh);
	for (i = 0; i < LAT_HV_REUSED; i++) {
		snprintf(name, sizeof(name), "memory taken back (%d)", i + 1);
		print_pass(name, &p->reused[i]);
	}
	printf("verdict: %s\n", p->verdict);
	print_idle(&p->idle);
	printf("noise: %s\n", p->noise_verdict);
}

/* Store it where root's runs read it; says where, or why not. */
static int store(const struct lat_hv_probe *p)
{
	if (geteuid() != 0 && !getenv("LATCTL_VAR_DIR")) {
		printf("not stored: %s is root's (run as root, or set LATCTL_VAR_DIR)\n",
		       lat_hv_path());
		return 0;
	}
	if (lat_hv_store(p))
		return -1;
	printf("stored in %s: later runs on this machine name the gap after a fault %s,\n"
	       "  and uncovered stretches like the idle pass's gaps %s\n",
	       lat_hv_path(), p->shown ? "hypervisor~" : "unexplained, as before",
	       p->noise ? "hypervisor~" : "unexplained");
	return 0;
}

int lat_doctor_probe(int json)
{
	struct lat_hv_probe p;
	int cpu = sched_getcpu();
	cpu_set_t set;
	cJSON *doc;
	char *text;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set); /* the passes on one CPU */
	if (lat_hv_run(&p, probe_mb()))
		return LAT_EXIT_FAIL;
	if (!json)
		print_probe(&p, cpu);
	else {
		doc = lat_hv_json(&p);
		text = doc ? cJSON_Print(doc) : NULL;
		cJSON_Delete(doc);
		if (text)
			puts(text);
		free(text);
	}
	if (!json && store(&p))
		return LAT_EXIT_FAIL;
	if (json && (geteuid() == 0 || getenv("LATCTL_VAR_DIR")) && lat_hv_store(&p))
		return LAT_EXIT_FAIL;
	return LAT_EXIT_OK;
}
