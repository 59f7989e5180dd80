// SPDX-License-Identifier: MIT
/* The core options of `latctl run`: one row each, bound to its member. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/evbuf.h"
#include "doc/runopts.h"
#include "lib/parse.h"
#include "system/thp.h"
#include "system/thp_size.h"

const char *const lat_vm_kernels[] = { "6.1", "6.12", "7.3", NULL };

int lat_vm_kernel_valid(const char *name)
{
	int i;

	for (i = 0; lat_vm_kernels[i]; i++)
		if (!strcmp(name, lat_vm_kernels[i]))
			return 1;
	return 0;
}

void lat_opts_init(struct lat_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cpu = -1;
	o->seed = LAT_DEFAULT_SEED;
}

const char *lat_run_slow(const struct lat_opts *o)
{
	const struct workload_ops *ops = lat_workload_find(o->workload);

	if (o->slow)
		return o->slow;
	return ops && ops->default_slow ? ops->default_slow : LAT_DEFAULT_SLOW;
}

static void list_kernels(FILE *out)
{
	int i;

	for (i = 0; lat_vm_kernels[i]; i++)
		fprintf(out, " %s", lat_vm_kernels[i]);
}

/* Every workload's modes, once each. */
static void list_modes(FILE *out)
{
	char seen[1024] = "|", word[64];
	const char *m, *bar;
	size_t i, len;

	for (i = 0; lat_workloads[i]; i++) {
		for (m = lat_workloads[i]->modes; m && *m; m = bar ? bar + 1 : m + len) {
			bar = strchr(m, '|');
			len = bar ? (size_t)(bar - m) : strlen(m);
			snprintf(word, sizeof(word), "|%.*s|", (int)len, m);
			if (strstr(seen, word) || strlen(seen) + len + 2 > sizeof(seen))
				continue;
			fprintf(out, " %.*s", (int)len, m);
			strcat(seen, word + 1);
		}
	}
}

static int slow_valid(const char *arg)
{
	struct lat_threshold t;

	return !lat_parse_threshold(arg, &t);
}

static int backend_valid(const char *arg)
{
	return !lat_backend_check(arg); /* it says why itself */
}

/* --json FILE; "-" is stdout, which then holds the JSON alone. */
static int parse_json(struct lat_opts *o, const char *arg)
{
	if (o->json_path) {
		fprintf(stderr, "latctl run: --json given twice (%s and %s); give one file\n",
			o->json_path, arg);
		return -EINVAL;
	}
	o->json_path = arg;
	o->quiet |= !strcmp(arg, "-");
	return 0;
}

static int parse_thp_size(struct lat_opts *o, const char *arg)
{
	if (o->mm.n_thp_size == LAT_THP_SIZE_MAX) {
		fprintf(stderr, "latctl: --thp-size given more than %d times\n", LAT_THP_SIZE_MAX);
		return -EINVAL;
	}
	return lat_thp_size_parse(arg, &o->mm.thp_size[o->mm.n_thp_size++]);
}

static int parse_memcg(struct lat_opts *o, const char *arg)
{
	return lat_mm_parse_size("--memcg", arg, &o->mm.memcg_bytes);
}

static int parse_fragment(struct lat_opts *o, const char *arg)
{
	(void)arg;
	o->mm.fragment = 1;
	return 0;
}

static int parse_in(struct lat_opts *o, const char *arg)
{
	if (o->n_in == LAT_MAX_IN) {
		fprintf(stderr, "latctl run: --in given more than %d times\n", LAT_MAX_IN);
		return -EINVAL;
	}
	if (access(arg, R_OK))
		return lat_opt_bad_value("--in", arg, -EINVAL, "a file to copy into the VM");
	o->in[o->n_in++] = arg;
	return 0;
}

#define AT(member) offsetof(struct lat_opts, member)

/* The core's options, alphabetical; every workload's follow them in
 * `run`'s table (run/opts.c). */
/* clang-format off */
const struct lat_run_opt lat_run_opts[] = {
	{ { "backend", 0, "B", "who records the kernel events: latmon, bpf (static\n"
	    "tracepoints, no module; fault ends and huge-page\n"
	    "zeroing estimated), none, or auto (default: latmon\n"
	    "when loaded, else bpf when this kernel allows it);\n"
	    "latmon or bpf that cannot record here: exit 1", NULL, lat_backend_list },
	  .type = LAT_ROPT_WORD, .offset = AT(backend), .valid = backend_valid,
	  .json = "backend", .unset = "auto", .env = LAT_ROPT_ENV_VALUE, .row_at = 10 },
	{ { "cpu", 'c', "N", "pin to CPU N (default: not pinned)", NULL, NULL },
	  .type = LAT_ROPT_CPU, .offset = AT(cpu), .min = 0, .max = CPU_SETSIZE - 1, .json = "cpu", .env = LAT_ROPT_ENV_VALUE, .row_at = 5 },
	{ { "events", 0, "N", "latmon records latctl keeps for the join (72 bytes\n"
	    "each, default 1048576); more are counted as lost", NULL, NULL },
	  .type = LAT_ROPT_COUNT, .offset = AT(events), .min = 16, .max = LAT_EVBUF_MAX_EVENTS,
	  .json = "events", .env = LAT_ROPT_ENV_GIVEN, .row_at = 8 },
	{ { "fragment", 0, NULL, "leave no free 2 MiB block before timing, THP defrag\n"
	    "always for the run: huge-page faults compact (root)", NULL, NULL },
	  .type = LAT_ROPT_CUSTOM, .parse = parse_fragment },
	{ LAT_OPT_HELP, .type = LAT_ROPT_FLAG, .host_only = 1 },
	{ { "iters", 'i', "N", "iterations (default: the workload's, see 'latctl list')", NULL, NULL },
	  .type = LAT_ROPT_COUNT, .offset = AT(iters), .min = 1, .max = LAT_MAX_ITERS,
	  .json = "iters", .env = LAT_ROPT_ENV_GIVEN, .row_at = 1, .row = "iterations" },
	{ { "in", 0, "FILE", "with --vm: copy FILE (a program and the libraries it\n"
	    "needs) into the VM's /in, on PATH there; repeatable", "<file>", NULL },
	  .type = LAT_ROPT_CUSTOM, .parse = parse_in, .host_only = 1 },
	{ { "json", 'j', "FILE", "also write the whole result as JSON (atomically);\n"
	    "- writes it to stdout instead of the report", "<file>", NULL },
	  .type = LAT_ROPT_CUSTOM, .offset = AT(json_path), .parse = parse_json, .json = "json", .host_only = 1 },
	{ { "kernel", 0, "SERIES", "with --vm: Debian kernel 6.1, 6.12 or 7.3 (default 7.3)",
	    NULL, list_kernels },
	  .type = LAT_ROPT_WORD, .offset = AT(kernel), .valid = lat_vm_kernel_valid, .expect = "6.1, 6.12 or 7.3",
	  .host_only = 1 },
	{ { "memcg", 0, "SIZE", "run in a new memory cgroup limited to SIZE (64M, 1G)\n"
	    "and full of memory to reclaim: faults reclaim (root)", NULL, NULL },
	  .type = LAT_ROPT_CUSTOM, .parse = parse_memcg },
	{ { "mode", 'm', "MODE", "the workload's mode (see 'latctl list')", NULL, list_modes },
	  .type = LAT_ROPT_WORD, .offset = AT(mode), .json = "mode" },
	{ { "no-thp", 0, NULL, "no transparent huge pages for this process (prctl)", NULL, NULL },
	  .type = LAT_ROPT_FLAG, .offset = AT(no_thp), .json = "no_thp", .env = LAT_ROPT_ENV_VALUE, .row_at = 3 },
	{ { "quiet", 'q', NULL, "print nothing on success (use with --json)", NULL, NULL },
	  .type = LAT_ROPT_FLAG, .offset = AT(quiet), .json = "quiet", .host_only = 1 },
	{ { "repeat", 0, "N", "N runs, each in a fresh process, in one result: every\n"
	    "run's summary, counters and causes, pooled histogram", NULL, NULL },
	  .type = LAT_ROPT_COUNT, .offset = AT(repeat), .min = 1, .max = LAT_MAX_REPEAT },
	{ { "ring", 0, "N", "BPF backend: ring buffer records (80 bytes each,\n"
	    "rounded up to a power of two bytes; default 65536);\n"
	    "events that find it full are counted as lost", NULL, NULL },
	  .type = LAT_ROPT_COUNT, .offset = AT(ring), .min = 1, .max = LAT_BPF_MAX_RING, .json = "ring", .env = LAT_ROPT_ENV_GIVEN, .row_at = 9 },
	{ { "seed", 0, "N", "seed of the random generators (default 42)", NULL, NULL },
	  .type = LAT_ROPT_COUNT, .offset = AT(seed), .min = 0, .max = UINT64_MAX, .json = "seed", .env = LAT_ROPT_ENV_VALUE, .row_at = 7 },
	{ { "slow", 's', "T", "what counts as a slow iteration: a percentile (p99.9)\n"
	    "or a time (5us, 1.5ms); default " LAT_DEFAULT_SLOW ", but the\n"
	    "workload's own where 'latctl list' shows one (mmap 1ms)", NULL, NULL },
	  .type = LAT_ROPT_WORD, .offset = AT(slow), .valid = slow_valid,
	  .expect = "a percentile such as p99.9 or a time such as 5us",
	  .json = "slow", .value = lat_run_slow, .env = LAT_ROPT_ENV_VALUE, .row_at = 6 },
	{ { "thp", 0, "MODE", "set THP system-wide to always|madvise|never for the\n"
	    "run (root); the previous value is restored on exit,\n"
	    "on error and on SIGINT/SIGTERM/SIGHUP", "always madvise never", NULL },
	  .type = LAT_ROPT_WORD, .offset = AT(thp), .valid = lat_thp_valid, .expect = "always, madvise or never",
	  .once = 1, .json = "thp", .env = LAT_ROPT_ENV_VALUE, .row_at = 2 },
	{ { "thp-size", 0, "S=MODE", "one huge-page size (mTHP, Linux 6.8+), e.g. 64K=always;\n"
	    "repeatable, restored like --thp", "16K= 32K= 64K= 128K= 256K= 512K= 1M= 2M=", NULL },
	  .type = LAT_ROPT_CUSTOM, .parse = parse_thp_size },
	{ { "vm", 0, NULL, "run it in a QEMU VM with latmon loaded (when this\n"
	    "kernel cannot load it); the report prints here", NULL, NULL },
	  .type = LAT_ROPT_FLAG, .offset = AT(vm), .host_only = 1 },
};
/* clang-format on */
const size_t lat_n_run_opts = sizeof(lat_run_opts) / sizeof(lat_run_opts[0]);

static int set_word(const struct lat_run_opt *r, const char **slot, const char *arg,
		    const char *name)
{
	if (r->once && *slot) {
		fprintf(stderr, "latctl run: --%s given twice (%s and %s); give one\n", r->opt.name,
			*slot, arg);
		return -EINVAL;
	}
	*slot = arg;
	if (r->valid && !r->valid(arg))
		return r->expect ? lat_opt_bad_value(name, arg, -EINVAL, r->expect) : -EINVAL;
	return 0;
}

int lat_run_opt_set(const struct lat_run_opt *r, struct lat_opts *o, const char *arg)
{
	char *at = (char *)o + r->offset, name[32];
	uint64_t v = 0;
	int ret;

	snprintf(name, sizeof(name), "--%s", r->opt.name);
	switch (r->type) {
	case LAT_ROPT_FLAG:
		if (r->offset)
			*(int *)at = 1;
		return 0;
	case LAT_ROPT_COUNT:
		return lat_opt_parse_count(name, arg, r->min, r->max, (uint64_t *)at);
	case LAT_ROPT_CPU:
		ret = lat_opt_parse_count(name, arg, r->min, r->max, &v);
		*(int *)at = (int)v;
		return ret;
	case LAT_ROPT_WORD:
		return set_word(r, (const char **)at, arg, name);
	case LAT_ROPT_CUSTOM:
		return r->parse(o, arg);
	}
	return -EINVAL;
}

static cJSON *value_json(const struct lat_run_opt *r, const struct lat_opts *o)
{
	const char *at = (const char *)o + r->offset, *s;

	if (r->value)
		return cJSON_CreateString(r->value(o));
	switch (r->type) {
	case LAT_ROPT_FLAG:
		return cJSON_CreateBool(*(const int *)at);
	case LAT_ROPT_COUNT:
		return cJSON_CreateNumber((double)*(const uint64_t *)at);
	case LAT_ROPT_CPU:
		return *(const int *)at >= 0 ? cJSON_CreateNumber(*(const int *)at) :
					       cJSON_CreateNull();
	case LAT_ROPT_WORD:
	case LAT_ROPT_CUSTOM: /* a CUSTOM row with a key keeps a word there */
		s = *(const char *const *)at;
		return s || r->unset ? cJSON_CreateString(s ? s : r->unset) : cJSON_CreateNull();
	}
	return NULL;
}

void lat_run_opts_json(cJSON *j, const struct lat_opts *o)
{
	size_t i;

	for (i = 0; i < lat_n_run_opts; i++)
		if (lat_run_opts[i].json)
			cJSON_AddItemToObject(j, lat_run_opts[i].json,
					      value_json(&lat_run_opts[i], o));
}

const struct lat_run_opt *lat_run_opt_of_json(const char *key)
{
	size_t i;

	for (i = 0; i < lat_n_run_opts; i++)
		if (lat_run_opts[i].json && !strcmp(lat_run_opts[i].json, key))
			return &lat_run_opts[i];
	return NULL;
}
