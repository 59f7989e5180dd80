// SPDX-License-Identifier: MIT
/* The breakdown of one slow iteration and the notes after its shares
 * (see breakdown.h). */
#include <string.h>

#include "events/iter.h"
#include "lib/json.h"
#include "lib/rdoc.h"
#include "report/breakdown.h"

/* The JSON array of strings list holds s. */
bool lat_is_listed(const cJSON *list, const char *s)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, list)
		if (cJSON_IsString(e) && !strcmp(e->valuestring, s))
			return true;
	return false;
}

/* "fault~" for a label whose times the backend estimated. */
const char *lat_mark_label(const char *label, bool estimated, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", label, estimated ? "~" : "");
	return buf;
}

/* The numbers of object o (at most JOIN_NR_LABELS) into v, largest first;
 * their sum into *sum. Anything but a number there is refused as key. */
int lat_by_value(struct lat_rd *r, const cJSON *o, const char *key,
		    const cJSON **v, double *sum)
{
	const cJSON *x;
	int n = 0, j;

	*sum = 0;
	cJSON_ArrayForEach(x, o) {
		lat_rd_expect(r, cJSON_IsNumber(x) && n < JOIN_NR_LABELS, key);
		if (n == JOIN_NR_LABELS || !cJSON_IsNumber(x))
			continue;
		*sum += x->valuedouble;
		for (j = n++; j > 0 && v[j - 1]->valuedouble < x->valuedouble; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return n;
}

/* " (by pid 321 (stress-ng))": the task of the longest preemption. Time
 * labelled preemption comes only from a preempted switch-out, whose task
 * the writer always names, so a breakdown with it lacks no "preemptor". */
static void preemption_note(const cJSON *it, FILE *out, struct lat_rd *r)
{
	const cJSON *p = lat_rd_get(r, it, "preemptor", cJSON_Object);

	if (p && !strncmp(lat_rd_str(r, p, "comm"), "latctl", 6))
		fprintf(out, " (by latctl's own pid %.0f (%s): the observer)", lat_rd_num(r, p, "pid"),
			lat_rd_str(r, p, "comm"));
	else if (p)
		fprintf(out, " (by pid %.0f (%s))", lat_rd_num(r, p, "pid"), lat_rd_str(r, p, "comm"));
}

/* " (timer LOC x3, ipi call_function x1)": the interrupts inside; none
 * when the interrupt work was an interrupt thread's (ev_sched.c). */
static void interrupt_note(const cJSON *it, FILE *out, struct lat_rd *r)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(it, "interrupts"), *x;

	cJSON_ArrayForEach(x, a)
		fprintf(out, "%s%s %s x%.0f", x == a->child ? " (" : ", ", lat_rd_str(r, x, "kind"),
			lat_rd_str(r, x, "name"), lat_rd_num(r, x, "count"));
	if (a && a->child)
		fputc(')', out);
}

/* " (waiting for mmap_lock, woken by ...)": each part only when its
 * source (lock, wake) recorded it, so either may be absent. */
static void blocked_note(const cJSON *it, FILE *out, struct lat_rd *r)
{
	const cJSON *lock = cJSON_GetObjectItemCaseSensitive(it, "waited_for");
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(it, "woken_by");

	if (!lock && !w)
		return;
	fputs(" (", out);
	if (lock)
		fprintf(out, "waiting for %s%s", lat_rd_str(r, lock, "lock"), w ? ", " : "");
	if (w && lat_rd_bool(r, w, "from_interrupt"))
		fprintf(out, "woken from an interrupt on CPU %.0f", lat_rd_num(r, w, "cpu"));
	else if (w)
		fprintf(out, "woken by pid %.0f (%s) on CPU %.0f", lat_rd_num(r, w, "pid"),
			lat_rd_str(r, w, "comm"), lat_rd_num(r, w, "cpu"));
	fputc(')', out);
}

void lat_label_note(const cJSON *it, const char *label, FILE *out, struct lat_rd *r)
{
	static const struct {
		const char *label;
		void (*note)(const cJSON *it, FILE *out, struct lat_rd *r);
	} notes[] = {
		{ "blocked", blocked_note },
		{ "preemption", preemption_note },
		{ "interrupt", interrupt_note },
	};

	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (!strcmp(label, notes[i].label))
			notes[i].note(it, out, r);
}

/* "thp-zero 97%, fault 2%, unexplained <1%": the breakdown, largest first;
 * the labels in est marked "~". Its ticks sum to the duration (join.h): a
 * missing share is refused. */
void lat_print_breakdown(const cJSON *it, const cJSON *est, FILE *out, struct lat_rd *r)
{
	const cJSON *v[JOIN_NR_LABELS];
	double d = lat_rd_num(r, it, "duration_ticks"), sum;
	int n = lat_by_value(r, lat_rd_obj(r, it, "breakdown_ticks"), "breakdown_ticks", v, &sum), i;

	lat_rd_expect(r, sum == d, "breakdown_ticks");
	for (i = 0; i < n; i++) {
		double pct = d > 0 ? 100 * v[i]->valuedouble / d : 0;
		char label[24];

		fprintf(out, pct < 0.5 ? "%s%s <1%%" : "%s%s %.0f%%", i ? ", " : "",
			lat_mark_label(v[i]->string, lat_is_listed(est, v[i]->string), label, sizeof(label)),
			pct);
		lat_label_note(it, v[i]->string, out, r);
	}
	fputc('\n', out);
}
