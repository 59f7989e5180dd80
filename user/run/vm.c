// SPDX-License-Identifier: MIT
/*
 * `latctl run ... --vm [--kernel SERIES]`: build what the QEMU test bed is
 * missing (make vm-initramfs: Debian kernel, latmon.ko for it, initramfs with
 * this latctl), boot it with scripts/testbed/vm-run.sh, load latmon and run the same
 * command in the guest, copy its JSON result back through vm-run.sh's /out
 * channel, and render it here with the renderer of `latctl report`.
 * The host's THP setting and CPU affinity are not touched.
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/latctl.h"
#include "run/opts.h"
#include "lib/progress.h"
#include "doc/result.h"
#include "run/deliver.h"
#include "run/vm.h"
#include "report/render.h"

#define GUEST_RESULT	"result.json"
#define VM_TIMEOUT_S	"1800"
/* The guest boots with Debian's stock kernel arguments; LATCTL_VM_APPEND
 * adds more (for example "init_on_alloc=0"). */
#define VM_APPEND	""
#define MAX_NAME	32
#define FORWARD_MS	500	/* Ctrl-C: "INT" to the guest again after */

/* Oldest first: the last one, the newest, is the default. */
/* Paths of one --vm run. */
struct vm_ctx {
	const char *series;
	char scripts[PATH_MAX];		/* .../scripts */
	char root[PATH_MAX];		/* the source tree above it */
	char tmp[64];			/* --out-dir of vm-run.sh */
	char control[96];		/* FIFO to the guest's ttyS2: Ctrl-C */
	char release[128];		/* guest kernel release */
	char accel[16];			/* kvm or tcg */
};

static const char *default_kernel(void)
{
	int i = 0;

	while (lat_vm_kernels[i + 1])
		i++;
	return lat_vm_kernels[i];
}

/* Process group of the running vm-run.sh (QEMU included), 0 if none. */
static volatile pid_t vm_pgid;

/* On SIGINT/SIGTERM/SIGHUP: stop the VM too (async-signal-safe). */
static void stop_vm(void)
{
	if (vm_pgid > 0)
		kill(-vm_pgid, SIGTERM);
}

/* Path of the control FIFO while a VM with one runs, "" otherwise. */
static char control_path[96];

/*
 * A first Ctrl-C (soft stop) during the run: "INT" to the guest, whose
 * latctl then stops at its next iteration and reports what it measured; a
 * second one ends the VM (the cleanup's stop_vm). Before QEMU runs, the
 * FIFO has no reader (ENXIO), and the guest's serial port drops what
 * arrives before its kernel opens it (a Ctrl-C during boot): "INT" is sent
 * again on each call (every FORWARD_MS until the VM ends); the guest acts
 * on the first it reads. Any other failure stops the VM.
 */
static void forward_stop(void)
{
	static int said, gave_up;
	int fd, err = 0;

	if (!lat_stop_requested || !control_path[0] || gave_up)
		return;
	if (!said) {
		lat_progress_done();
		fprintf(stderr, "latctl: --vm: Ctrl-C passed to the guest: its run stops and reports (Ctrl-C twice more stops the VM)\n");
		said = 1;
	}
	fd = open(control_path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || write(fd, "INT\n", 4) != 4)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err && err != ENXIO && err != EAGAIN) {
		fprintf(stderr, "latctl: --vm: cannot pass Ctrl-C to the guest (%s); stopping the VM\n",
			strerror(err));
		stop_vm();
		gave_up = 1;
	}
}

/* Run argv (argv[0] a path); its stdout goes to out_fd (-1: ours); with
 * group, in a process group of its own that stop_vm() can end. Exit
 * status, 128 + signal when killed, or -errno when it could not start. */
static int spawn_wait(char *const argv[], int out_fd, int group)
{
	int status;
	pid_t pid, got;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (group)
			setpgid(0, 0);
		if (out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0)
			_exit(127);
		signal(SIGPIPE, SIG_DFL); /* latctl ignores it (main.c) */
		execv(argv[0], argv);
		fprintf(stderr, "latctl: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (group) {
		setpgid(pid, pid);	/* also here: no window before the child runs */
		vm_pgid = pid;
	}
	while ((got = waitpid(pid, &status, group && lat_stop_requested ? WNOHANG : 0)) != pid) {
		if (got < 0 && errno != EINTR) {
			vm_pgid = 0;
			return -errno;
		}
		if (group)
			forward_stop();
		if (got == 0)
			nanosleep(&(struct timespec){ 0, FORWARD_MS * 1000000L }, NULL);
	}
	vm_pgid = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* First line argv prints on stdout, into buf. 0 or -errno / -EIO. */
static int capture_line(char *const argv[], char *buf, size_t len)
{
	char path[96];
	FILE *f;
	int fd, ret;

	snprintf(path, sizeof(path), "/tmp/latctl-vm-line.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	unlink(path);
	ret = spawn_wait(argv, fd, 0);
	lseek(fd, 0, SEEK_SET);
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	if (ret || !fgets(buf, (int)len, f))
		ret = ret < 0 ? ret : -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

/* Where the test bed's scripts are, relative to this executable: the source
 * tree (user/latctl) or an installation (bin/latctl, lib/latctl). Inside a
 * scripts folder they are in testbed/; $LATCTL_SCRIPTS may also name the
 * folder that holds them. */
static const char *const scripts_near_exe[] = { "/../scripts", "/../lib/latctl/scripts" };
static const char *const testbed_in[] = { "/testbed", "" };

/* The folder of vm-run.sh below cand into dir; 0 or -ENOENT. */
static int testbed_of(const char *cand, char *dir, size_t len, char *tried, size_t tried_len)
{
	char probe[PATH_MAX + 64];
	size_t k;

	for (k = 0; k < sizeof(testbed_in) / sizeof(testbed_in[0]); k++) {
		snprintf(probe, sizeof(probe), "%s%s/vm-run.sh", cand, testbed_in[k]);
		if (k == 0)
			snprintf(tried, tried_len, "%s", probe);
		snprintf(probe, sizeof(probe), "%s%s", cand, testbed_in[k]);
		if (!access(probe, F_OK) && realpath(probe, dir) && strlen(dir) < len - 16 &&
		    !access(strcat(dir, "/vm-run.sh"), X_OK)) {
			*strrchr(dir, '/') = '\0';
			return 0;
		}
	}
	return -ENOENT;
}

int lat_vm_scripts_dir(char *dir, size_t len, char *tried, size_t tried_len)
{
	const char *env = getenv("LATCTL_SCRIPTS");
	char exe[PATH_MAX], cand[PATH_MAX + 32];
	size_t i, n = env && *env ? 1 : sizeof(scripts_near_exe) / sizeof(scripts_near_exe[0]);
	ssize_t got = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[got > 0 ? got : 0] = '\0';
	*(strrchr(exe, '/') ? strrchr(exe, '/') : exe) = '\0';
	for (i = 0; i < n; i++) {
		if (env && *env)
			snprintf(cand, sizeof(cand), "%s", env);
		else
			snprintf(cand, sizeof(cand), "%s%s", exe, scripts_near_exe[i]);
		if (!testbed_of(cand, dir, len, tried, tried_len))
			return 0;
	}
	return -ENOENT;
}

/* The test bed's scripts ($LATCTL_SCRIPTS, else near this executable) and
 * the source tree above the scripts folder. */
static int find_scripts(struct vm_ctx *v)
{
	char tried[PATH_MAX + 48];
	size_t n;

	if (lat_vm_scripts_dir(v->scripts, sizeof(v->scripts), tried, sizeof(tried))) {
		fprintf(stderr, "latctl: --vm needs the QEMU test bed scripts (%s not found); "
			"run latctl from its source tree or set LATCTL_SCRIPTS=/path/to/latctl/scripts\n",
			tried);
		return -ENOENT;
	}
	snprintf(v->root, sizeof(v->root), "%s", v->scripts);
	n = strlen(v->root);
	if (n > 8 && !strcmp(v->root + n - 8, "/testbed"))
		v->root[n - 8] = '\0';
	*strrchr(v->root, '/') = '\0';
	return 0;
}

/* make vm-initramfs for this kernel: fetch it, build latmon.ko for it and
 * the initramfs with the current latctl (each step only when needed). */
static int build_testbed(struct vm_ctx *v)
{
	char kernels[64], mk[PATH_MAX + 16];
	char *argv[] = { "/usr/bin/make", "-s", "-C", v->root, "vm-initramfs", kernels, NULL };
	int ret;

	snprintf(mk, sizeof(mk), "%s/Makefile", v->root);
	if (access(mk, R_OK))
		return 0;	/* scripts without a source tree: use what is built */
	snprintf(kernels, sizeof(kernels), "VM_KERNELS=%s", v->series);
	if (access(argv[0], X_OK))
		argv[0] = "/bin/make";
	ret = spawn_wait(argv, STDERR_FILENO, 1);
	if (ret) {
		fprintf(stderr, "latctl: --vm: building the %s test bed failed (make -C %s vm-initramfs %s, status %d); see the lines above\n",
			v->series, v->root, kernels, ret);
		return -EIO;
	}
	return 0;
}

/* Guest kernel release and the accelerator vm-run.sh will use (it probes
 * KVM once and caches the verdict in .cache/vm/kvm-verdict). */
static void describe_guest(struct vm_ctx *v)
{
	char fetch[PATH_MAX + 32], run[PATH_MAX + 32], verdict[PATH_MAX + 32], line[256];
	char *relargv[] = { fetch, "--release", (char *)v->series, NULL };
	char *probe[] = { run, "--kernel", (char *)v->series, "--timeout", "120",
			  "--", "true", NULL };
	FILE *f;
	int fd;

	snprintf(fetch, sizeof(fetch), "%s/kernel-fetch.sh", v->scripts);
	snprintf(run, sizeof(run), "%s/vm-run.sh", v->scripts);
	snprintf(verdict, sizeof(verdict), "%s/.cache/vm/kvm-verdict", v->root);
	if (capture_line(relargv, v->release, sizeof(v->release)))
		snprintf(v->release, sizeof(v->release), "Debian %s", v->series);
	snprintf(v->accel, sizeof(v->accel), "tcg");
	if (access("/dev/kvm", R_OK | W_OK))
		return;		/* no KVM to probe: vm-run.sh uses TCG */
	if (access(verdict, R_OK) && (fd = open("/dev/null", O_WRONLY)) >= 0) {
		spawn_wait(probe, fd, 1);	/* vm-run.sh probes KVM and caches the verdict */
		close(fd);
	}
	f = fopen(verdict, "r");
	if (f && fgets(line, sizeof(line), f) && fgets(line, sizeof(line), f))
		snprintf(v->accel, sizeof(v->accel), "%.*s", (int)strcspn(line, "\n"), line);
	if (f)
		fclose(f);
}

/* The one line that says where the run happens and how to read its times. */
static void announce(const struct vm_ctx *v)
{
	if (!strcmp(v->accel, "kvm"))
		fprintf(stderr, "latctl: running in a QEMU VM with Debian %s (%s) under KVM: "
			"times include virtualization overhead\n", v->series, v->release);
	else
		fprintf(stderr, "latctl: running in a QEMU VM with Debian %s (%s) under TCG "
			"(no working KVM here): timings are emulated, compare ratios only\n",
			v->series, v->release);
}

/* An option of the host's latctl only (its row's host_only). */
static int skipped_option(const char *name)
{
	size_t i;

	for (i = 0; i < lat_n_run_opts; i++)
		if (!strcmp(lat_run_opts[i].opt.name, name))
			return lat_run_opts[i].host_only;
	return 0;
}

/* glibc's own libraries are in the guest already (latctl needs them). */
static int in_guest(const char *lib)
{
	static const char *const glibc[] = { "/libc.so", "/libm.so", "/ld-linux", "/libpthread.so",
					     "/libdl.so", "/librt.so", NULL };
	int i;

	for (i = 0; glibc[i]; i++)
		if (strstr(lib, glibc[i]))
			return 1;
	return 0;
}

#define MAX_LIBS	64
static char in_libs[MAX_LIBS][PATH_MAX];

/* The shared libraries FILE needs that the guest lacks (ldd), as --in
 * arguments of vm-run.sh into gv; the number of words added. */
static int libs_of(const char *file, char **gv)
{
	char cmd[PATH_MAX + 32], line[PATH_MAX + 64], *p, *end;
	static int used;
	int n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "ldd '%s' 2>/dev/null", file);
	f = strchr(file, '\'') ? NULL : popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f) && used < MAX_LIBS) {
		p = strstr(line, "=> /");
		if (!p || in_guest(p))
			continue;
		p += 3;
		end = p + strcspn(p, " \n");
		snprintf(in_libs[used], PATH_MAX, "%.*s", (int)(end - p), p);
		gv[n++] = "--in";
		gv[n++] = in_libs[used++];
	}
	if (f)
		pclose(f);
	return n;
}

/* --in FILE for each of the run's files and their libraries. */
static int in_files(const struct lat_opts *o, char **gv)
{
	int n = 0, i;

	for (i = 0; i < o->n_in; i++) {
		gv[n++] = "--in";
		gv[n++] = (char *)o->in[i];
		n += libs_of(o->in[i], gv + n);
	}
	return n;
}

/* Every option given, as --name [value], except --vm, --kernel, --json and
 * --quiet; then the workload. names holds the "--name" strings. */
static int guest_options(int argc, char **argv, const char *workload,
			 char **out, char (*names)[MAX_NAME])
{
	struct lat_cmd_opts cmd = *lat_opts_table();
	const struct lat_opt *opt;
	struct lat_optp p;
	int c, n = 0, k = 0;

	cmd.posix = 0;		/* the options after the workload's name too */
	lat_opt_begin(&p, &cmd);
	while ((c = lat_opt_next(&p, argc, argv)) != LAT_OPT_END) {
		opt = c >= 0 ? lat_opt_of(&cmd, c) : NULL;
		if (!opt || skipped_option(opt->name))
			continue;
		snprintf(names[k], MAX_NAME, "--%s", opt->name);
		out[n++] = names[k++];
		if (opt->arg)
			out[n++] = optarg;
	}
	out[n++] = (char *)workload;
	return n;
}

/* Boot the guest: insmod latmon, latctl run with the user's options, the
 * JSON into /out. The guest's own lines (errors; the report is --quiet)
 * go to our stderr. The guest's exit status or vm-run.sh's (124, 125). */
static int boot(const struct vm_ctx *v, const struct lat_opts *o, int argc, char **argv)
{
	static const char script[] =
		"insmod /lib/modules/latmon.ko || { echo 'latctl --vm: the guest cannot load latmon.ko' >&2; exit 1; }; "
		"export PATH=/in:$PATH LD_LIBRARY_PATH=/in LATCTL_VM_GUEST=$0; exec latctl \"$@\"";
	char run[PATH_MAX + 16], (*names)[MAX_NAME];
	const char *timeout = getenv("LATCTL_VM_TIMEOUT");
	const char *append = getenv("LATCTL_VM_APPEND");
	char **gv;
	int n = 0, ret;

	gv = calloc((size_t)argc * 2 + 4 * LAT_MAX_IN + 2 * MAX_LIBS + 32, sizeof(*gv));
	names = calloc((size_t)argc, sizeof(*names));
	if (!gv || !names) {
		free(gv);
		free(names);
		return -ENOMEM;
	}
	snprintf(run, sizeof(run), "%s/vm-run.sh", v->scripts);
	const char *head[] = { run, "--kernel", v->series, "--out-dir", v->tmp, "--timeout",
			       timeout && *timeout ? timeout : VM_TIMEOUT_S,
			       "--append", append ? append : VM_APPEND, "--control", v->control, NULL };
	/* $0 of the script: "tty" when the guest says its loop began (show_timing) */
	const char *guest[] = { "--", "/bin/sh", "-c", script, lat_progress_wanted() ? "tty" : "",
				"run", NULL };
	int i;

	for (; head[n]; n++)
		gv[n] = (char *)head[n];
	n += in_files(o, gv + n);
	for (i = 0; guest[i]; i++)
		gv[n++] = (char *)guest[i];
	/* exec's COMMAND holds no option of ours */
	n += guest_options(o->command ? (int)(o->command - argv) : argc, argv, o->workload,
			   gv + n, names);
	gv[n++] = "--quiet";
	gv[n++] = "--json";
	gv[n++] = "/out/" GUEST_RESULT;
	if (o->command) {		/* exec's COMMAND, last */
		gv[n++] = "--";
		for (i = 0; o->command[i]; i++)
			gv[n++] = o->command[i];
	}
	ret = spawn_wait(gv, STDERR_FILENO, 1);
	free(gv);
	free(names);
	return ret;
}

/* Where the run happened, in the copied document: "vm", and the host's
 * command line (the guest's goes to vm.guest_command_line). */
static void add_vm_json(cJSON *doc, const struct vm_ctx *v, const cJSON *host)
{
	cJSON *vm = cJSON_CreateObject(), *cmd;
	struct utsname u;
	const char *keys[] = { "command_line", "argv" };
	size_t i;

	cmd = cJSON_DetachItemFromObject(doc, "command_line");
	cJSON_AddItemToObject(vm, "guest_command_line", cmd ? cmd : cJSON_CreateNull());
	cJSON_DeleteItemFromObject(doc, "argv");
	for (i = 0; i < 2; i++)
		cJSON_AddItemToObject(doc, keys[i],
				      cJSON_Duplicate(cJSON_GetObjectItem(host, keys[i]), 1));

	cJSON_AddStringToObject(vm, "kernel", v->series);
	cJSON_AddStringToObject(vm, "release", v->release);
	cJSON_AddStringToObject(vm, "accel", v->accel);
	cJSON_AddStringToObject(vm, "kernel_args", getenv("LATCTL_VM_APPEND") ?
				getenv("LATCTL_VM_APPEND") : VM_APPEND);
	if (!uname(&u))
		cJSON_AddStringToObject(vm, "host_kernel_release", u.release);
	cJSON_DeleteItemFromObject(doc, "vm");
	cJSON_AddItemToObject(doc, "vm", vm);
}

/* The guest's result: write --json, print the report. LAT_EXIT_*. */
static int deliver(const struct vm_ctx *v, const struct lat_opts *o,
		   struct lat_result_file *file, int status, const cJSON *host)
{
	char path[128];
	cJSON *doc = NULL;
	int ret = status;

	snprintf(path, sizeof(path), "%s/" GUEST_RESULT, v->tmp);
	if (access(path, R_OK)) {
		if (status == LAT_EXIT_OK)
			fprintf(stderr, "latctl: --vm: the guest finished but sent no result back\n");
		if (status == LAT_EXIT_INTERRUPTED)
			fprintf(stderr, "latctl: --vm: the guest's run was interrupted before its timed loop: nothing measured\n");
		return status == LAT_EXIT_OK ? LAT_EXIT_FAIL : status;
	}
	if (lat_result_read(path, &doc))
		return LAT_EXIT_FAIL;
	add_vm_json(doc, v, host);
	if (lat_deliver(o->json_path ? file : NULL, doc, o->quiet, lat_report_stream(o->workload)))
		ret = LAT_EXIT_FAIL;
	cJSON_Delete(doc);
	return ret;
}

static char tmp_result[128];	/* for the signal-time cleanup */
static char tmp_dir[64];

/* Remove the copy-back directory and what the guest left in it (also on
 * SIGINT/SIGTERM/SIGHUP: async-signal-safe). */
static void remove_tmp(void)
{
	if (tmp_result[0])
		unlink(tmp_result);
	if (control_path[0])
		unlink(control_path);
	if (tmp_dir[0])
		rmdir(tmp_dir);
}

/* The copy-back directory, removed on exit and on a signal. */
static int make_tmp(struct vm_ctx *v)
{
	snprintf(v->tmp, sizeof(v->tmp), "/tmp/latctl-vm.XXXXXX");
	if (!mkdtemp(v->tmp)) {
		fprintf(stderr, "latctl: --vm: cannot create a directory in /tmp: %s\n", strerror(errno));
		return -errno;
	}
	snprintf(tmp_dir, sizeof(tmp_dir), "%s", v->tmp);
	snprintf(tmp_result, sizeof(tmp_result), "%s/" GUEST_RESULT, v->tmp);
	snprintf(v->control, sizeof(v->control), "%s/control", v->tmp);
	if (mkfifo(v->control, 0600)) {
		fprintf(stderr, "latctl: --vm: cannot create %s: %s\n", v->control, strerror(errno));
		rmdir(v->tmp);
		return -errno;
	}
	snprintf(control_path, sizeof(control_path), "%s", v->control);
	lat_cleanup_install();
	lat_cleanup_add(stop_vm);
	lat_cleanup_add(remove_tmp);
	return 0;
}

/* The progress line for one phase of the Debian SERIES run; always 0. */
static int show_phase(const struct vm_ctx *v, const char *what)
{
	char line[128];

	snprintf(line, sizeof(line), "--vm, Debian %s: %s", v->series, what);
	lat_progress(line);
	return 0;
}

int lat_vm_run(const struct lat_opts *o, int argc, char **argv, const cJSON *host_doc)
{
	struct lat_result_file file = { 0 };
	struct vm_ctx v = { .series = o->kernel ? o->kernel : default_kernel() };
	int ret;

	if (o->json_path && lat_result_open(&file, o->json_path))
		return LAT_EXIT_USAGE;
	ret = LAT_EXIT_FAIL;
	if (find_scripts(&v) || make_tmp(&v) || show_phase(&v, "checking the test bed") ||
	    build_testbed(&v))
		goto out;
	describe_guest(&v);
	lat_progress_done();
	announce(&v);
	show_phase(&v, "booting the VM and running there");
	lat_cleanup_soft_stop(1);	/* Ctrl-C: the guest's run stops and reports */
	ret = boot(&v, o, argc, argv);
	lat_cleanup_soft_stop(0);
	lat_progress_done();
	if (lat_stop_requested && ret == LAT_EXIT_INTERRUPTED)
		;			/* the guest reported what it measured */
	else if (ret < 0 || ret >= 124) {
		fprintf(stderr, "latctl: --vm: the VM did not finish the run (vm-run.sh status %d)\n", ret);
		ret = LAT_EXIT_FAIL;
	}
	ret = deliver(&v, o, &file, ret, host_doc);
out:
	lat_progress_done();
	remove_tmp();
	lat_cleanup_remove(remove_tmp);
	lat_cleanup_remove(stop_vm);
	lat_result_abort(&file);
	return ret;
}
