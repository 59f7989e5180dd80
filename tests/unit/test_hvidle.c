// SPDX-License-Identifier: MIT
/*
 * Unit tests of the hypervisor probe's idle pass (user/machine/hvidle.c): its
 * verdict on synthetic figures (each interrupt or switch explains one gap
 * at most), the stored document's keys a run reads, one real pass on
 * this CPU (its counts, not its figures: those are the machine's), and
 * the memory verdict's rule as a run checks it again.
 * CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "machine/hvprobe.h"
#include "lib/tsc.h"

static void judge(struct lat_hv_probe *p, int guest, uint64_t gaps, uint64_t irqs, uint64_t sw)
{
	memset(p, 0, sizeof(*p));
	p->guest = guest;
	p->idle = (struct lat_hv_idle){ .secs = 0.5, .gaps = gaps, .irqs = irqs, .switches = sw };
	lat_hv_idle_judge(p);
}

/* The rate a run reads from the probe's stored document. */
static double stored_rate(const struct lat_hv_probe *p)
{
	cJSON *doc = lat_hv_json(p);
	double rate = lat_hv_noise_rate(doc);

	cJSON_Delete(doc);
	return rate;
}

/* Gaps beyond interrupts and switches: 180 - 125 - 5 = 50, 100 a second. */
static void test_shown(void **state)
{
	struct lat_hv_probe p;

	(void)state;
	judge(&p, 1, 180, 125, 5);
	assert_int_equal(lat_hv_idle_unseen(&p.idle), 50);
	assert_true(p.noise);
	assert_non_null(strstr(p.noise_verdict, "shown: 180 gaps"));
	assert_non_null(strstr(p.noise_verdict, "at least 50 gaps (100 a second)"));
	assert_true(stored_rate(&p) == 360); /* all the idle gaps a second */
}

/* As many interrupts as gaps, too few left, too rare, or no guest: not shown. */
static void test_not_shown(void **state)
{
	struct lat_hv_probe p;

	(void)state;
	judge(&p, 1, 100, 100, 0);
	assert_int_equal(lat_hv_idle_unseen(&p.idle), 0);
	assert_false(p.noise);
	assert_non_null(strstr(p.noise_verdict, "not shown"));
	judge(&p, 1, 200, 150, 60);
	assert_int_equal(lat_hv_idle_unseen(&p.idle), 0);
	judge(&p, 1, 109, 100, 0); /* 9 left */
	assert_false(p.noise);
	judge(&p, 1, 19, 0, 0); /* 38 a second in 0.5 s: shown */
	assert_true(p.noise);
	judge(&p, 0, 180, 0, 0);
	assert_false(p.noise);
	assert_non_null(strstr(p.noise_verdict, "not a guest"));
	assert_true(stored_rate(&p) == 0);
}

/* The memory verdict's rule: five times the reused rate, one per 1000 at
 * least; the figures of a fresh guest, of one whose memory is backed, and
 * of one half way back. */
static void test_rates(void **state)
{
	(void)state;
	assert_true(lat_hv_rates_show(236.85, 1.00));
	assert_true(lat_hv_rates_show(4.06, 0.71));
	assert_false(lat_hv_rates_show(0.91, 0.54));
	assert_false(lat_hv_rates_show(0.9, 0)); /* under one per 1000 */
	assert_false(lat_hv_rates_show(4.9, 1.0));
}

/* A run's check against a stored probe: it wrote each page of its MiB,
 * keeps them until the end, and judges against the stored reused rate;
 * LATCTL_HV_CHECK_MB chooses the MiB, 0 none, garbage is refused. */
static void test_check(void **state)
{
	struct lat_hv_probe p = { .guest = 1 };
	struct lat_hv_check c;
	cJSON *doc;

	(void)state;
	p.reused[0].pages = p.reused[1].pages = 1000;
	p.reused[1].gaps = 1000000; /* a rate no fresh pass reaches */
	doc = lat_hv_json(&p);
	setenv("LATCTL_HV_CHECK_MB", "2", 1);
	assert_int_equal(lat_hv_check_run(&c, doc), 0);
	assert_true(c.done && c.mb == 2 && c.fresh.pages == 512 && c.map);
	assert_true(c.reused_rate == 1000000);
	assert_false(c.shown);
	lat_hv_check_end(&c);
	assert_null(c.map);
	lat_hv_check_end(&c);
	setenv("LATCTL_HV_CHECK_MB", "0", 1);
	assert_int_equal(lat_hv_check_run(&c, doc), 0);
	assert_false(c.done);
	setenv("LATCTL_HV_CHECK_MB", "2x", 1);
	assert_int_equal(lat_hv_check_run(&c, doc), -EINVAL);
	unsetenv("LATCTL_HV_CHECK_MB");
	cJSON_Delete(doc);
}

/* A real pass: it ran for its time and counted what it saw. */
static void test_real_pass(void **state)
{
	struct lat_hv_idle s;
	uint64_t gap[4096];

	(void)state;
	assert_int_equal(lat_hv_idle_run(&s, 0.05, lat_tsc_hz(), gap, 4096), 0);
	assert_true(s.secs >= 0.05 && s.secs < 1);
	assert_true(s.gaps <= 4096);
	assert_true(!s.gaps || s.gap_median_ns >= LAT_HV_GAP_MIN_NS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shown),	  cmocka_unit_test(test_not_shown),
		cmocka_unit_test(test_rates),	  cmocka_unit_test(test_check),
		cmocka_unit_test(test_real_pass),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("hvidle", tests, NULL, NULL);
}
