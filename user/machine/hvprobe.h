/* SPDX-License-Identifier: MIT */
/*
 * The experiment of `latctl doctor --probe-hypervisor`: is the first touch
 * of guest memory slow because the hypervisor backs the page then (a
 * second-level fault the guest does not see)? A pass over memory this
 * process never had against passes over the same amount just freed and
 * taken back (the guest's free lists hand the same, already backed, pages
 * out again): the guest's own work per page is the same in both, so only
 * the hypervisor's can differ. Its figures and verdict are kept in
 * $LATCTL_VAR_DIR (default /var/lib/latctl)/hypervisor.json, where
 * `latctl run` reads them and, in a guest, checks the verdict holds before
 * its loop (struct lat_hv_check): where it does, the time after a fault
 * in a slow iteration that no event covers, beyond an ordinary iteration's
 * own work, is hypervisor~ (estimated).
 *
 * A second experiment, the idle pass (hvidle.c), is osnoise's hwnoise by
 * elimination: a loop that touches nothing and makes no system call, each
 * TSC read timed against the one before. A gap there is an interrupt of
 * the guest, a switch away from the thread, or time the guest does not
 * see; each interrupt and switch makes one gap at most, so at least
 * gaps - interrupts - switches of them are the hypervisor's. Where that
 * is shown ("noise"), a slow iteration's uncovered time beyond an
 * ordinary iteration, as long as such a gap, is hypervisor~ too.
 */
#ifndef LATCTL_HVPROBE_H
#define LATCTL_HVPROBE_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#define LAT_HV_GAP_MIN_NS 10000	  /* a touch this slow or more ... */
#define LAT_HV_GAP_MAX_NS 1000000 /* ... and under this (longer: preempted) */
#define LAT_HV_REUSED 2		  /* passes over memory taken back */

struct lat_hv_pass {
	uint64_t pages;
	uint64_t gaps;	      /* touches in [GAP_MIN, GAP_MAX) */
	double gap_median_ns; /* their median */
};

/* The idle pass on one CPU: gaps, and what the guest did meanwhile. */
struct lat_hv_idle {
	double secs;
	uint64_t gaps; /* TSC read to read in [GAP_MIN, GAP_MAX) */
	double gap_median_ns;
	uint64_t irqs;	   /* interrupts of this CPU (/proc/interrupts) */
	uint64_t switches; /* the thread's context switches */
};

/* A run's check that the stored memory verdict still holds: how often the
 * first touches of fresh memory are slow now, against the stored probe's
 * memory taken back (the guest's memory gets backed as it is used, and
 * free page reporting can give it back to the host). */
#define LAT_HV_CHECK_MB 64 /* LATCTL_HV_CHECK_MB: other MiB, 0 for no check */

struct lat_hv_check {
	int done;		  /* the check ran */
	size_t mb;		  /* its fresh memory, mapped until lat_hv_check_end */
	struct lat_hv_pass fresh; /* one pass over it */
	double reused_rate;	  /* the stored probe's most gaps per 1000 reused */
	int shown;		  /* fresh is slow as the probe's verdict needs */
	int failed;		  /* errno: the pass could not run (not shown) */
	void *map;
};

struct lat_hv_probe {
	char machine[96]; /* lat_machine_kind() */
	int guest;	  /* a hypervisor bit in CPUID */
	size_t mb;	  /* per pass */
	struct lat_hv_pass fresh, reused[LAT_HV_REUSED];
	int shown; /* the fresh pass's gaps are the hypervisor's */
	char verdict[200];
	struct lat_hv_idle idle;
	int noise; /* idle gaps no guest event explains: the hypervisor's */
	char noise_verdict[240];
};

/* Run the passes (mb MiB each) on this CPU; 0 or -errno (one line said). */
int lat_hv_run(struct lat_hv_probe *p, size_t mb);
/* The idle pass for secs on this CPU (gap: room for cap gaps); 0 or -errno. */
int lat_hv_idle_run(struct lat_hv_idle *s, double secs, double hz, uint64_t *gap, size_t cap);
/* Idle gaps no interrupt or switch can explain (0 at least). */
uint64_t lat_hv_idle_unseen(const struct lat_hv_idle *s);
/* Judge the idle pass into p->noise and p->noise_verdict. */
void lat_hv_idle_judge(struct lat_hv_probe *p);
/* Whether gaps per 1000 fresh pages show the hypervisor's first touch
 * against those per 1000 pages taken back. */
int lat_hv_rates_show(double fresh, double reused);
/* The check before a run's loop, against the loaded probe doc (NULL: no
 * check): its fresh memory stays mapped, so the run's workload does not
 * get those pages back already backed. 0 (a pass that could not run is
 * done, failed and not shown), or -EINVAL (bad LATCTL_HV_CHECK_MB, said). */
int lat_hv_check_run(struct lat_hv_check *c, const cJSON *doc);
/* Free the check's memory (after the loop); again is harmless. */
void lat_hv_check_end(struct lat_hv_check *c);
/* The check as the result's hypervisor_probe.check object. */
cJSON *lat_hv_check_json(const struct lat_hv_check *c);
/* Gaps per 1000 pages of a pass. */
double lat_hv_rate(const struct lat_hv_pass *s);
/* The probe as the stored document (schema latctl.hypervisor). */
cJSON *lat_hv_json(const struct lat_hv_probe *p);
/* Store it atomically; 0 or -errno (one line said). */
int lat_hv_store(const struct lat_hv_probe *p);
/* The stored document's path. */
const char *lat_hv_path(void);
/* The stored evidence of this machine, or NULL (none, unreadable or of
 * another machine: why in *why, may be NULL). */
cJSON *lat_hv_load(const char **why);
/* Whether a loaded document is of a guest. */
int lat_hv_guest(const cJSON *doc);
/* Whether a loaded document shows the gaps are the hypervisor's. */
int lat_hv_shown(const cJSON *doc);
/* Idle gaps per second where a loaded document shows noise, else 0. */
double lat_hv_noise_rate(const cJSON *doc);

/*
 * The run's own evidence, where no probe is stored: the machine's first
 * touch of a fresh page (environment.facts.first_touch_ns) against the
 * guest's fault handler (the median fault record of this run). Where a
 * first touch costs more than twice the handler and 2 us more, the time
 * after a fault is the hypervisor's (under shadow paging it builds its own
 * entry for the page on the access after the guest's fault). Needs
 * LAT_HV_AFTER_MIN_FAULTS fault records; returns 1 shown, 0 not, and its
 * figures in *o (an object: first_touch_ns, fault_median_ns, faults,
 * shown), or -1 with no evidence (no facts, too few faults, not a guest).
 */
/* A guest of a hypervisor (facts.hypervisor), not of an emulator (QEMU's
 * TCG: its times are emulated, its "hypervisor" time is the emulator's):
 * where the run's own evidence is looked for. */
int lat_hv_real_guest(const cJSON *facts);
#define LAT_HV_AFTER_MIN_FAULTS 20
#define LAT_HV_AFTER_MIN_NS	2000
struct latmon_event;
int lat_hv_after_fault(const cJSON *facts, const struct latmon_event *ev, size_t n,
		       double tsc_hz, cJSON **o);

/* The idle pass for secs on this CPU, judged as the probe's is: 1 its gaps
 * are the hypervisor's (their rate a second in *rate), 0 not, -1 it could
 * not run; its figures in *o (secs, gaps, interrupts, switches, shown). */
#define LAT_HV_IDLE_QUICK_S 0.05
int lat_hv_idle_quick(double secs, double hz, double *rate, cJSON **o);

#endif /* LATCTL_HVPROBE_H */
