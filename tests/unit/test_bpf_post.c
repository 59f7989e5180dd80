// SPDX-License-Identifier: MIT
/*
 * Unit tests of the BPF backend's steps after the drain (user/bpf/
 * latbpf_post.c, ktime_tsc.c): BPF clock to TSC, drops still pending in the
 * kernel as lost records (or folded into latctl's own), open fault ends cut
 * at the thread's next TSC read, the BPF-only marks cleared (and kept in a
 * LATCTL_BPF_EVENTS file), and the JSON estimated flags (backend.c).
 * CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "backend/bpf/latbpf.h"
#include "backend/bpf/latbpf_user.h"
#include "backend/bpf/ktime_tsc.h"
#include "backend/monitor.h"
#include "system/memmap.h"

#define TID	4242

struct fixture {
	struct lat_evbuf m;
	struct lat_run run;
	struct lat_stream st[1];
	struct lat_sample s[4];
	struct latmon_event ev[16];
	uint64_t dropped[2], last[2];
};

/* Two samples of thread TID: [100, 200] and [300, 400]. */
static void setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->s[0] = (struct lat_sample){ .tsc_begin = 100, .tsc_end = 200 };
	f->s[1] = (struct lat_sample){ .tsc_begin = 300, .tsc_end = 400 };
	f->run.samples = f->s;
	f->run.n = 2;
	f->run.streams = f->st;
	f->run.n_streams = 1;
	f->st[0].tid = TID;
	f->m.ev = f->ev;
	f->m.cap = 12;
	f->m.ncpus = 2;
	f->m.cpu_dropped = f->dropped;
	f->m.cpu_last_tsc = f->last;
}

static void fault(struct fixture *f, uint64_t b, uint64_t e, uint16_t mark)
{
	struct latmon_event *ev = &f->ev[f->m.n++];

	ev->type = LATMON_EV_FAULT;
	ev->tid = TID;
	ev->tsc_begin = b;
	ev->tsc_end = e;
	ev->reserved = mark;
}

static void test_clip(void **state)
{
	struct fixture f;
	uint64_t clipped, open;

	(void)state;
	setup(&f);
	fault(&f, 150, 500, LATBPF_REC_OPEN_END);	/* inside sample 0: its end */
	fault(&f, 250, 900, LATBPF_REC_OPEN_END);	/* between: sample 1's begin */
	fault(&f, 120, 180, LATBPF_REC_OPEN_END);	/* already before: kept */
	fault(&f, 310, 700, 0);			/* ended by rss_stat: kept */
	fault(&f, 450, 800, LATBPF_REC_OPEN_END);	/* after the last: kept */
	open = lat_bpf_clip(&f.m, &f.run, &clipped);
	assert_int_equal(open, 4);
	assert_int_equal(clipped, 2);
	assert_int_equal(f.ev[0].tsc_end, 200);
	assert_int_equal(f.ev[1].tsc_end, 300);
	assert_int_equal(f.ev[2].tsc_end, 180);
	assert_int_equal(f.ev[3].tsc_end, 700);
	assert_int_equal(f.ev[4].tsc_end, 800);
	for (size_t i = 0; i < f.m.n; i++)
		assert_int_equal(f.ev[i].reserved, 0);
}

/* LATCTL_BPF_EVENTS: the records after clipping, marks kept, in the file;
 * a fault ended at a switch-out is not clipped; the join gets no mark. */
static void test_save_events(void **state)
{
	char path[] = "/tmp/test_bpf_post.XXXXXX";
	struct latmon_event got[3];
	struct fixture f;
	uint64_t clipped;
	FILE *in;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	setup(&f);
	fault(&f, 150, 500, LATBPF_REC_OPEN_END);
	fault(&f, 160, 600, LATBPF_REC_OUT_END);
	fault(&f, 310, 700, 0);
	setenv("LATCTL_BPF_EVENTS", path, 1);
	assert_int_equal(lat_bpf_clip(&f.m, &f.run, &clipped), 1);
	unsetenv("LATCTL_BPF_EVENTS");
	assert_int_equal(clipped, 1);
	in = fopen(path, "r");
	assert_non_null(in);
	assert_int_equal(fread(got, sizeof(got[0]), 3, in), 3);
	assert_int_equal(fgetc(in), EOF);
	fclose(in);
	unlink(path);
	assert_int_equal(got[0].tsc_end, 200);
	assert_int_equal(got[0].reserved, LATBPF_REC_OPEN_END);
	assert_int_equal(got[1].tsc_end, 600);
	assert_int_equal(got[1].reserved, LATBPF_REC_OUT_END);
	assert_int_equal(got[2].reserved, 0);
	for (size_t i = 0; i < f.m.n; i++)
		assert_int_equal(f.ev[i].reserved, 0);
}

static void test_pending_lost(void **state)
{
	struct latbpf_cpu c = { .seq = 7, .lost = 3, .lost_first = 50, .lost_last = 90 };
	struct fixture f;

	(void)state;
	setup(&f);
	lat_bpf_pending_lost(&f.m, 1, &c);
	assert_int_equal(f.m.n, 1);
	assert_int_equal(f.ev[0].type, LATMON_EV_LOST);
	assert_int_equal(f.ev[0].cpu, 1);
	assert_int_equal(f.ev[0].seq, 7);
	assert_int_equal(f.ev[0].u.lost.count, 3);
	assert_int_equal(f.ev[0].tsc_begin, 50);
	assert_int_equal(f.ev[0].tsc_end, 90);
	f.dropped[0] = 5;			/* latctl dropped CPU 0's records */
	lat_bpf_pending_lost(&f.m, 0, &c);
	assert_int_equal(f.m.n, 1);
	assert_int_equal(f.dropped[0], 8);
	assert_int_equal(f.m.dropped, 3);
	assert_int_equal(f.last[0], 90);
}

static void test_ktime_map(void **state)
{
	struct lat_ktime_map k = { .tsc_hz = 2e9 };
	struct fixture f;

	(void)state;
	k.start = (struct lat_ktime_point){ .tsc = 10000, .ns = 1000, .window = 40 };
	k.ticks_per_ns = 2.5;
	assert_int_equal(lat_ktime_to_tsc(&k, 1000), 10000);
	assert_int_equal(lat_ktime_to_tsc(&k, 1100), 10250);
	assert_int_equal(lat_ktime_to_tsc(&k, 900), 9750);
	setup(&f);
	fault(&f, 1100, 1200, 0);
	f.last[1] = 1000;
	lat_bpf_to_tsc(&f.m, &k);
	assert_int_equal(f.ev[0].tsc_begin, 10250);
	assert_int_equal(f.ev[0].tsc_end, 10500);
	assert_int_equal(f.last[1], 10000);
	assert_int_equal(f.last[0], 0);		/* none: stays none */
}

static void test_estimated_flags(void **state)
{
	cJSON *doc = cJSON_Parse("{\"causes\":{\"causes\":[{\"label\":\"fault\"},{\"label\":\"preemption\"}]},"
				 "\"slow\":{\"iterations\":[{\"breakdown_ticks\":{\"thp-zero\":5,\"fault\":0,\"interrupt\":3}}]}}");
	struct lat_session m = { .ops = lat_backend_named("bpf") };
	cJSON *rows, *est;

	(void)state;
	lat_backend_mark(doc, &m);
	rows = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "causes"), "causes");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "estimated")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1), "estimated")));
	est = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "slow"),
					"iterations"), 0), "estimated_labels");
	assert_int_equal(cJSON_GetArraySize(est), 1);	/* thp-zero; fault had no tick */
	assert_string_equal(cJSON_GetArrayItem(est, 0)->valuestring, "thp-zero");
	cJSON_Delete(doc);
}

static void put_fault(struct latmon_event *e, void *addr, uint8_t kind)
{
	memset(e, 0, sizeof(*e));
	e->type = LATMON_EV_FAULT;
	e->pid = (uint32_t)getpid();
	e->u.fault.address = (uintptr_t)addr;
	e->u.fault.kind = kind;
}

/* The kinds that depend on the mapping, against this process's own
 * mappings: a new anonymous page on a private file is a copy, a write to a
 * present page of a shared one gives access back, a read with nothing
 * counted on a file is not the zero page, and one unmapped is unknown. */
static void test_fault_maps(void **state)
{
	struct latmon_event ev[6];
	struct lat_evbuf m = { .ev = ev, .n = 6 };
	char path[] = "/tmp/test_bpf_post.XXXXXX";
	int fd = mkstemp(path);
	char *priv, *shared, *anon, *gone;

	(void)state;
	assert_true(fd >= 0 && ftruncate(fd, 8192) == 0);
	priv = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	shared = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	anon = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	gone = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(priv != MAP_FAILED && shared != MAP_FAILED && anon != MAP_FAILED &&
		    gone != MAP_FAILED);
	munmap(gone, 4096);
	put_fault(&ev[0], priv + 4096, LATMON_FK_ANON);
	put_fault(&ev[1], shared, LATMON_FK_COW);
	put_fault(&ev[2], priv, LATMON_FK_ZERO);
	put_fault(&ev[3], anon + 10, LATMON_FK_ZERO);
	put_fault(&ev[4], gone, LATMON_FK_ANON); /* without mm_filemap_fault */
	put_fault(&ev[5], anon, LATMON_FK_THP);
	lat_memmap_clear();
	assert_int_equal(lat_memmap_snapshot(getpid()), 0);
	lat_bpf_fault_maps(&m, false);
	assert_int_equal(ev[0].u.fault.kind, LATMON_FK_COW);
	assert_int_equal(ev[0].u.fault.map, LATMON_MAP_FILE_PRIVATE);
	assert_true(ev[0].u.fault.ino != 0);
	assert_int_equal(ev[1].u.fault.kind, LATMON_FK_WP);
	assert_int_equal(ev[1].u.fault.map, LATMON_MAP_FILE_SHARED);
	assert_int_equal(ev[2].u.fault.kind, LATMON_FK_OTHER);
	assert_int_equal(ev[3].u.fault.kind, LATMON_FK_ZERO);
	assert_int_equal(ev[3].u.fault.map, LATMON_MAP_ANON);
	assert_int_equal(ev[4].u.fault.kind, LATMON_FK_UNKNOWN);
	assert_int_equal(ev[4].u.fault.why, LATMON_FKW_NO_VMA);
	assert_int_equal(ev[5].u.fault.kind, LATMON_FK_THP);
	char buf[256];
	lat_memmap_describe(getpid(), (uintptr_t)priv + 4096 + 5, 0, buf, sizeof(buf));
	assert_non_null(strstr(buf, path));
	assert_non_null(strstr(buf, "+0x1000"));
	lat_memmap_clear();
	munmap(priv, 8192);
	munmap(shared, 8192);
	munmap(anon, 8192);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clip),
		cmocka_unit_test(test_save_events),
		cmocka_unit_test(test_pending_lost),
		cmocka_unit_test(test_ktime_map),
		cmocka_unit_test(test_estimated_flags),
		cmocka_unit_test(test_fault_maps),
	};

	setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0);	/* for prove; env wins */
	return cmocka_run_group_tests_name("bpf_post", tests, NULL, NULL);
}
