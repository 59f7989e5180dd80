// SPDX-License-Identifier: MIT
/* A run's evidence of its hypervisor's time (hv.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/latctl.h"
#include "run/hv.h"

int lat_run_hv_begin(struct lat_run_hv *h)
{
	h->stored = lat_hv_load(&h->why);
	if (!h->stored || !lat_hv_guest(h->stored))
		return 0;
	if (lat_hv_check_run(&h->check, h->stored))
		return LAT_EXIT_USAGE;
	if (h->check.failed)
		fprintf(stderr,
			"latctl: the hypervisor probe's check could not run (%s): the time after a fault stays unexplained\n",
			strerror(h->check.failed));
	return 0;
}

void lat_run_hv_end(struct lat_run_hv *h)
{
	lat_hv_check_end(&h->check);
}

void lat_run_hv_free(struct lat_run_hv *h)
{
	lat_hv_check_end(&h->check);
	cJSON_Delete(h->stored);
	h->stored = NULL;
}

/* Without a stored probe, in a guest, the run's own evidence: the time
 * around a fault (lat_hv_after_fault: "after_fault" in o, in->hypervisor)
 * and a 0.05 s idle pass after the loop (lat_hv_idle_quick: "idle", "noise",
 * in->hv_noise_per_s). Neither where no backend recorded: no tick of such
 * a run can be labelled hypervisor. */
static void add_after_fault(cJSON *doc, struct lat_causes_in *in, cJSON *o)
{
	const cJSON *facts = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(doc, "environment"), "facts");
	cJSON *ev = NULL;
	int shown;

	if (!in->have_events || !lat_hv_real_guest(facts))
		return; /* nothing to label, no hypervisor, or an emulator */
	shown = lat_hv_after_fault(facts, in->events, in->n_events, in->run->tsc_hz, &ev);
	if (shown >= 0) {
		in->hypervisor = shown;
		cJSON_ReplaceItemInObject(o, "shown", cJSON_CreateBool(shown));
		cJSON_AddItemToObject(o, "after_fault", ev);
	}
	if (lat_hv_idle_quick(LAT_HV_IDLE_QUICK_S, in->run->tsc_hz, &in->hv_noise_per_s, &ev) < 0)
		return;
	cJSON_ReplaceItemInObject(o, "noise", cJSON_CreateBool(in->hv_noise_per_s > 0));
	cJSON_AddItemToObject(o, "idle", ev);
}

/* "hypervisor_probe": the evidence of latctl doctor --probe-hypervisor
 * this run used, or why none, into doc and in (shown: the gap after a
 * fault is hypervisor~; noise: so are uncovered stretches like the idle
 * pass's gaps). */
void lat_run_hv_add(struct lat_run_hv *h, cJSON *doc, struct lat_causes_in *in)
{
	const struct lat_hv_check *chk = &h->check;
	cJSON *hv = h->stored, *o = cJSON_CreateObject();

	in->hypervisor = hv && (chk->done ? chk->shown : lat_hv_shown(hv));
	in->hv_noise_per_s = hv ? lat_hv_noise_rate(hv) : 0;
	in->hv_gap_ns = LAT_HV_GAP_MIN_NS;
	cJSON_AddStringToObject(o, "path", lat_hv_path());
	cJSON_AddBoolToObject(o, "used", hv != NULL);
	if (hv) {
		if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(hv, "date")))
			cJSON_AddItemToObject(o, "date", cJSON_DetachItemFromObject(hv, "date"));
		else
			cJSON_AddNullToObject(o, "date"); /* a probe file edited by hand */
		cJSON_AddBoolToObject(o, "shown", in->hypervisor);
		cJSON_AddBoolToObject(o, "stored_shown", lat_hv_shown(hv));
		cJSON_AddItemToObject(o, "verdict", cJSON_DetachItemFromObject(hv, "verdict"));
		if (chk->done)
			cJSON_AddItemToObject(o, "check", lat_hv_check_json(chk));
		cJSON_AddBoolToObject(o, "noise", in->hv_noise_per_s > 0);
		if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(hv, "noise_verdict")))
			cJSON_AddItemToObject(o, "noise_verdict",
					      cJSON_DetachItemFromObject(hv, "noise_verdict"));
	} else {
		cJSON_AddBoolToObject(o, "shown", false);
		cJSON_AddStringToObject(o, "verdict", h->why);
		cJSON_AddBoolToObject(o, "noise", false);
		add_after_fault(doc, in, o);
	}
	cJSON_AddItemToObject(doc, "hypervisor_probe", o);
}
