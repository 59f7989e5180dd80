// SPDX-License-Identifier: MIT
/* --memcg: the run in a memory cgroup at its limit, with memory to reclaim. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "system/memcg.h"
#include "lib/rdoc.h"
#include "settings/journal.h"
#include "settings/sysset.h"

#define FILL_CHUNK	(4UL << 20)

static char cgroot[256];		/* the cgroup v2 mount (mountinfo) */

static struct {
	char path[PATH_MAX];		/* the new cgroup, "" if none */
	char orig_procs[PATH_MAX];	/* cgroup.procs of the one we came from */
	uint64_t limit;
	size_t filled;
	int joined;			/* this process is in it */
	int enabled_memory;		/* we wrote +memory to the root */
} cg;

/* cgroot/name, in a buffer of its own per call site's lifetime (one at a time). */
static const char *root_file(const char *name)
{
	static char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", cgroot, name);
	return path;
}

/* Mount point (field 5) and file system type (after " - ") of mountinfo
 * lines: the first cgroup2 into cgroot; 1 if a cgroup v1 hierarchy has the
 * memory controller, into v1. */
static int scan_mounts(char *v1, size_t len)
{
	char line[PATH_MAX * 2], mnt[PATH_MAX], type[32], opts[256];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int memory_v1 = 0;
	char *dash;

	cgroot[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash + 3, "%31s %*s %255s", type, opts) != 2)
			continue;
		if (!strcmp(type, "cgroup2") && !cgroot[0])
			snprintf(cgroot, sizeof(cgroot), "%.255s", mnt);
		if (!strcmp(type, "cgroup") && strstr(opts, "memory") && !memory_v1) {
			snprintf(v1, len, "%s", mnt);
			memory_v1 = 1;
		}
	}
	if (f)
		fclose(f);
	return memory_v1;
}

/* The cgroup v2 mount with the memory controller, or one line why not. */
static int find_root(void)
{
	char v1[PATH_MAX] = "", ctl[256] = "";
	int memory_v1 = scan_mounts(v1, sizeof(v1)), fd;
	ssize_t n;

	if (!cgroot[0]) {
		fprintf(stderr, "latctl: --memcg needs cgroup v2, and none is mounted here%s%s%s\n",
			memory_v1 ? " (the memory controller is on cgroup v1 at " : "",
			memory_v1 ? v1 : "", memory_v1 ? "; boot with systemd.unified_cgroup_hierarchy=1)" : "");
		return -ENOENT;
	}
	fd = open(root_file("cgroup.controllers"), O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, ctl, sizeof(ctl) - 1) : -1;
	if (fd >= 0)
		close(fd);
	ctl[n > 0 ? n : 0] = '\0';
	if (strstr(ctl, "memory"))
		return 0;
	fprintf(stderr, "latctl: --memcg: the cgroup v2 hierarchy at %s has no memory controller%s%s%s\n",
		cgroot, memory_v1 ? " (it is bound to cgroup v1 at " : "", memory_v1 ? v1 : "",
		memory_v1 ? "; boot with systemd.unified_cgroup_hierarchy=1)" : "");
	return -ENOENT;
}

void lat_memcg_leave(void)
{
	if (!cg.joined)
		return;
	lat_sysset_put(cg.orig_procs, "0");
	cg.joined = 0;
}

/* Leave and remove the cgroup: also the signal-time undo. */
static void undo(void)
{
	if (!cg.path[0])
		return;
	lat_memcg_leave();
	rmdir(cg.path);
	if (cg.enabled_memory)
		lat_sysset_put(root_file("cgroup.subtree_control"), "-memory");
	cg.path[0] = '\0';
}

/* cgroup.procs of the cgroup this process is in ("0::/x" in /proc/self/cgroup). */
static int own_cgroup(char *buf, size_t len)
{
	char line[PATH_MAX - 64];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int ret = -ENOENT;

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(buf, len, "%.255s%.3800s/cgroup.procs", cgroot,
			 strcmp(line + 3, "/") ? line + 3 : "");
		ret = 0;
	}
	if (f)
		fclose(f);
	return ret;
}

/* The memory controller for the root's children. */
static int enable_memory(void)
{
	char ctl[256] = "";
	int fd = open(root_file("cgroup.subtree_control"), O_RDONLY | O_CLOEXEC), ret;
	ssize_t n = fd >= 0 ? read(fd, ctl, sizeof(ctl) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return -ENOENT;
	ctl[n] = '\0';
	if (strstr(ctl, "memory"))
		return 0;
	ret = lat_journal_begin();	/* a killed run's +memory: -memory by the next */
	ret = ret ? ret : lat_journal_set("cgroup-memory", "-memory");
	if (ret)
		return ret;
	cg.enabled_memory = 1;
	return lat_sysset_put(root_file("cgroup.subtree_control"), "+memory");
}

/* Fill the cgroup with limit bytes of lazily freed pages, chunk by chunk. */
static int fill(void)
{
	size_t off;
	char *p = mmap(NULL, cg.limit, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	madvise(p, cg.limit, MADV_NOHUGEPAGE);
	for (off = 0; off + FILL_CHUNK <= cg.limit; off += FILL_CHUNK) {
		memset(p + off, 0x5a, FILL_CHUNK);
		if (madvise(p + off, FILL_CHUNK, MADV_FREE))
			return -errno;
		cg.filled = off + FILL_CHUNK;
	}
	return 0;
}

/* Create and limit the cgroup; arm the undo. */
static int create(void)
{
	char file[PATH_MAX + 32], val[32];
	int ret;

	snprintf(cg.path, sizeof(cg.path), "%s/latctl-%d", cgroot, (int)getpid());
	ret = lat_journal_begin();
	if (ret || mkdir(cg.path, 0755)) {
		ret = ret ? ret : -errno;
		cg.path[0] = '\0';
		return ret;
	}
	snprintf(file, sizeof(file), "cgroup-latctl-%d", (int)getpid());
	lat_journal_rmdir(file);	/* a killed run's cgroup: removed by the next */
	lat_cleanup_install();
	lat_cleanup_add(undo);
	snprintf(file, sizeof(file), "%s/memory.max", cg.path);
	snprintf(val, sizeof(val), "%llu", (unsigned long long)cg.limit);
	ret = lat_sysset_put(file, val);
	snprintf(file, sizeof(file), "%s/memory.swap.max", cg.path);
	if (!ret && !access(file, F_OK))
		ret = lat_sysset_put(file, "0");
	return ret;
}

/* One line for a failure of the set-up; -errno passed through. */
static int failed(int ret)
{
	fprintf(stderr, "latctl: --memcg: cannot set up the memory cgroup %s: %s%s\n",
		cg.path[0] ? cg.path : cgroot, strerror(-ret), geteuid() ? " (needs root)" : "");
	lat_memcg_stop();
	return ret;
}

int lat_memcg_start(uint64_t limit)
{
	int ret;

	cg.limit = limit;
	ret = find_root();
	if (ret)
		return ret;
	ret = own_cgroup(cg.orig_procs, sizeof(cg.orig_procs));
	if (!ret)
		ret = enable_memory();
	if (!ret)
		ret = create();
	return ret ? failed(ret) : 0;
}

int lat_memcg_enter(void)
{
	char file[PATH_MAX + 32];
	int ret;

	if (!cg.path[0])
		return 0;
	snprintf(file, sizeof(file), "%s/cgroup.procs", cg.path);
	ret = lat_sysset_put(file, "0");
	cg.joined = !ret;
	if (!ret)
		ret = fill();
	return ret ? failed(ret) : 0;
}

/* N of "key N" in the cgroup's memory.events; -1 if unreadable. */
static double event_count(const char *key)
{
	char file[PATH_MAX + 32], line[128];
	size_t len = strlen(key);
	double v = -1;
	FILE *f;

	snprintf(file, sizeof(file), "%s/memory.events", cg.path);
	f = fopen(file, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ' ')
			v = strtod(line + len + 1, NULL);
	if (f)
		fclose(f);
	return v;
}

cJSON *lat_memcg_json(void)
{
	cJSON *o;

	if (!cg.path[0])
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "path", cg.path);
	cJSON_AddNumberToObject(o, "limit_bytes", (double)cg.limit);
	cJSON_AddNumberToObject(o, "filled_bytes", (double)cg.filled);
	cJSON_AddNumberToObject(o, "max_events", event_count("max"));
	cJSON_AddNumberToObject(o, "oom_events", event_count("oom"));
	return o;
}

void lat_memcg_stop(void)
{
	undo();
	lat_cleanup_remove(undo);
}

void lat_memcg_print(const cJSON *o, FILE *out, struct lat_rd *r)
{
	if (!cJSON_IsObject(o))
		return;
	fprintf(out, "memory cgroup: limit %.0f MiB (filled with %.0f MiB to reclaim), at its limit %.0f times, OOM %.0f\n",
		lat_rd_num(r, o, "limit_bytes") / 1048576, lat_rd_num(r, o, "filled_bytes") / 1048576,
		lat_rd_num(r, o, "max_events"), lat_rd_num(r, o, "oom_events"));
}
