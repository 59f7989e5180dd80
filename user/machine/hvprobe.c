// SPDX-License-Identifier: MIT
/* The hypervisor probe (hvprobe.h): the passes, the verdict, the file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "file/outfile.h"
#include "file/readfile.h"
#include "lib/tsc.h"
#include "machine/hvprobe.h"
#include "machine/machine.h"

#define PAGE 4096
#define SHOWN_RATIO 5	   /* fresh gaps at least this times the reused ones */
#define SHOWN_MIN_RATE 1.0 /* ... and at least this many per 1000 pages */
#define IDLE_SECS 0.5	   /* the idle pass */

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Touch every page of mb fresh MiB once, each touch timed; the mapping
 * in *map (mb MiB) for the caller to unmap. */
static int touch_pass(struct lat_hv_pass *s, size_t mb, double hz, uint64_t *gap, void **map)
{
	size_t n = mb * (1 << 20) / PAGE, i;
	uint64_t lo = (uint64_t)(LAT_HV_GAP_MIN_NS * hz / 1e9);
	uint64_t hi = (uint64_t)(LAT_HV_GAP_MAX_NS * hz / 1e9), a, t;
	volatile char *p;
	uint16_t cpu;

	p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	madvise((void *)p, n * PAGE, MADV_NOHUGEPAGE); /* one fault per page */
	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		a = lat_tsc(&cpu);
		p[i * PAGE] = 1;
		t = lat_tsc(&cpu) - a;
		if (t >= lo && t < hi)
			gap[s->gaps++] = t;
	}
	s->pages = n;
	qsort(gap, s->gaps, sizeof(*gap), cmp_u64);
	s->gap_median_ns = s->gaps ? (double)gap[s->gaps / 2] * 1e9 / hz : 0;
	*map = (void *)p;
	return 0;
}

/* One pass, its memory freed after it. */
static int one_pass(struct lat_hv_pass *s, size_t mb, double hz, uint64_t *gap)
{
	void *map;
	int ret = touch_pass(s, mb, hz, gap, &map);

	if (!ret)
		munmap(map, mb << 20);
	return ret;
}

double lat_hv_rate(const struct lat_hv_pass *s)
{
	return s->pages ? 1000.0 * (double)s->gaps / (double)s->pages : 0;
}

int lat_hv_rates_show(double fresh, double reused)
{
	return fresh >= SHOWN_MIN_RATE && fresh >= SHOWN_RATIO * reused;
}

/* shown when the fresh pass has SHOWN_RATIO times the gaps of every
 * reused pass, and SHOWN_MIN_RATE per 1000 pages at least. */
static void judge(struct lat_hv_probe *p)
{
	double fresh = lat_hv_rate(&p->fresh), most = 0, r;
	int i;

	for (i = 0; i < LAT_HV_REUSED; i++) {
		r = lat_hv_rate(&p->reused[i]);
		most = r > most ? r : most;
	}
	p->shown = p->guest && lat_hv_rates_show(fresh, most);
	if (!p->guest)
		snprintf(p->verdict, sizeof(p->verdict), "not a guest: no hypervisor to show");
	else if (p->shown)
		snprintf(
			p->verdict, sizeof(p->verdict),
			"shown: first touches of memory never had are slow %.1fx as often as of memory taken back; the gap after a guest fault is the hypervisor's",
			most > 0 ? fresh / most : fresh);
	else
		snprintf(
			p->verdict, sizeof(p->verdict),
			"not shown: first touches of memory never had are slow %.2f per 1000 pages, of memory taken back up to %.2f (shown needs %dx and %.0f per 1000)",
			fresh, most, SHOWN_RATIO, SHOWN_MIN_RATE);
}

int lat_hv_run(struct lat_hv_probe *p, size_t mb)
{
	double hz = lat_tsc_hz();
	uint64_t *gap = malloc(mb * (1 << 20) / PAGE * sizeof(*gap));
	int i, ret;

	memset(p, 0, sizeof(*p));
	p->mb = mb;
	lat_machine_kind(p->machine, sizeof(p->machine));
	p->guest = strncmp(p->machine, "bare metal", 10) != 0;
	if (!gap || !(hz > 0)) {
		free(gap);
		fprintf(stderr, "latctl doctor: no memory for the probe's %zu MiB passes\n", mb);
		return -ENOMEM;
	}
	ret = one_pass(&p->fresh, mb, hz, gap);
	for (i = 0; !ret && i < LAT_HV_REUSED; i++)
		ret = one_pass(&p->reused[i], mb, hz, gap);
	if (!ret)
		ret = lat_hv_idle_run(&p->idle, IDLE_SECS, hz, gap, mb * (1 << 20) / PAGE);
	free(gap);
	if (ret) {
		fprintf(stderr, "latctl doctor: the probe could not run its %zu MiB passes: %s\n",
			mb, strerror(-ret));
		return ret;
	}
	judge(p);
	lat_hv_idle_judge(p);
	return 0;
}

static cJSON *idle_json(const struct lat_hv_idle *s)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "seconds", s->secs);
	cJSON_AddNumberToObject(o, "gaps", (double)s->gaps);
	cJSON_AddNumberToObject(o, "gaps_per_s", s->secs > 0 ? (double)s->gaps / s->secs : 0);
	cJSON_AddNumberToObject(o, "gap_median_ns", s->gap_median_ns);
	cJSON_AddNumberToObject(o, "interrupts", (double)s->irqs);
	cJSON_AddNumberToObject(o, "switches", (double)s->switches);
	cJSON_AddNumberToObject(o, "gaps_unseen_min", (double)lat_hv_idle_unseen(s));
	return o;
}

static cJSON *pass_json(const struct lat_hv_pass *s)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "pages", (double)s->pages);
	cJSON_AddNumberToObject(o, "gaps", (double)s->gaps);
	cJSON_AddNumberToObject(o, "gaps_per_1000_pages", lat_hv_rate(s));
	cJSON_AddNumberToObject(o, "gap_median_ns", s->gap_median_ns);
	return o;
}

/* The text of /etc/machine-id, "" when there is none. */
static void machine_id(char *buf, size_t len)
{
	FILE *f = fopen("/etc/machine-id", "r");

	buf[0] = '\0';
	if (f && fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

cJSON *lat_hv_json(const struct lat_hv_probe *p)
{
	cJSON *o = cJSON_CreateObject(), *reused = cJSON_CreateArray();
	char id[64], date[32];
	time_t now = time(NULL);
	int i;

	machine_id(id, sizeof(id));
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	cJSON_AddStringToObject(o, "schema", "latctl.hypervisor");
	cJSON_AddNumberToObject(o, "schema_version", 1);
	cJSON_AddStringToObject(o, "machine", p->machine);
	cJSON_AddStringToObject(o, "machine_id", id);
	cJSON_AddStringToObject(o, "date", date);
	cJSON_AddNumberToObject(o, "mb_per_pass", (double)p->mb);
	cJSON_AddNumberToObject(o, "gap_min_ns", LAT_HV_GAP_MIN_NS);
	cJSON_AddNumberToObject(o, "gap_max_ns", LAT_HV_GAP_MAX_NS);
	cJSON_AddItemToObject(o, "fresh", pass_json(&p->fresh));
	for (i = 0; i < LAT_HV_REUSED; i++)
		cJSON_AddItemToArray(reused, pass_json(&p->reused[i]));
	cJSON_AddItemToObject(o, "reused", reused);
	cJSON_AddBoolToObject(o, "shown", p->shown);
	cJSON_AddStringToObject(o, "verdict", p->verdict);
	cJSON_AddItemToObject(o, "idle", idle_json(&p->idle));
	cJSON_AddBoolToObject(o, "noise", p->noise);
	cJSON_AddStringToObject(o, "noise_verdict", p->noise_verdict);
	return o;
}

const char *lat_hv_path(void)
{
	static char path[4096];
	const char *d = getenv("LATCTL_VAR_DIR");

	snprintf(path, sizeof(path), "%s/hypervisor.json", d && *d ? d : "/var/lib/latctl");
	return path;
}

int lat_hv_store(const struct lat_hv_probe *p)
{
	const char *path = lat_hv_path();
	char dir[4096], *slash, *text;
	struct lat_outfile out;
	cJSON *doc;
	int ret;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST) {
			fprintf(stderr, "latctl doctor: cannot make %s: %s\n", dir,
				strerror(errno));
			return -errno;
		}
	}
	ret = lat_outfile_open(&out, path, "the hypervisor evidence");
	if (ret)
		return ret;
	doc = lat_hv_json(p);
	text = doc ? cJSON_Print(doc) : NULL;
	cJSON_Delete(doc);
	if (!text) {
		lat_outfile_abort(&out);
		return -ENOMEM;
	}
	ret = lat_outfile_commit(&out, text, strlen(text));
	free(text);
	return ret;
}

cJSON *lat_hv_load(const char **why)
{
	char *text = NULL, id[64], kind[96];
	const char *w = NULL;
	cJSON *doc = NULL;
	size_t len;

	if (access(lat_hv_path(), F_OK) || lat_read_file(lat_hv_path(), &text, &len)) {
		w = "no probe stored (latctl doctor --probe-hypervisor)";
		goto out;
	}
	doc = cJSON_ParseWithLength(text, len);
	machine_id(id, sizeof(id));
	lat_machine_kind(kind, sizeof(kind));
	if (!doc || !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(doc, "shown")))
		w = "the stored probe is not one latctl wrote";
	else if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "machine_id")) ?:
				"",
			id) ||
		 strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "machine")) ?:
												 "",
			kind))
		w = "the stored probe is of another machine";
out:
	free(text);
	if (w) {
		cJSON_Delete(doc);
		doc = NULL;
	}
	if (why)
		*why = w;
	return doc;
}

int lat_hv_guest(const cJSON *doc)
{
	const char *m = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "machine"));

	return m && strncmp(m, "bare metal", 10) != 0;
}

int lat_hv_shown(const cJSON *doc)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "shown"));
}

/* The most gaps per 1000 pages of the stored passes over memory taken back. */
static double stored_reused_rate(const cJSON *doc)
{
	const cJSON *pass;
	double most = 0, r;

	cJSON_ArrayForEach(pass, cJSON_GetObjectItemCaseSensitive(doc, "reused")) {
		r = cJSON_GetNumberValue(
			cJSON_GetObjectItemCaseSensitive(pass, "gaps_per_1000_pages"));
		most = r > most ? r : most; /* NaN: not a number, not kept */
	}
	return most;
}

/* LATCTL_HV_CHECK_MB: the check's MiB, 0 for none; LAT_HV_CHECK_MB if unset. */
static long check_mb(void)
{
	const char *v = getenv("LATCTL_HV_CHECK_MB");
	char *end;
	long mb;

	if (!v || !*v)
		return LAT_HV_CHECK_MB;
	mb = strtol(v, &end, 10);
	return *end || mb < 0 || mb > 4096 ? -1 : mb;
}

int lat_hv_check_run(struct lat_hv_check *c, const cJSON *doc)
{
	double hz = lat_tsc_hz();
	long mb = check_mb();
	uint64_t *gap;
	int ret;

	memset(c, 0, sizeof(*c));
	if (mb < 0) {
		fprintf(stderr,
			"latctl: LATCTL_HV_CHECK_MB '%s' is not valid; give MiB from 0 (no check) to 4096\n",
			getenv("LATCTL_HV_CHECK_MB"));
		return -EINVAL;
	}
	if (!doc || !mb)
		return 0;
	c->mb = (size_t)mb;
	c->done = 1;
	c->reused_rate = stored_reused_rate(doc);
	gap = malloc((size_t)mb * (1 << 20) / PAGE * sizeof(*gap));
	ret = gap && hz > 0 ? touch_pass(&c->fresh, (size_t)mb, hz, gap, &c->map) : -ENOMEM;
	free(gap);
	if (ret) {
		c->failed = -ret; /* no verdict now: not shown */
		return 0;
	}
	c->shown = lat_hv_rates_show(lat_hv_rate(&c->fresh), c->reused_rate);
	return 0;
}

void lat_hv_check_end(struct lat_hv_check *c)
{
	if (c->map)
		munmap(c->map, c->mb << 20);
	c->map = NULL;
}

cJSON *lat_hv_check_json(const struct lat_hv_check *c)
{
	cJSON *o = pass_json(&c->fresh);

	if (c->failed)
		cJSON_AddStringToObject(o, "failed", strerror(c->failed));
	cJSON_AddNumberToObject(o, "mb", (double)c->mb);
	cJSON_AddNumberToObject(o, "reused_per_1000_pages", c->reused_rate);
	cJSON_AddBoolToObject(o, "shown", c->shown);
	return o;
}
