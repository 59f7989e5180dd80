// SPDX-License-Identifier: MIT
/* What a slow iteration was, in one phrase (see describe.h). */
#include <stdlib.h>
#include <string.h>

#include "report/describe.h"
#include "lib/json.h"
#include "lib/rdoc.h"

/* " (by pid 321 (stress-ng))": the task of the longest preemption. Time
 * labelled preemption comes only from a preempted switch-out, whose task
 * the writer always names, so a breakdown with it lacks no "preemptor". */
static void preemption_note(const cJSON *it, FILE *out, struct lat_rd *r)
{
	const cJSON *p = lat_rd_get(r, it, "preemptor", cJSON_Object);

	if (p)
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

/* "munmap 12.1 ms: " when a system call is inside, else "12.1 ms: ". */
static void print_what(const cJSON *it, FILE *out, struct lat_rd *r)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "syscall");
	double ns = lat_rd_num(r, it, "duration_ns");

	if (c)
		fprintf(out, "%s ", lat_rd_str(r, c, "name"));
	if (ns < 1e6)
		fprintf(out, "%.1f us: ", ns / 1e3);
	else
		fprintf(out, "%.1f ms: ", ns / 1e6);
}

char *lat_iter_cause(const cJSON *it)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	struct lat_rd r = { 0 };

	if (!mem)
		return NULL;
	print_what(it, mem, &r);
	lat_print_breakdown(it, mem, &r);
	if (fclose(mem) != 0) {
		free(buf);
		return NULL;
	}
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

/* The slow iteration of iters with this sample index, or NULL. */
static const cJSON *iter_at(const cJSON *iters, double index)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, iters)
		if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(it, "index")) &&
		    cJSON_GetObjectItemCaseSensitive(it, "index")->valuedouble == index)
			return it;
	return NULL;
}

void lat_describe_slow_ops(cJSON *extras, const cJSON *iters)
{
	cJSON *ops = cJSON_GetObjectItemCaseSensitive(extras, "slow_ops"), *op;

	cJSON_ArrayForEach(op, ops) {
		const cJSON *idx = cJSON_GetObjectItemCaseSensitive(op, "index");
		const cJSON *it = cJSON_IsNumber(idx) ? iter_at(iters, idx->valuedouble) : NULL;
		char *cause = it ? lat_iter_cause(it) : NULL;

		cJSON_AddItemToObject(op, "cause", cause ? cJSON_CreateString(cause) : cJSON_CreateNull());
		free(cause);
	}
}
