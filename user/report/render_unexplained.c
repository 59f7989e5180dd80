// SPDX-License-Identifier: MIT
/*
 * What "unexplained" may hold, under the cause table: what the backend
 * watched and did not see then (so it is ruled out), what it did not
 * watch, and in a guest the hypervisor's time the guest cannot see,
 * with the steal time the kernel counted during the loop.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "lib/fmt.h"
#include "lib/rdoc.h"
#include "report/render.h"

#define LIST_LEN 512

/* What a latmon source watches, in the words of the note. */
static const struct {
	const char *source, *what;
} source_words[] = {
	{ "fault", "faults" },
	{ "thp-clear", "huge-page zeroing" },
	{ "alloc-zero", "zeroing in the allocator" },
	{ "sched", "scheduling" },
	{ "irq", "interrupts and NMIs" },
	{ "compaction", "compaction" },
	{ "reclaim", "reclaim" },
	{ "syscall", "system calls" },
	{ "wait", "lock waits" },
	{ "tlb", "TLB flushes" },
};

static const char *words_of(const char *source)
{
	size_t i;

	for (i = 0; i < sizeof(source_words) / sizeof(source_words[0]); i++)
		if (!strcmp(source_words[i].source, source))
			return source_words[i].what;
	return source;
}

static void append(char *list, const char *what)
{
	size_t n = strlen(list);

	snprintf(list + n, LIST_LEN - n, "%s%s", n ? ", " : "", what);
}

/* latmon's sources that recorded during the run, and the others. */
static void latmon_lists(const cJSON *doc, char *on, char *off)
{
	const cJSON *lm = cJSON_GetObjectItemCaseSensitive(doc, "latmon"), *s;

	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(lm, "sources")) {
		const char *name =
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "name"));

		if (name)
			append(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "started")) ? on :
											      off,
			       words_of(name));
	}
}

/* How often the BPF backend read the steal clock: 0 where it has none. */
static double steal_reads(const cJSON *doc)
{
	const cJSON *be = cJSON_GetObjectItemCaseSensitive(doc, "backend");
	const cJSON *bpf = cJSON_GetObjectItemCaseSensitive(be, "bpf");
	const cJSON *steal = cJSON_GetObjectItemCaseSensitive(bpf, "steal");
	double n = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(steal, "reads"));

	return n > 0 ? n : 0;
}

/* The BPF backend's records (user/backend/bpf/README.md) and what only
 * latmon's sources record. */
static void bpf_lists(const cJSON *doc, char *on, char *off)
{
	append(on, "faults, huge-page zeroing, scheduling, interrupts and NMIs, migrations");
	if (steal_reads(doc) > 0)
		append(on, "the hypervisor's steal clock");
	append(off, "compaction, reclaim, lock waits, TLB flushes (latmon's sources)");
}

/* "Watched then and not seen: ...; not watched: ...", wrapped to 80
 * columns under a two-space indent. */
static void print_wrapped(FILE *out, const char *text)
{
	const char *p = text, *sp;
	int col = 0, w;

	fputs("  ", out);
	col = 2;
	while (*p) {
		sp = strchr(p, ' ');
		w = sp ? (int)(sp - p) : (int)strlen(p);
		if (col > 2 && col + 1 + w > 78) {
			fputs("\n  ", out);
			col = 2;
		} else if (col > 2) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", w, p);
		col += w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

/* SMIs on a machine that is no guest: who could count them here. */
static void smi_words(const cJSON *doc, bool bpf, char *buf, size_t len)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "environment");
	const char *vendor =
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(env, "cpu_vendor"));

	if (vendor && strcmp(vendor, "GenuineIntel")) /* MSR_SMI_COUNT is Intel's */
		snprintf(buf, len, "SMIs (firmware time): no SMI counter on this CPU (%s)", vendor);
	else if (vendor && bpf)
		snprintf(buf, len,
			 "SMIs (firmware time): the BPF backend cannot read "
			 "MSR_SMI_COUNT; latmon counts them (label smi)");
	else
		snprintf(buf, len,
			 "SMIs (firmware time) inside an iteration, but for latmon's "
			 "count on Intel CPUs (label smi)");
}

/* Whether the run used the probe's idle gaps: 0 no, 1 it named uncovered
 * stretches by them, 2 it refused them (more than their rate explains). */
static int noise_used(const cJSON *doc)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(doc, "hypervisor_probe");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(doc, "causes");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(c, "hypervisor_stretches");

	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "noise")))
		return 0;
	return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(h, "refused")) > 0 ? 2 : 1;
}

static void render_watched(FILE *out, const cJSON *doc, int guest)
{
	const cJSON *be = cJSON_GetObjectItemCaseSensitive(doc, "backend");
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(be, "name"));
	char on[LIST_LEN] = "", off[LIST_LEN] = "", text[3 * LIST_LEN], smi[160];
	bool bpf = name && !strcmp(name, "bpf");

	if (bpf)
		bpf_lists(doc, on, off);
	else
		latmon_lists(doc, on, off);
	smi_words(doc, bpf, smi, sizeof(smi));
	append(off, !guest	    ? smi :
		    noise_used(doc) ? "the hypervisor's stretches under 10 us (shorter "
				      "than the probe's gaps)" :
				      "the hypervisor's time inside an iteration");
	snprintf(text, sizeof(text), "Watched then, and not seen: %s. Not watched: %s.",
		 *on ? on : "nothing", off);
	print_wrapped(out, text);
}

void lat_steal_where(char *buf, size_t len, const cJSON *counters)
{
	const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(counters, "steal_cpu");

	if (cJSON_IsNumber(cpu))
		snprintf(buf, len, "on CPU %.0f", cpu->valuedouble);
	else
		snprintf(buf, len, "on all CPUs together");
}

/* What the steal records say: how much, and that the rest is not steal. */
static void render_recorded_steal(FILE *out, const cJSON *doc, const cJSON *causes)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(causes, "events");
	double ns = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "steal_ns"));
	char amount[24];

	lat_fmt_ns(amount, sizeof(amount), ns, 10);
	if (ns > 0)
		fprintf(out,
			"  The steal clock moved by %s while the threads ran (the Steal line\n"
			"  above says where it went): what stays unexplained is not steal.\n",
			amount);
	else
		fprintf(out,
			"  The steal clock did not move while the threads ran (read %.0f times at\n"
			"  their switches and ticks): none of unexplained is steal.\n",
			steal_reads(doc));
}

/* What the steal time says of the guest's unexplained time. */
static void render_guest_steal(FILE *out, const cJSON *doc, const cJSON *causes)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(doc, "counters");
	const cJSON *ms = cJSON_GetObjectItemCaseSensitive(c, "steal_ms");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(causes, "events");
	char where[48];

	if (steal_reads(doc) > 0 ||
	    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "steal_ns")) > 0) {
		render_recorded_steal(out, doc, causes);
		return;
	}
	if (!cJSON_IsNumber(ms))
		return;
	lat_steal_where(where, sizeof(where), c);
	if (ms->valuedouble > 0)
		fprintf(out,
			"  The kernel counted %.0f ms of steal %s during the loop: the\n"
			"  hypervisor ran something else then (the steal line below).\n",
			ms->valuedouble, where);
	else
		fprintf(out,
			"  No steal was counted %s during the loop: the hypervisor did\n"
			"  not take the CPU away for a whole tick; shorter exits are not counted.\n",
			where);
}

/* What the run's check of the probe's memory verdict found. */
static void check_text(char *text, size_t len, struct lat_rd *r, const cJSON *p)
{
	const cJSON *chk = lat_rd_obj(r, p, "check");
	const cJSON *failed = cJSON_GetObjectItemCaseSensitive(chk, "failed");
	double mb = lat_rd_num(r, chk, "mb");
	int n;

	if (failed) {
		snprintf(text, len,
			 "This run's check before its loop (%.0f MiB of fresh memory) could not "
			 "run (%s): without it the time after a fault stays unexplained.",
			 mb, lat_rd_str(r, chk, "failed"));
		return;
	}
	n = snprintf(text, len,
		     "This run's check before its loop (%.0f MiB of fresh memory) found its "
		     "first touches slow %.2f times per 1000 pages against %.2f for memory "
		     "taken back: ",
		     mb, lat_rd_num(r, chk, "gaps_per_1000_pages"),
		     lat_rd_num(r, chk, "reused_per_1000_pages"));
	if (n < 0 || (size_t)n >= len)
		return;
	if (lat_rd_bool(r, chk, "shown"))
		snprintf(text + n, len - (size_t)n,
			 "the time after a fault is the hypervisor's, hypervisor~ above, but for "
			 "an ordinary iteration's own work, which stays here.");
	else
		snprintf(text + n, len - (size_t)n,
			 "the guest's fresh memory is backed now, so the time after a fault "
			 "stays unexplained (the probe's verdict: %s).",
			 lat_rd_bool(r, p, "stored_shown") ? "shown" : "not shown");
}

/* The run's own evidence where no probe was stored (machine/hvprobe.h). */
static void after_fault_text(char *text, size_t len, struct lat_rd *r, const cJSON *a)
{
	char ft[32], fm[32];

	lat_fmt_time(ft, sizeof(ft), lat_rd_num(r, a, "first_touch_ns"));
	lat_fmt_time(fm, sizeof(fm), lat_rd_num(r, a, "fault_median_ns"));
	if (lat_rd_bool(r, a, "shown"))
		snprintf(text, len,
			 "This run's own check: a first touch of fresh memory costs %s here "
			 "and the guest's fault handler %s (the median of %.0f faults), so the "
			 "rest of a faulting access, before the guest sees the fault and after "
			 "it, is the hypervisor's (it maps the page for itself too): "
			 "hypervisor~ above, but for an ordinary iteration's own work, which "
			 "stays here.", ft, fm, lat_rd_num(r, a, "faults"));
	else
		snprintf(text, len,
			 "This run's own check: a first touch of fresh memory costs %s here "
			 "and the guest's fault handler %s (the median of %.0f faults), not "
			 "more than twice as much, so the time around a fault stays "
			 "unexplained ('latctl doctor --probe-hypervisor' runs the longer "
			 "experiment).", ft, fm, lat_rd_num(r, a, "faults"));
}

/* What the hypervisor probe this run used says of the time after a fault. */
static void render_probe(FILE *out, struct lat_rd *r, const cJSON *doc)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(doc, "hypervisor_probe");
	char text[3 * LIST_LEN], lead[96];
	const char *date;
	bool used;

	if (!p)
		return; /* a result of an older latctl */
	used = lat_rd_bool(r, p, "used");
	date = used ? lat_rd_opt_str(r, p, "date") : "none";
	if (!strcmp(date, "none"))
		date = ""; /* null: the stored probe had no date */
	if (cJSON_GetObjectItemCaseSensitive(p, "check"))
		check_text(text, sizeof(text), r, p);
	else if (!used && cJSON_GetObjectItemCaseSensitive(p, "after_fault"))
		after_fault_text(text, sizeof(text), r, lat_rd_obj(r, p, "after_fault"));
	else if (!used)
		snprintf(text, sizeof(text),
			 "Whether the time after a fault is the hypervisor's (backing the page "
			 "the guest just mapped) is not known on this machine: 'latctl doctor "
			 "--probe-hypervisor' (root) runs the experiment that shows it.");
	else if (lat_rd_bool(r, p, "shown"))
		snprintf(text, sizeof(text),
			 "The hypervisor probe%s%s showed that the time after a fault is the "
			 "hypervisor's: it is hypervisor~ above, but for an ordinary iteration's "
			 "own work, which stays here.",
			 *date ? " of " : "", date);
	else
		snprintf(text, sizeof(text),
			 "The hypervisor probe%s%s did not show that the time after a fault is "
			 "the hypervisor's (first touches of fresh memory were not slower than of "
			 "memory taken back), so it stays unexplained.",
			 *date ? " of " : "", date);
	print_wrapped(out, text);
	if (!used && !cJSON_GetObjectItemCaseSensitive(p, "idle"))
		return;
	if (used)
		snprintf(lead, sizeof(lead), "Its idle pass ");
	else
		snprintf(lead, sizeof(lead), "This run's own idle pass (%.2f s after its loop, doing nothing) ",
			 lat_rd_num(r, lat_rd_obj(r, p, "idle"), "secs"));
	snprintf(text, sizeof(text), "%s%s", lead,
		 noise_used(doc) == 1 ? "showed gaps no guest event explains: stretches like "
					"them are hypervisor~ above (the Hypervisor line), "
					"shorter ones stay here." :
		 noise_used(doc)      ? "showed gaps no guest event explains, but this run had "
					"more such stretches than their rate explains (the "
					"Hypervisor line): they stay here." :
					"did not show gaps that no guest event explains, so "
					"uncovered stretches stay unexplained too.");
	print_wrapped(out, text);
}

/* How much of unexplained is around faults no event times in full (null:
 * no slow iteration had only faults). */
static void render_edges(FILE *out, struct lat_rd *r, const cJSON *causes)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(causes, "fault_edges");
	char text[3 * LIST_LEN], per[24], typ[24];
	double share;

	if (!e || cJSON_IsNull(e))
		return;
	share = lat_rd_num(r, e, "share");
	lat_fmt_ns(per, sizeof(per), lat_rd_num(r, e, "ns_per_fault_median"), 10);
	lat_fmt_ns(typ, sizeof(typ), lat_rd_num(r, e, "typical_ns"), 10);
	snprintf(text, sizeof(text),
		 "In the %.0f slow iterations whose only events are faults (%.0f faults), "
		 "%s a fault (median) stays unexplained beyond an ordinary iteration's %s, "
		 "%.1f%% of the slow time: the parts of a fault no event times (its entry "
		 "before the first event, its work after the last, its return).",
		 lat_rd_num(r, e, "iterations"), lat_rd_num(r, e, "faults"), per, typ, 100 * share);
	if (share > 0)
		print_wrapped(out, text);
}

/* The share of the slow time no recorded event explains, 0 without it. */
static double unexplained_share(const cJSON *causes)
{
	const cJSON *row;

	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(causes, "causes")) {
		const char *label =
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "label"));

		if (label && !strcmp(label, "unexplained"))
			return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(row, "share"));
	}
	return 0;
}

/* The program's own work: latctl reads no hardware counter of the
 * iteration, so its own instructions stay in what no event explains. */
static void render_own_work(FILE *out, const cJSON *doc)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "summary");
	char p50[32], text[512];

	lat_fmt_time(p50, sizeof(p50), cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(s, "p50_ns")));
	snprintf(text, sizeof(text),
		 "The program's own work is part of it too: latctl counts no instructions of an "
		 "iteration (no PMU reading), and an ordinary iteration takes %s (the median): "
		 "an unexplained net time near that is the loop itself.", p50);
	print_wrapped(out, text);
}

void lat_unexplained_render(FILE *out, struct lat_rd *r, const cJSON *doc, const cJSON *causes)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "environment");
	const char *machine =
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(env, "machine"));
	double share = unexplained_share(causes);
	int len, guest = machine && strstr(machine, "guest");

	if (!(share > 0))
		return;
	fprintf(out, "unexplained: %.1f%% of the slow time, when this kernel recorded nothing.\n",
		100 * share);
	render_watched(out, doc, guest);
	render_own_work(out, doc);
	render_edges(out, r, causes);
	if (!guest)
		return;
	/* "QEMU TCG guest (an emulated CPU...)": the name before the comment */
	for (len = (int)strcspn(machine, "("); len > 0 && machine[len - 1] == ' '; len--)
		;
	fprintf(out,
		"  This is a %.*s: a guest does not see its hypervisor's time (another\n"
		"  guest running, the hypervisor's own fault on a page this guest touched).\n",
		len, machine);
	render_guest_steal(out, doc, causes);
	render_probe(out, r, doc);
}
