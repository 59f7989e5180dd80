// SPDX-License-Identifier: MIT
/*
 * The fault row of the cause table split by kind: for each kind the slow
 * iterations it is the primary fault kind of (the most own fault time, in
 * iterations whose primary cause is fault), those it is present in, and
 * its faults over the whole loop with their median and p99; where the
 * run named time after faults as the hypervisor's, how much of it lies in
 * iterations whose faults are all of one kind.
 */
#include <math.h>
#include <string.h>

#include "events/evtype.h"
#include "lib/fmt.h"
#include "lib/rdoc.h"
#include "report/render.h"

/* The kind of the most own fault time in one iteration, or NULL. */
static const char *top_kind(const cJSON *it)
{
	const cJSON *ns = cJSON_GetObjectItemCaseSensitive(it, "fault_kind_ns"), *k;
	const char *top = NULL;
	double best = -1;

	cJSON_ArrayForEach(k, ns)
		if (cJSON_IsNumber(k) && k->valuedouble > best) {
			best = k->valuedouble;
			top = k->string;
		}
	return top;
}

/* In how many iterations kind is present, and the primary kind. */
static void count_slow(const cJSON *iters, const char *kind, double *primary, double *present)
{
	const cJSON *it, *p, *n;
	const char *top;

	*primary = *present = 0;
	cJSON_ArrayForEach(it, iters) {
		n = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(it, "fault_kinds"), kind);
		if (cJSON_GetNumberValue(n) > 0)
			(*present)++;
		p = cJSON_GetObjectItemCaseSensitive(it, "primary");
		top = top_kind(it);
		if (cJSON_IsString(p) && !strcmp(p->valuestring, "fault") && top &&
		    !strcmp(top, kind))
			(*primary)++;
	}
}

static void print_why(const cJSON *row, FILE *out)
{
	const cJSON *why = cJSON_GetObjectItemCaseSensitive(row, "why"), *w;

	cJSON_ArrayForEach(w, why)
		fprintf(out, "%s%s (%.0f)", w == why->child ? "" : "; ", w->string,
			cJSON_GetNumberValue(w));
}

static void print_row(const cJSON *row, const cJSON *iters, FILE *out, struct lat_rd *r)
{
	char p50[24], p99[24];
	double primary, present;

	count_slow(iters, row->string, &primary, &present);
	lat_fmt_time(p50, sizeof(p50), lat_rd_num(r, row, "p50"));
	lat_fmt_time(p99, sizeof(p99), lat_rd_num(r, row, "p99"));
	fprintf(out, "    %-9s %10.0f %8.0f %9.0f %9s %9s   ", row->string, primary, present,
		lat_rd_num(r, row, "count"), p50, p99);
	if (!strcmp(row->string, "unknown"))
		print_why(row, out);
	else if (!strcmp(row->string, "none"))
		fprintf(out, "records that say no kind (latmon's fault_kinds=0, or an older latmon)");
	else
		fprintf(out, "%s", lat_fault_kind_what(row->string) ?: "");
	fputc('\n', out);
}

/* The one kind of an iteration's faults, NULL for none or several. */
static const char *only_kind(const cJSON *it)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(it, "fault_kinds");

	return cJSON_IsObject(k) && k->child && !k->child->next ? k->child->string : NULL;
}

/* "the hypervisor's time after them: cow 1.2 ms in 30 iterations; ...": the time the run
 * named the hypervisor's, by the kind of the faults it followed. */
static void print_hypervisor(const cJSON *kinds, const cJSON *iters, FILE *out)
{
	const cJSON *row, *it, *hv;
	const char *k;
	char t[24];
	double ns, n, mixed = 0;
	int any = 0;

	cJSON_ArrayForEach(row, kinds) {
		ns = n = 0;
		cJSON_ArrayForEach(it, iters) {
			hv = cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(it, "breakdown_ns"), "hypervisor");
			if (!cJSON_IsNumber(hv) || hv->valuedouble <= 0)
				continue;
			k = only_kind(it);
			if (k && !strcmp(k, row->string)) {
				ns += hv->valuedouble;
				n++;
			} else if (!k && row == kinds->child &&
				   cJSON_GetObjectItemCaseSensitive(it, "fault_kinds")) {
				mixed += hv->valuedouble;
			}
		}
		if (!n)
			continue;
		fprintf(out, "%s%s %s in %.0f iteration%s",
			any++ ? "; " : "    the hypervisor's time after them: ", row->string,
			lat_fmt_time(t, sizeof(t), ns), n, n == 1 ? "" : "s");
	}
	if (mixed > 0)
		fprintf(out, "%safter faults of several kinds %s",
			any++ ? "; " : "    the hypervisor's time after them: ",
			lat_fmt_time(t, sizeof(t), mixed));
	if (any)
		fprintf(out,
			"\n    (the guest cannot see it; by kind where an iteration's faults are all of one)\n");
}

void lat_kinds_render(FILE *out, struct lat_rd *r, const cJSON *causes, const cJSON *iters)
{
	const cJSON *kinds = cJSON_GetObjectItemCaseSensitive(causes, "fault_kinds"), *row;

	if (!cJSON_IsObject(kinds) || !kinds->child)
		return;
	fprintf(out,
		"  fault by kind  primary  present    faults    median       p99   what it is\n");
	cJSON_ArrayForEach(row, kinds)
		print_row(row, iters, out, r);
	fprintf(out, "    (faults, median, p99: all of the timed loop's; primary: the kind with\n"
		     "    the most fault time in an iteration whose primary cause is fault)\n");
	print_hypervisor(kinds, iters, out);
}
