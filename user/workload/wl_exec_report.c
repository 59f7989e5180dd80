// SPDX-License-Identifier: MIT
/* The exec workload's extras: the command, how it ended, where its
 * iterations came from, and what the markers lost; and their report lines. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "lib/json.h"
#include "workload/wl_exec.h"

void lat_exec_sum_regions(const struct lat_exec *ex, struct lat_exec_sums *m)
{
	uint32_t k, taken = lat_exec_taken(ex);

	*m = (struct lat_exec_sums){ 0 };
	for (k = 0; k < taken; k++) {
		const struct latctl_ring_slot *s = lat_exec_slot(ex, k);

		m->full += s->full;
		m->end_without_begin += s->end_without_begin;
		m->begin_twice += s->begin_twice;
		m->open += s->open;
		m->populated += s->populated;
	}
}

static cJSON *markers_json(const struct lat_exec *ex)
{
	struct lat_exec_sums m;
	cJSON *o = cJSON_CreateObject();

	lat_exec_sum_regions(ex, &m);
	cJSON_AddNumberToObject(o, "written", (double)lat_exec_marker_count(ex));
	cJSON_AddNumberToObject(o, "regions", ex->slots);
	cJSON_AddNumberToObject(o, "capacity_per_thread", (double)ex->ring->capacity);
	cJSON_AddNumberToObject(o, "full", (double)m.full);
	cJSON_AddNumberToObject(o, "threads_refused", ex->ring->threads_refused);
	cJSON_AddNumberToObject(o, "end_without_begin", (double)m.end_without_begin);
	cJSON_AddNumberToObject(o, "begin_twice", (double)m.begin_twice);
	cJSON_AddNumberToObject(o, "open_at_end", (double)m.open);
	cJSON_AddNumberToObject(o, "populated_pages", (double)m.populated);
	cJSON_AddNumberToObject(o, "ring_faults", (double)ex->ring_faults);
	return o;
}

static cJSON *exit_json(const struct lat_exec *ex)
{
	cJSON *o = cJSON_CreateObject(), *sent;
	int i;
	const char *sig = WIFSIGNALED(ex->status) ? sigabbrev_np(WTERMSIG(ex->status)) : NULL;

	cJSON_AddItemToObject(o, "status", WIFEXITED(ex->status) ?
			      cJSON_CreateNumber(WEXITSTATUS(ex->status)) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "signal", sig ? cJSON_CreateString(sig) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "stopped_with", ex->stop_signal && sigabbrev_np(ex->stop_signal) ?
			      cJSON_CreateString(sigabbrev_np(ex->stop_signal)) : cJSON_CreateNull());
	sent = cJSON_AddArrayToObject(o, "signals_sent");
	for (i = 0; i < ex->n_sent; i++)
		cJSON_AddItemToArray(sent, cJSON_CreateString(sigabbrev_np(ex->sent[i]) ?
							      sigabbrev_np(ex->sent[i]) : "?"));
	cJSON_AddItemToObject(o, "stopped_because", ex->stop_why ? cJSON_CreateString(ex->stop_why) :
			      cJSON_CreateNull());
	return o;
}

cJSON *lat_exec_extras(const struct lat_run *run)
{
	const struct lat_exec *ex = run->priv;
	cJSON *o = cJSON_CreateObject(), *cmd = cJSON_AddArrayToObject(o, "command");
	size_t i;

	for (i = 0; ex->cmd[i]; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(ex->cmd[i]));
	cJSON_AddNumberToObject(o, "pid", ex->pid);
	cJSON_AddStringToObject(o, "source", ex->source ? ex->source : "markers");
	cJSON_AddItemToObject(o, "exit", exit_json(ex));
	cJSON_AddItemToObject(o, "duration_s", ex->duration_s > 0 ?
			      cJSON_CreateNumber(ex->duration_s) : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "threads", (double)ex->threads);
	cJSON_AddNumberToObject(o, "processes", (double)ex->processes);
	cJSON_AddItemToObject(o, "markers", markers_json(ex));
	return o;
}

/* "stopped by latctl (--duration 1 s): SIGINT, SIGTERM 3 s later, then ":
 * what latctl had to send (results of older latctl: stopped_with only). */
static void print_stop(const cJSON *x, const cJSON *e, FILE *out)
{
	const cJSON *stop = cJSON_GetObjectItemCaseSensitive(e, "stopped_with");
	const cJSON *why = cJSON_GetObjectItemCaseSensitive(e, "stopped_because");
	const cJSON *sent = cJSON_GetObjectItemCaseSensitive(e, "signals_sent"), *s;
	const cJSON *dur = cJSON_GetObjectItemCaseSensitive(x, "duration_s");
	int i = 0;

	if (!cJSON_IsString(stop))
		return;
	if (cJSON_IsString(why) && !strcmp(why->valuestring, "--duration") && cJSON_IsNumber(dur))
		fprintf(out, "stopped by latctl (--duration %g s): ", dur->valuedouble);
	else
		fprintf(out, "stopped by latctl (%s): ", cJSON_IsString(why) ? why->valuestring :
			cJSON_IsNumber(dur) ? "--duration" : "a second SIGINT");
	if (!cJSON_IsArray(sent) || !cJSON_GetArraySize(sent))
		fprintf(out, "SIG%s", stop->valuestring);
	cJSON_ArrayForEach(s, sent) {
		fprintf(out, "%sSIG%s%s", i ? ", " : "", cJSON_IsString(s) ? s->valuestring : "?",
			i ? " 3 s later" : "");
		i++;
	}
	fputs(", then ", out);
}

/* "./prog a b (pid 12): exited with status 0". */
static void print_command(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *e = lat_rd_obj(rd, x, "exit"), *a;
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "status");
	const cJSON *sig = cJSON_GetObjectItemCaseSensitive(e, "signal");

	fprintf(out, "command:");
	cJSON_ArrayForEach(a, lat_rd_array(rd, x, "command"))
		fprintf(out, " %s", cJSON_IsString(a) ? a->valuestring : "?");
	fprintf(out, " (pid %.0f): ", lat_rd_num(rd, x, "pid"));
	print_stop(x, e, out);
	if (cJSON_IsNumber(st))
		fprintf(out, "exited with status %d\n", st->valueint);
	else
		fprintf(out, "killed by SIG%s\n", cJSON_IsString(sig) ? sig->valuestring : "?");
}

static void print_losses(const cJSON *m, FILE *out, struct lat_rd *rd)
{
	double full = lat_rd_num(rd, m, "full"), refused = lat_rd_num(rd, m, "threads_refused");
	double nob = lat_rd_num(rd, m, "end_without_begin"), twice = lat_rd_num(rd, m, "begin_twice");
	double open = lat_rd_num(rd, m, "open_at_end");

	char threads[96] = "";

	if (refused > 0)
		snprintf(threads, sizeof(threads), ", and all those of %.0f thread%s beyond --threads %.0f",
			 refused, refused == 1 ? "" : "s", lat_rd_num(rd, m, "regions"));
	if (full + refused + nob + twice + open == 0)
		fputs("markers lost: none\n", out);
	else
		fprintf(out, "markers lost: %.0f iterations%s ! (a thread's region full: %.0f, "
			"end without begin: %.0f, begin while one was open: %.0f, open at the end: %.0f)\n",
			full + nob + twice + open, threads, full, nob, twice, open);
	if (full > 0)
		fprintf(out, "  a region holds %.0f iterations: raise --iters to keep more per thread\n",
			lat_rd_num(rd, m, "capacity_per_thread"));
	fprintf(out,
		"markers' regions faulted in ahead of their records: %.0f pages (not in the counters); "
		"%.0f fault records there set apart from the program's\n",
		lat_rd_num(rd, m, "populated_pages"), lat_rd_num(rd, m, "ring_faults"));
}

void lat_exec_print_extras(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const char *src = lat_rd_str(rd, x, "source");
	const cJSON *m = lat_rd_obj(rd, x, "markers");
	double misuse = lat_rd_num(rd, m, "end_without_begin") + lat_rd_num(rd, m, "begin_twice") +
			lat_rd_num(rd, m, "open_at_end");

	print_command(x, out, rd);
	if (!strcmp(src, "markers") || lat_rd_num(rd, m, "written") > 0 || misuse > 0)
		print_losses(m, out, rd);
}

/* What one iteration is, first thing in the report. */
static void print_what(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const char *src = lat_rd_str(rd, x, "source");
	const cJSON *m = lat_rd_obj(rd, x, "markers");
	double th = lat_rd_num(rd, x, "threads"), pr = lat_rd_num(rd, x, "processes");
	double misuse = lat_rd_num(rd, m, "end_without_begin") + lat_rd_num(rd, m, "begin_twice") +
			lat_rd_num(rd, m, "open_at_end");
	const char *all = "; all of them, whatever --iters says";

	if (!strcmp(src, "syscalls") && misuse > 0)
		fprintf(out, "iterations: each system call of the command (%.0f thread%s in %.0f process%s%s), "
			"since its markers were used wrongly: no latctl_begin() to latctl_end() pair !\n",
			th, th == 1 ? "" : "s", pr, pr == 1 ? "" : "es", all);
	else if (!strcmp(src, "syscalls") && lat_rd_num(rd, m, "written") > 0)
		fprintf(out,
			"iterations: each system call of the command (%.0f thread%s in %.0f process%s%s), "
			"as --mode syscalls asks; its %.0f marked iterations are not these\n",
			th, th == 1 ? "" : "s", pr, pr == 1 ? "" : "es", all,
			lat_rd_num(rd, m, "written"));
	else if (!strcmp(src, "syscalls"))
		fprintf(out, "iterations: no markers were used, so each system call of the command is one "
			"(%.0f thread%s in %.0f process%s%s)\n", th, th == 1 ? "" : "s", pr,
			pr == 1 ? "" : "es", all);
	else
		fprintf(out, "iterations: latctl_begin() to latctl_end() of %.0f thread%s in %.0f process%s\n",
			th, th == 1 ? "" : "s", pr, pr == 1 ? "" : "es");
}

void lat_exec_print_head(const cJSON *x, FILE *out, struct lat_rd *rd)
{
	const cJSON *m = lat_rd_obj(rd, x, "markers");
	double kept = lat_rd_num(rd, m, "written"), refused = lat_rd_num(rd, m, "threads_refused");
	double lost = lat_rd_num(rd, m, "full") + lat_rd_num(rd, m, "end_without_begin") +
		      lat_rd_num(rd, m, "begin_twice") + lat_rd_num(rd, m, "open_at_end");

	if (lost > 0 && kept > 0)
		fprintf(out, "MARKERS LOST: kept %.0f of %.0f marked iterations; see \"markers lost\" below\n",
			kept, kept + lost);
	if (refused > 0)
		fprintf(out, "MARKERS LOST: %.0f thread%s beyond --threads %.0f recorded nothing\n",
			refused, refused == 1 ? "" : "s", lat_rd_num(rd, m, "regions"));
	print_what(x, out, rd);
}
