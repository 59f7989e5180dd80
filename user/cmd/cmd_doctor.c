// SPDX-License-Identifier: MIT
/*
 * `latctl doctor [--json]`: what on this machine shapes the tail and what
 * latctl can do here. One check per setting, in a table; each finding has a
 * verdict (ok, note, warn), the value seen and what to do about it.
 */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "backend/backend_caps.h"
#include "backend/bpf/latbpf_user.h"
#include "cmd/cmd.h"
#include "lib/latctl.h"
#include "lib/opt.h"
#include "machine/facts.h"
#include "doc/result.h"
#include "settings/journal.h"
#include "settings/sysset.h"
#include "system/sysinfo.h"
#include "run/vm.h"

#define THP_DIR		"/sys/kernel/mm/transparent_hugepage"
#define CPU_DIR		"/sys/devices/system/cpu"

enum verdict { V_OK = 1, V_NOTE, V_WARN };

static const char *const verdict_names[] = {
	[V_OK] = "ok", [V_NOTE] = "note", [V_WARN] = "warn",
};

struct finding {
	enum verdict verdict;
	char value[400];
	char advice[600];
};

struct check {
	const char *name;
	void (*fn)(struct finding *f);
};

#define SET(f, v, ...) do { (f)->verdict = (v); \
	snprintf((f)->advice, sizeof((f)->advice), __VA_ARGS__); } while (0)

static void check_thp(struct finding *f)
{
	if (lat_sys_selected(THP_DIR "/enabled", f->value, sizeof(f->value))) {
		snprintf(f->value, sizeof(f->value), "not in this kernel");
		SET(f, V_NOTE, "no transparent huge pages: every fault maps 4 KiB");
	} else if (!strcmp(f->value, "always")) {
		SET(f, V_NOTE, "big anonymous regions get 2 MiB pages: fewer faults, but each "
		    "zeroes 2 MiB inside the fault; 'latctl run --thp madvise' compares (root)");
	} else {
		SET(f, V_OK, "huge pages only where a program asks (or never); "
		    "'latctl run --thp always' turns them on for one run and restores this (root)");
	}
}

static void check_defrag(struct finding *f)
{
	if (lat_sys_selected(THP_DIR "/defrag", f->value, sizeof(f->value))) {
		snprintf(f->value, sizeof(f->value), "not in this kernel");
		SET(f, V_OK, "nothing to do");
	} else if (!strcmp(f->value, "always")) {
		SET(f, V_WARN, "a huge-page fault compacts memory synchronously (stalls of "
		    "milliseconds when memory is fragmented): echo defer+madvise > " THP_DIR "/defrag");
	} else {
		SET(f, V_OK, "faults outside MADV_HUGEPAGE regions do not stall to compact memory");
	}
}

/* mTHP sizes whose setting is not "never", as "64kB:always 2048kB:inherit". */
static void check_mthp(struct finding *f)
{
	char mode[32], *sz;
	glob_t g;
	size_t i, n = 0;

	f->value[0] = '\0';
	if (glob(THP_DIR "/hugepages-*kB/enabled", 0, NULL, &g)) {
		snprintf(f->value, sizeof(f->value), "not in this kernel (6.8 or later has it)");
		SET(f, V_OK, "only 2 MiB huge pages (the thp line)");
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		if (lat_sys_selected(g.gl_pathv[i], mode, sizeof(mode)) || !strcmp(mode, "never"))
			continue;
		sz = strstr(g.gl_pathv[i], "hugepages-") + 10;
		n += (size_t)snprintf(f->value + n, sizeof(f->value) - n, "%s%.*s:%s",
				      n ? " " : "", (int)strcspn(sz, "/"), sz, mode);
		if (n >= sizeof(f->value))
			break;
	}
	globfree(&g);
	if (!f->value[0]) {
		snprintf(f->value, sizeof(f->value), "every size never");
		SET(f, V_OK, "no multi-size huge pages: faults map 4 KiB or 2 MiB");
		return;
	}
	SET(f, V_NOTE, "faults may allocate and zero these sizes (inherit: follows the thp "
	    "line); echo never > " THP_DIR "/hugepages-SIZE/enabled turns one off");
}

static void check_init_on_alloc(struct finding *f)
{
	char arg[32], cfg[16];
	int on, from_cmdline = lat_sys_cmdline("init_on_alloc", arg, sizeof(arg));
	int have = lat_sys_kconfig("CONFIG_INIT_ON_ALLOC_DEFAULT_ON", cfg, sizeof(cfg));

	if (from_cmdline) {
		on = !strcmp(arg, "1") || !strcmp(arg, "on") || !strcmp(arg, "");
		snprintf(f->value, sizeof(f->value), "%s (init_on_alloc=%s on the command line)",
			 on ? "on" : "off", arg);
	} else if (have >= 0) {
		on = have == 1 && !strcmp(cfg, "y");
		snprintf(f->value, sizeof(f->value), "%s (kernel config default)", on ? "on" : "off");
	} else {
		snprintf(f->value, sizeof(f->value), "unknown (no init_on_alloc= and no readable kernel config)");
		SET(f, V_NOTE, "if on, every page is zeroed when allocated: boot with init_on_alloc=0 to be sure");
		return;
	}
	if (on)
		SET(f, V_WARN, "every page is zeroed when allocated, inside the fault, and a huge "
		    "page zeroed twice before 6.13: boot with init_on_alloc=0 to measure faults");
	else
		SET(f, V_OK, "pages are zeroed once, where the kernel must");
}

/* The distinct values of one cpufreq file over all CPUs, space separated. */
static int per_cpu_values(const char *file, char *buf, size_t len)
{
	char pattern[96], v[64];
	glob_t g;
	size_t i, n = 0;

	buf[0] = '\0';
	snprintf(pattern, sizeof(pattern), CPU_DIR "/cpu[0-9]*/cpufreq/%s", file);
	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc && n < len; i++)
		if (!lat_sys_line(g.gl_pathv[i], v, sizeof(v)) && !strstr(buf, v))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", v);
	globfree(&g);
	return buf[0] != '\0';
}

static void check_governor(struct finding *f)
{
	if (!per_cpu_values("scaling_governor", f->value, sizeof(f->value))) {
		snprintf(f->value, sizeof(f->value), "no cpufreq");
		SET(f, V_OK, "no frequency scaling visible (a VM, or a fixed clock): nothing to set");
	} else if (!strcmp(f->value, "performance")) {
		SET(f, V_OK, "the clock stays at its top");
	} else {
		SET(f, V_WARN, "the clock follows the load, so the first iterations run slower: "
		    "cpupower frequency-set -g performance (root)");
	}
}

static void check_boost(struct finding *f)
{
	char v[16];

	if (!lat_sys_line(CPU_DIR "/cpufreq/boost", v, sizeof(v))) {
		snprintf(f->value, sizeof(f->value), "%s", v[0] == '1' ? "on" : "off");
	} else if (!lat_sys_line(CPU_DIR "/intel_pstate/no_turbo", v, sizeof(v))) {
		snprintf(f->value, sizeof(f->value), "%s (intel_pstate)", v[0] == '0' ? "on" : "off");
	} else {
		snprintf(f->value, sizeof(f->value), "no boost control");
		SET(f, V_OK, "nothing to set");
		return;
	}
	if (!strncmp(f->value, "on", 2))
		SET(f, V_NOTE, "turbo makes the clock depend on temperature and the other cores: "
		    "turn it off (" CPU_DIR "/cpufreq/boost or intel_pstate/no_turbo) for stable figures");
	else
		SET(f, V_OK, "the clock does not depend on the other cores");
}

static void check_smt(struct finding *f)
{
	if (lat_sys_line(CPU_DIR "/smt/control", f->value, sizeof(f->value)))
		snprintf(f->value, sizeof(f->value), "unknown");
	if (!strcmp(f->value, "on"))
		SET(f, V_NOTE, "two threads share each core: pin with --cpu to a CPU whose sibling "
		    "is idle, or echo off > " CPU_DIR "/smt/control (root)");
	else
		SET(f, V_OK, "one thread per core");
}

static void check_isolation(struct finding *f)
{
	char iso[128] = "", nohz[128] = "";

	lat_sys_line(CPU_DIR "/isolated", iso, sizeof(iso));
	lat_sys_line(CPU_DIR "/nohz_full", nohz, sizeof(nohz));
	snprintf(f->value, sizeof(f->value), "isolated %s, nohz_full %s",
		 *iso ? iso : "none", *nohz && strcmp(nohz, "(null)") ? nohz : "none");
	if (*iso)
		SET(f, V_OK, "run on one of them: latctl run WORKLOAD --cpu N");
	else
		SET(f, V_NOTE, "every CPU runs other tasks and the timer tick; for a quiet CPU boot "
		    "with isolcpus=N nohz_full=N and use --cpu N");
}

static void check_mitigations(struct finding *f)
{
	char arg[64], v[256], path[320];
	int mit = 0, vuln = 0;
	struct dirent *d;
	DIR *dir = opendir(CPU_DIR "/vulnerabilities");

	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), CPU_DIR "/vulnerabilities/%s", d->d_name);
		if (d->d_name[0] == '.' || lat_sys_line(path, v, sizeof(v)))
			continue;
		mit += !strncmp(v, "Mitigation", 10);
		vuln += !strncmp(v, "Vulnerable", 10);
	}
	if (dir)
		closedir(dir);
	if (!lat_sys_cmdline("mitigations", arg, sizeof(arg)))
		snprintf(arg, sizeof(arg), "auto (default)");
	snprintf(f->value, sizeof(f->value), "mitigations=%s: %d mitigated, %d vulnerable",
		 arg, mit, vuln);
	SET(f, V_NOTE, "mitigations make every kernel entry dearer (faults, system calls, "
	    "interrupts): compare runs only under the same setting");
}

/* Lockdown from securityfs, else the kernel config's forced level. */
static void lockdown_level(struct finding *f)
{
	char v[8];

	if (!lat_sys_selected("/sys/kernel/security/lockdown", f->value, sizeof(f->value)))
		return;
	if (lat_sys_kconfig("CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY", v, sizeof(v)) == 1)
		snprintf(f->value, sizeof(f->value), "confidentiality");
	else if (lat_sys_kconfig("CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY", v, sizeof(v)) == 1)
		snprintf(f->value, sizeof(f->value), "integrity");
	else if (lat_sys_kconfig("CONFIG_SECURITY_LOCKDOWN_LSM", v, sizeof(v)) == 1)
		snprintf(f->value, sizeof(f->value), "none");
	else
		snprintf(f->value, sizeof(f->value), "unknown");
	strncat(f->value, " (kernel config; /sys/kernel/security is not mounted)",
		sizeof(f->value) - strlen(f->value) - 1);
}

static void check_lockdown(struct finding *f)
{
	lockdown_level(f);
	if (!strncmp(f->value, "confidentiality", 15))
		SET(f, V_WARN, "kprobes, tracefs and kernel reads are refused, so latmon cannot "
		    "attach: use latctl run ... --vm");
	else if (!strncmp(f->value, "integrity", 9) && lat_modules_refused())
		SET(f, V_OK, "no module loads here anyway (see latmon); BPF tracing is allowed at this level");
	else if (!strncmp(f->value, "integrity", 9))
		SET(f, V_WARN, "only signed modules load: sign latmon.ko with a key the kernel "
		    "trusts, or use latctl run ... --vm");
	else if (!strncmp(f->value, "none", 4))
		SET(f, V_OK, "nothing is locked down");
	else
		SET(f, V_NOTE, "mount -t securityfs none /sys/kernel/security to see it");
}

/* Why latmon cannot load here, or NULL if it can. */
static const char *latmon_blocker(char *buf, size_t len)
{
	char v[8], build[320];
	const char *why = lat_modules_refused();
	struct utsname u;

	if (why)
		return why;
	uname(&u);
	snprintf(build, sizeof(build), "/lib/modules/%s/build", u.release);
	if (lat_sys_kconfig("CONFIG_KPROBES", v, sizeof(v)) == 0)
		return "this kernel has no kprobes (CONFIG_KPROBES is not set)";
	if (access(build, F_OK)) {
		snprintf(buf, len, "no headers at %s: apt-get install linux-headers-%s", build, u.release);
		return buf;
	}
	if (geteuid())
		return "not root: loading latmon (make load) needs root";
	return NULL;
}

static void check_latmon(struct finding *f)
{
	struct lat_backend_caps caps;
	char buf[800];
	const char *why;

	if (!access("/sys/module/latmon", F_OK)) {
		snprintf(f->value, sizeof(f->value), "loaded%s", access("/dev/latmon", F_OK) ?
			 ", but /dev/latmon is missing" : "");
		SET(f, V_OK, "latctl run names the cause of each slow iteration (as root); "
		    "latctl latmon info shows its event sources");
		return;
	}
	why = latmon_blocker(buf, sizeof(buf));
	if (!why) {
		snprintf(f->value, sizeof(f->value), "not loaded, loadable");
		SET(f, V_OK, "make module && make load, then latctl latmon info");
		return;
	}
	snprintf(f->value, sizeof(f->value), "cannot load: %.380s", why);
	lat_backend_caps(&caps);
	if (caps.bpf)
		SET(f, V_NOTE, "runs get their causes from the BPF backend here (see bpf); "
		    "latctl run ... --vm runs in a QEMU VM with latmon, whose fault ends are exact");
	else
		SET(f, V_WARN, "latctl run works without causes (only migration and realloc are named); "
		    "latctl run ... --vm runs it in a QEMU VM with latmon");
}

/* The BPF backend as `latctl backends` and a run see it (one test: its
 * program loads), with the program types and BTF for the reader. */
static void check_bpf(struct finding *f)
{
	int tp, raw, btf = !access("/sys/kernel/btf/vmlinux", R_OK);
	struct lat_backend_caps caps;

	if (lat_bpf_missing()) {
		snprintf(f->value, sizeof(f->value), "%.300s", lat_bpf_missing());
		SET(f, V_NOTE, "make builds it where clang, bpftool, libbpf and /sys/kernel/btf/vmlinux "
		    "are (make deps installs them on Debian)");
		return;
	}
	lat_bpf_prog_types(&tp, &raw);
	lat_backend_caps(&caps);
	snprintf(f->value, sizeof(f->value), "%s: %.200s; tracepoint programs %s, raw tracepoint programs %s, kernel BTF %s",
		 caps.bpf ? "usable" : "not usable", caps.bpf_why, tp ? "load" : "refused",
		 raw ? "load" : "refused", btf ? "present" : "absent");
	if (caps.bpf)
		SET(f, V_OK, "the BPF backend records causes here when latmon is not loaded (latctl backends)");
	else if (geteuid())
		SET(f, V_NOTE, "not root: loading tracing programs needs CAP_BPF and CAP_PERFMON; run as root");
	else
		SET(f, V_NOTE, "BPF tracing needs CONFIG_BPF_SYSCALL, CONFIG_DEBUG_INFO_BTF and no "
		    "lockdown at confidentiality level");
}

static void check_tsc(struct finding *f)
{
	int constant = lat_sys_cpuflag("constant_tsc"), nonstop = lat_sys_cpuflag("nonstop_tsc");
	char cs[32] = "?", khz[32] = "";

	lat_sys_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", cs, sizeof(cs));
	lat_sys_line(CPU_DIR "/cpu0/tsc_freq_khz", khz, sizeof(khz));
	snprintf(f->value, sizeof(f->value), "constant_tsc %s, nonstop_tsc %s, tsc_known_freq %s, "
		 "clocksource %s, frequency from %s", constant ? "yes" : "no", nonstop ? "yes" : "no",
		 lat_sys_cpuflag("tsc_known_freq") ? "yes" : "no", cs,
		 *khz ? "tsc_freq_khz" : "latmon's tsc_khz, else 80 ms of calibration");
	if (!constant || !nonstop)
		SET(f, V_WARN, "the TSC is not invariant: its rate follows the CPU clock or stops "
		    "in idle, so latctl's times are wrong; use a machine with an invariant TSC");
	else if (strcmp(cs, "tsc"))
		SET(f, V_NOTE, "the kernel does not use the TSC as its clock (%s): look for "
		    "'tsc unstable' in dmesg; latctl still times with it", cs);
	else
		SET(f, V_OK, "invariant TSC, used by the kernel too: times are good to the clock line of the report");
}

/* Whether --vm can run: its scripts, QEMU, KVM. */
static void check_vm(struct finding *f)
{
	char dir[4096], tried[4200];
	int qemu = !access("/usr/bin/qemu-system-x86_64", X_OK);
	int kvm = !access("/dev/kvm", R_OK | W_OK);

	if (lat_vm_scripts_dir(dir, sizeof(dir), tried, sizeof(tried))) {
		snprintf(f->value, sizeof(f->value), "no test bed (%.300s not found)", tried);
		SET(f, V_NOTE, "run latctl from its source tree or an installed copy, or set LATCTL_SCRIPTS");
		return;
	}
	snprintf(f->value, sizeof(f->value), "test bed at %.300s; QEMU %s; /dev/kvm %s", dir,
		 qemu ? "present" : "missing", kvm ? "present (used when a KVM guest boots, else TCG)" : "absent (TCG: emulated times)");
	if (qemu)
		SET(f, V_OK, "latctl run WORKLOAD --vm runs there with latmon loaded (the first run "
		    "fetches a Debian kernel and builds the module for it)");
	else
		SET(f, V_NOTE, "apt-get install qemu-system-x86 (scripts/deps.sh installs it) for --vm");
}

/* The settings journal (settings/journal.h): what a run that died left. */
static void check_settings(struct finding *f)
{
	int k = lat_journal_describe(f->value, sizeof(f->value));

	if (k == 0) {
		snprintf(f->value, sizeof(f->value), "no latctl run has settings changed");
		SET(f, V_OK, "nothing to put back");
	} else if (k == 1) {
		SET(f, V_NOTE, "a latctl run is changing these now and puts them back when it ends");
	} else if (k == 3) {
		SET(f, V_WARN, "nothing in it is put back: read it, set what it names by hand, then remove it");
	} else {
		SET(f, V_WARN, "a latctl run died (SIGKILL, the OOM killer) with these changed, so "
		    "the values above may be its own: 'latctl restore' (or any latctl run) puts them back");
	}
}

static const struct check checks[] = {
	{ "settings",		check_settings },
	{ "thp",		check_thp },
	{ "thp-defrag",		check_defrag },
	{ "mthp",		check_mthp },
	{ "init_on_alloc",	check_init_on_alloc },
	{ "governor",		check_governor },
	{ "boost",		check_boost },
	{ "smt",		check_smt },
	{ "isolation",		check_isolation },
	{ "mitigations",	check_mitigations },
	{ "lockdown",		check_lockdown },
	{ "latmon",		check_latmon },
	{ "bpf",		check_bpf },
	{ "tsc",		check_tsc },
	{ "vm",			check_vm },
};

#define NCHECKS (sizeof(checks) / sizeof(checks[0]))

static void print_text(const struct finding *f, const struct lat_facts *facts)
{
	struct utsname u;
	size_t i;

	uname(&u);
	printf("latctl doctor: kernel %s, %ld CPUs online\n", u.release,
	       sysconf(_SC_NPROCESSORS_ONLN));
	lat_facts_print(stdout, facts, "      ");
	for (i = 0; i < NCHECKS; i++)
		printf("%-4s  %-14s %s\n      %-14s %s\n", verdict_names[f[i].verdict],
		       checks[i].name, f[i].value, "", f[i].advice);
}

static int print_json(const struct finding *f, const struct lat_facts *facts, int argc,
		      char **argv)
{
	cJSON *doc = lat_result_new(argc, argv), *arr = cJSON_CreateArray(), *o;
	char *text;
	size_t i;

	cJSON_ReplaceItemInObject(doc, "schema", cJSON_CreateString("latctl.doctor"));
	cJSON_ReplaceItemInObject(doc, "schema_version", cJSON_CreateNumber(1));
	for (i = 0; i < NCHECKS; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", checks[i].name);
		cJSON_AddStringToObject(o, "verdict", verdict_names[f[i].verdict]);
		cJSON_AddStringToObject(o, "value", f[i].value);
		cJSON_AddStringToObject(o, "advice", f[i].advice);
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddItemToObject(doc, "checks", arr);
	cJSON_AddItemToObject(doc, "facts", lat_facts_json(facts));
	lat_result_finish(doc, LAT_EXIT_OK);
	text = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!text)
		return LAT_EXIT_FAIL;
	puts(text);
	free(text);
	return LAT_EXIT_OK;
}

static void doctor_usage(FILE *out);

static const struct lat_opt doctor_opts[] = {
	LAT_OPT_HELP,
	LAT_OPT_JSON("the same as a JSON document (schema latctl.doctor)"),
	{ "probe-hypervisor", LAT_OPT_LONG + 1, NULL,
	  "run the hypervisor experiment instead: first touches of memory\n"
	  "never had against memory just taken back, then a loop doing\n"
	  "nothing against its CPU's interrupts; stores the verdicts\n"
	  "where later runs read them (root)",
	  NULL, NULL },
	LAT_OPT_TABLE_END,
};

static const struct lat_cmd_opts doctor_cmd = {
	.cmd = "latctl doctor", .opt = doctor_opts, .width = 15, .usage = doctor_usage,
};

static void doctor_usage(FILE *out)
{
	fputs("usage: latctl doctor [--json]\n"
	      "       latctl doctor --probe-hypervisor [--json]\n\n"
	      "Shows what on this machine shapes the tail latency and what latctl can do\n"
	      "here: THP and mTHP, defrag, init_on_alloc, governor, boost, SMT, isolated\n"
	      "and nohz_full CPUs, mitigations, lockdown, whether latmon is loaded or can\n"
	      "load (and why not), whether BPF tracing programs load, and the TSC. Each\n"
	      "line: ok, note or warn, the setting, and below it what to do.\n\n"
	      "options:\n",
	      out);
	lat_opt_usage(out, &doctor_cmd);
	fputs("\nexamples:\n"
	      "  latctl doctor\n"
	      "  latctl doctor --json > doctor.json\n"
	      "  latctl doctor --probe-hypervisor\n",
	      out);
}

/* --help, --json and --probe-hypervisor. */
static enum lat_parsed parse_args(int argc, char **argv, int *json, int *probe)
{
	struct lat_optp p;
	int c;

	lat_opt_begin(&p, &doctor_cmd);
	while ((c = lat_opt_next(&p, argc, argv)) != LAT_OPT_END) {
		if (c == LAT_OPT_DONE)
			return LAT_PARSED_HELP;
		if (c == LAT_OPT_BAD) {
			fprintf(stderr, "latctl doctor: unknown argument '%s'; see 'latctl doctor --help'\n",
				argv[optind - 1]);
			return LAT_PARSED_BAD;
		}
		if (c == LAT_OPT_LONG + 1)
			*probe = 1;
		else
			*json = 1;
	}
	if (optind == argc)
		return LAT_PARSED_RUN;
	fprintf(stderr, "latctl doctor: unknown argument '%s'; see 'latctl doctor --help'\n", argv[optind]);
	return LAT_PARSED_BAD;
}

int cmd_doctor(int argc, char **argv)
{
	struct finding found[NCHECKS];
	struct lat_facts facts;
	int json = 0, probe = 0, ret = parse_args(argc, argv, &json, &probe);
	size_t i;

	if (ret)
		return ret == LAT_PARSED_HELP ? LAT_EXIT_OK : LAT_EXIT_USAGE;
	if (probe)
		return lat_doctor_probe(json);
	lat_bpf_quiet();	/* the probes' refusals are the finding, not noise */
	for (i = 0; i < NCHECKS; i++) {
		memset(&found[i], 0, sizeof(found[i]));
		checks[i].fn(&found[i]);
	}
	lat_facts_read(&facts);
	if (json)
		return print_json(found, &facts, lat_main_argc, lat_main_argv);
	print_text(found, &facts);
	return LAT_EXIT_OK;
}
