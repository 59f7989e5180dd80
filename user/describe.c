// SPDX-License-Identifier: MIT
/* What a slow iteration was, in one phrase (see describe.h). */
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "json.h"

/* " (by pid 321 (stress-ng))": the task of the longest preemption. */
static void preemption_note(const cJSON *it, FILE *out)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "preemptor");

	if (p)
		fprintf(out, " (by pid %.0f (%s))", lat_json_num(p, "pid"), lat_json_str(p, "comm"));
}

/* " (timer LOC x3, ipi call_function x1)": the interrupts inside. */
static void interrupt_note(const cJSON *it, FILE *out)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(it, "interrupts"), *x;

	cJSON_ArrayForEach(x, a)
		fprintf(out, "%s%s %s x%.0f", x == a->child ? " (" : ", ", lat_json_str(x, "kind"),
			lat_json_str(x, "name"), lat_json_num(x, "count"));
	if (a && a->child)
		fputc(')', out);
}

static void blocked_note(const cJSON *it, FILE *out)
{
	const cJSON *lock = cJSON_GetObjectItemCaseSensitive(it, "waited_for");
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(it, "woken_by");

	if (!lock && !w)
		return;
	fputs(" (", out);
	if (lock)
		fprintf(out, "waiting for %s%s", lat_json_str(lock, "lock"), w ? ", " : "");
	if (w && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(w, "from_interrupt")))
		fprintf(out, "woken from an interrupt on CPU %.0f", lat_json_num(w, "cpu"));
	else if (w)
		fprintf(out, "woken by pid %.0f (%s) on CPU %.0f", lat_json_num(w, "pid"),
			lat_json_str(w, "comm"), lat_json_num(w, "cpu"));
	fputc(')', out);
}

void lat_label_note(const cJSON *it, const char *label, FILE *out)
{
	static const struct {
		const char *label;
		void (*note)(const cJSON *it, FILE *out);
	} notes[] = {
		{ "blocked", blocked_note },
		{ "preemption", preemption_note },
		{ "interrupt", interrupt_note },
	};

	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (!strcmp(label, notes[i].label))
			notes[i].note(it, out);
}

/* "munmap 12.1 ms: " when a system call is inside, else "12.1 ms: ". */
static void print_what(const cJSON *it, FILE *out)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "syscall");
	double ns = lat_json_num(it, "duration_ns");

	if (c)
		fprintf(out, "%s ", lat_json_str(c, "name"));
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

	if (!mem)
		return NULL;
	print_what(it, mem);
	lat_print_breakdown(it, mem);
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
		if (lat_json_num(it, "index") == index)
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

		if (cause)
			cJSON_AddStringToObject(op, "cause", cause);
		free(cause);
	}
}
